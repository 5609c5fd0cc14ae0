"""
Benchmark: the slowest commands a player can type, each against a plain `+roll 3`.

Run from the repository root:  .venv/bin/python bench/bench_commands.py [repeats]

Evennia runs every command on its one reactor thread: while a command works, nobody in the
game gets an answer. This runs real commands on real Evennia objects (a throwaway in-memory
test database, set up like the test suite's, with `EvenniaCommandTest`'s room, characters and
session; every room message goes through `msg()` to the sessions, as in the game) and prints
each one's median time and its ratio to the baseline, a plain `+roll 3` measured in the same
run. Before issue 8, `+roll/private 3=Bob,Bob,...` with ~1,200 names held the game 3.4 s.

The cases are the bounded worst ones: the most names a private roll takes (10, all real
characters here, plus the 1,200-name flood that is now refused), the longest pool expression
(200 characters, 20 terms, 40 dice), `+odds` at 50 dice with Hunger 5 and its caches cleared,
`+willpower best` on a 50-die roll (the exact choice of the best reroll), a 50-die contest,
and the longest hostile comment a client can send (markup, `$func()`, braces, links).
"""

import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "game")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.conf.test_settings")

LIMIT_MS = 50.0


def set_up():
    """A test database (no migrations, like `pytest --no-migrations`) and Evennia started."""
    cwd = os.getcwd()
    import django

    django.setup()
    os.chdir(cwd)
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.settings_dict.setdefault("TEST", {})["MIGRATE"] = False
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    import evennia

    evennia._init()


def make_world():
    from evennia.utils import create
    from evennia.utils.test_resources import EvenniaCommandTest

    class World(EvenniaCommandTest):
        def runTest(self):  # noqa: N802 - unittest's name
            pass

    world = World()
    world.setUp()
    for char in (world.char1, world.char2):
        for trait in ("dexterity", "athletics", "stealth", "composure", "resolve"):
            char.set_trait(trait, 2)
        char.set_trait("hunger", 1)
    world.others = [create.create_object(world.character_typeclass, key=f"Watcher{i}", location=world.room1,
                                         home=world.room1) for i in range(10)]
    return world


def run(world, cmdclass, args, caller=None):
    """One command, as the command handler runs it (parse, func); its messages really sent."""
    caller = caller or world.char1
    cmd = cmdclass()
    cmd.caller = caller
    cmd.cmdname = cmd.raw_cmdname = cmd.cmdstring = cmd.key
    cmd.args = args
    cmd.cmdset = None
    cmd.session = world.session
    cmd.account = world.account
    cmd.raw_string = cmd.key + args
    cmd.obj = caller
    cmd.at_pre_cmd()
    cmd.parse()
    cmd.func()
    cmd.at_post_cmd()


def timed(world, repeats, cmdclass, args, before=None):
    times = []
    for _ in range(repeats):
        if before:
            before()
        start = time.perf_counter()
        run(world, cmdclass, args)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    set_up()
    from commands.v5.contest import CmdContest
    from commands.odds import CmdOdds
    from commands.rolls import CmdCheck, CmdRoll
    from commands.v5.willpower import CmdWillpower
    from rules import v5_odds

    world = make_world()
    char = world.char1

    def clear_odds():
        for name in dir(v5_odds):
            cached = getattr(v5_odds, name)
            if hasattr(cached, "cache_clear"):
                cached.cache_clear()

    def fifty_dice_roll():
        char.set_trait("willpower superficial", 0)
        clear_odds()
        run(world, CmdCheck, " 50")

    names = ", ".join(obj.key for obj in world.others)
    pool = "+".join(["dexterity"] * 20)
    assert len(pool) <= 200, len(pool)
    hostile = " # " + ("|lc$eval(2**10){you:>99}|/[Roll] |[r|#ff0000\x1b[2J\u202e" * 130)[:5900]
    flood = "/private 3=" + ",".join(["Bob"] * 1200)
    cases = [
        ("+roll 3 (baseline)", CmdRoll, " 3", None),
        ("+roll/private 3=<10 characters>", CmdRoll, f"/private 3={names}", None),
        ("+roll/private 3=Bob x1200 (refused)", CmdRoll, flood, None),
        ("+roll/private 3=<1200 names> (refused)", CmdRoll,
         "/private 3=" + ",".join(f"Bob{i}" for i in range(1200)), None),
        ("+roll <200-char pool, 20 terms>", CmdRoll, f" {pool} vs 5", None),
        ("+roll 3 # <5,900-char hostile comment>", CmdRoll, " 3" + hostile, None),
        ("+odds 50 vs 10 hunger 5 (cold)", CmdOdds, " 50 vs 10 hunger 5", clear_odds),
        ("+check 50 vs 10", CmdCheck, " 50 vs 10", None),
        ("+contest 50 vs 50 hunger 5", CmdContest, " 50 vs 50 hunger 5", None),
        ("+willpower best on 50 dice (cold)", CmdWillpower, " best", fifty_dice_roll),
        ("+odds/reroll on 50 dice (cold)", CmdOdds, "/reroll", fifty_dice_roll),
    ]
    # Warm-up (imports, first queries), then the figures.
    for _, cmdclass, args, before in cases:
        if before:
            before()
        run(world, cmdclass, args)
    print(f"Median of {repeats} runs each, on real Evennia objects (test database); "
          "ratio against +roll 3 in this run.\n")
    print(f"{'command':<42} {'median ms':>10} {'x baseline':>11}")
    results = []
    baseline = None
    for label, cmdclass, args, before in cases:
        ms = timed(world, repeats, cmdclass, args, before)
        baseline = baseline or ms
        results.append((label, ms))
        print(f"{label:<42} {ms:>10.2f} {ms / baseline:>10.1f}x")
    slowest = max(results[1:], key=lambda item: item[1])
    verdict = "well under" if slowest[1] < LIMIT_MS / 2 else ("under" if slowest[1] < LIMIT_MS else "OVER")
    print(f"\nSlowest: {slowest[0]} at {slowest[1]:.2f} ms: {verdict} the {LIMIT_MS:.0f} ms limit "
          f"({slowest[1] / baseline:.1f}x the baseline).")
    world.tearDown()
    return 0 if slowest[1] < LIMIT_MS else 1


if __name__ == "__main__":
    sys.exit(main())
