"""
Benchmark: the slowest commands a player can type, each against a plain `+roll 3`; and with
`scene`, what each command of a scene costs the server as the room fills (`say` against
`+roll`, `+check`, `+contest`, `+teamwork`, `+rouse`, V20 `+roll/multi`, Seyruun `+resist`).

Run from the repository root:  .venv/bin/python bench/bench_commands.py [repeats]
                               .venv/bin/python bench/bench_commands.py scene [repeats]

Evennia runs every command on its one reactor thread: while a command works, nobody in the
game gets an answer. This runs real commands on real Evennia objects (a throwaway in-memory
test database, set up like the test suite's, with `EvenniaCommandTest`'s room, characters and
session; every room message goes through `msg()` to the sessions, as in the game) and prints
each one's median time and its ratio to the baseline, a plain `+roll 3` measured in the same
run. Before private rolls took at most 10 names, `+roll/private 3=Bob,Bob,...` with ~1,200 names held the game 3.4 s.

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
sys.path[:0] = [os.path.join(ROOT, "game"), ROOT]  # the host game's commands/ and typeclasses/ first
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
    """One command, as the command handler runs it (tests/scene_helpers.py `run`)."""
    from tests.scene_helpers import run as run_command

    run_command(world, cmdclass, args, caller=caller)


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
    from storyteller_dice.commands.v5.contest import CmdContest
    from storyteller_dice.commands.odds import CmdOdds
    from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
    from storyteller_dice.commands.v5.willpower import CmdWillpower
    from storyteller_dice.rules.v5 import exact_odds as v5_odds

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


# ---------------------------------------------------------------- scene

SCENE_SIZES = (1, 10, 50)
SCENE_WIDTHS = (80, 100)  # the clients' widths, in turn: two screens in a full room


def to_the_portal(session, **kwargs):
    """
    What the Server does with each message to a session before the network, in place of the
    tests' Mock: Evennia's clean-up of the message (`clean_senddata`, its outgoing `$func()`
    pass included), then AMP's packing (pickled, zlib at level 9), the same for every command.
    """
    import pickle
    import zlib

    import evennia

    kwargs = evennia.SESSION_HANDLER.clean_senddata(session, kwargs)
    zlib.compress(pickle.dumps((session.sessid, kwargs), pickle.HIGHEST_PROTOCOL), 9)


def make_scene_world():
    import evennia
    from evennia.utils.test_resources import EvenniaCommandTest

    from tests.scene_helpers import Scene

    class World(Scene, EvenniaCommandTest):
        def runTest(self):  # noqa: N802 - unittest's name
            pass

    world = World()
    world.setUp()
    evennia.SESSION_HANDLER.data_out = to_the_portal
    return world


def scene_sheets(people, system):
    """Every character of the scene with the traits its commands use (the system's own names)."""
    traits = {"v5": {"dexterity": 3, "athletics": 2, "composure": 2, "resolve": 2, "hunger": 1,
                     "blood potency": 1},
              "v20": {"dexterity": 3, "brawl": 2},
              "seyruun": {"dexterity": 3, "stealth": 2, "resolve": 2, "composure": 2}}[system]
    for character in people:
        for trait, value in traits.items():
            character.set_trait(trait, value)


def scene_cases(world, people):
    """(label, system, command class, args, caller, set-up before each run, untimed) of a scene."""
    from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
    from storyteller_dice.commands.seyruun.contest import CmdResist
    from storyteller_dice.commands.speech import CmdSay
    from storyteller_dice.commands.v5.contest import CmdContest
    from storyteller_dice.commands.v5.hunger import CmdRouse
    from storyteller_dice.commands.v5.teamwork import CmdTeamwork

    roller, other = people[0], people[-1]

    def challenged():
        run(world, CmdContest, " dex+athletics vs " + roller.key, caller=other)

    def team_open():
        run(world, CmdTeamwork, "/cancel") if _leads(roller) else None
        run(world, CmdTeamwork, " dex+athletics vs 4")

    def team_joined():
        team_open()
        if other is not roller:
            run(world, CmdTeamwork, f"/join {roller.key}=com+res", caller=other)

    def calm():
        roller.set_trait("hunger", 1)

    two = other is not roller
    return [
        ("say hello", "v5", CmdSay, " hello there, everyone", roller, None),
        ("+roll dex+athletics+2 vs 2", "v5", CmdRoll, " dex+athletics+2 vs 2 # up the wall", roller, None),
        ("+check 5 vs 2", "v5", CmdCheck, " 5 vs 2 # a quick one", roller, None),
        ("+contest dex+athletics vs 6 (NPC)", "v5", CmdContest, " dex+athletics vs 6 hunger 1", roller, None),
        ("+contest/answer com+res", "v5", CmdContest, "/answer com+res", roller, challenged) if two else None,
        ("+teamwork/join", "v5", CmdTeamwork, f"/join {roller.key}=com+res", other, team_open)
        if two else None,
        ("+teamwork/roll", "v5", CmdTeamwork, "/roll", roller, team_joined),
        ("+rouse", "v5", CmdRouse, "", roller, calm),
        ("+roll/multi (V20)", "v20", CmdRoll, "/multi dex+brawl, dex+brawl vs 7", roller, None),
        ("+resist (Seyruun)", "seyruun", CmdResist, " dex+stealth vs 2", roller, None),
    ]


def _leads(character):
    from storyteller_dice.commands.v5.teamwork import load_team

    return load_team(character) is not None


def scene_cost(world, cmdclass, args, caller, before, repeats):
    """(statements, least and median CPU ms) of the command, `before` run untimed ahead of each."""
    from tests.scene_helpers import cost

    statements, times = None, []
    for _ in range(repeats):
        if before:
            before()
        count, spent, _sql = cost(lambda: run(world, cmdclass, args, caller=caller))
        statements = count if statements is None else max(statements, count)
        times.append(spent)
    return statements, min(times), statistics.median(times)


def scene_main(repeats):
    set_up()
    from django.test import override_settings

    world = make_scene_world()
    print(f"CPU time (process_time) per command, least and median of {repeats} runs, and SQL statements, with "
          f"N connected characters in one room (clients at {' and '.join(map(str, SCENE_WIDTHS))} columns in "
          "turn); x say and x +roll: the least time against say's and +roll's at the same N in this run (the "
          "least is the steadier figure on a shared machine).\n")
    print(f"{'command':<36} {'N':>3} {'SQL':>4} {'CPU ms':>7} {'median':>7} {'x say':>6} {'x +roll':>8}")
    worst = 0.0
    for size in SCENE_SIZES:
        people = world.scene(size, widths=SCENE_WIDTHS, name=f"Scene{size}x")
        baseline = {}
        for case in scene_cases(world, people):
            if case is None:
                continue
            label, system, cmdclass, args, caller, before = case
            with override_settings(DICE_SYSTEM=system):
                scene_sheets(people, system)
                if before:
                    before()
                run(world, cmdclass, args, caller=caller)  # warm
                statements, ms, median = scene_cost(world, cmdclass, args, caller, before, repeats)
            key = "say" if label.startswith("say") else "+roll" if label.startswith("+roll dex") else None
            if key:
                baseline[key] = ms
            ratio_roll = ms / baseline["+roll"] if "+roll" in baseline else 1.0
            if label.startswith("+") and "+roll" in baseline:
                worst = max(worst, ratio_roll)
            print(f"{label:<36} {size:>3} {statements:>4} {ms:>7.2f} {median:>7.2f} {ms / baseline['say']:>5.1f}x "
                  f"{ratio_roll:>7.2f}x")
        print()
    print(f"Dearest scene command: {worst:.2f}x a +roll at the same N (the limit is 2x).")
    world.tearDown()
    return 0 if worst <= 2.0 else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "scene":
        sys.exit(scene_main(int(sys.argv[2]) if len(sys.argv) > 2 else 21))
    sys.exit(main())
