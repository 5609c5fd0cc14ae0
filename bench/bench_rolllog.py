"""
Benchmark: the roll log at a million rows.

Run from the repository root:

    .venv/bin/python bench/bench_rolllog.py [--rows 1000000]               SQLite (a temp file)
    scripts/with_postgres.sh .venv/bin/python bench/bench_rolllog.py        PostgreSQL (throwaway)

Not part of the test suite. It migrates a fresh database (SQLite: a temporary file, through
TEST_DB_PATH; PostgreSQL: the throwaway `evennia` database `scripts/with_postgres.sh` makes),
fills the roll log with `--rows` entries (default 1,000,000) by batched bulk inserts - a few
hundred characters, typeclassed accounts and rooms, public and private rolls, several systems
and die sizes, over a year, each with its receivers, its RollFace rows and its place in the
per-day face tally (`rolllog.fairness.add_to_tally`, as `store_roll` keeps it), and one quiet
player in one room - then counts the lists' tables from the whole log
(`rolllog.listing.rebuild`), and times:

- the Rolls web page (Django's test Client; logged in as staff, as a player who was in every
  room and as the quiet player): the first page, a deep page (by number), filtered by
  character and by code;
- `+rolls` (what commands/rolllog.py CmdRolls runs: `api.search`, `api.page`,
  `display.format_page`): the first page and a deep page, staff (also /private) and player;
- `+roll/verify <code>` (commands.rolllog.verify_roll);
- the fairness counts (`rolllog.fairness.face_counts`): everyone (as staff and as a player, who
  counts public rolls and the private ones shown to them) and one character, all time and the
  last 30 days; the fairness web page and what `+dice/fairness` runs, the same.

Each figure is the median of several runs in ms, printed with its ratio against two baselines
measured in the same run: a `SELECT 1` round trip and fetching one entry by primary key. Every
one of them is a page or a command, so each must be under 200 ms.
"""

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "game"), ROOT]  # the host game's commands/ and typeclasses/ first

BATCH = 10_000
REPEATS = 7
CHARACTERS = 300
ACCOUNTS = 200
ROOMS = 60
TARGET_MS = 200
QUIET_EVERY = 5000  # one row in so many is the quiet player's
ACCOUNT_TYPECLASS = "typeclasses.accounts.Account"


def setup_django(args):
    postgres = os.environ.get("GAME_DB", "sqlite").lower() in ("postgres", "postgresql")
    if not postgres:
        path = args.sqlite or os.path.join(tempfile.mkdtemp(prefix="bench_rolllog_"), "bench.db3")
        os.environ["TEST_DB_PATH"] = path
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.conf.settings")
    import django

    django.setup()
    from django.conf import settings

    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test Client's response.context
    settings.ALLOWED_HOSTS = ["*"]
    settings.TEST_ENVIRONMENT = True
    return "postgresql" if postgres else f"sqlite ({os.environ['TEST_DB_PATH']})"


# ---------------------------------------------------------------- filling


def code_of(number):
    """A unique verification code for row `number` (a bijection of 31**8: no clashes to retry)."""
    from storyteller_dice.rolllog.codes import ALPHABET, LENGTH

    value = (number * 614_889_782_588_491 + 1_234_567) % len(ALPHABET) ** LENGTH
    chars = []
    for _ in range(LENGTH):
        value, digit = divmod(value, len(ALPHABET))
        chars.append(ALPHABET[digit])
    return "".join(chars)


def v5_marks(face, hunger):
    marks = ["ten", "success"] if face == 10 else ["success"] if face >= 6 else ["fail"]
    if hunger:
        marks.append("hunger")
        if face == 1:
            marks.append("one")
    return sorted(marks)


def make_view(rng, system):
    """A realistic RollView dict: V5 (Dice + Hunger d10), V20 (d10), Whalefall (d6), dicecheck (d20)."""
    if system == "v5":
        size, hunger = rng.randint(1, 12), rng.randint(0, 4)
        hunger = min(hunger, size)
        regular = [rng.randint(1, 10) for _ in range(size - hunger)]
        hungry = [rng.randint(1, 10) for _ in range(hunger)]
        groups = [{"label": "Dice", "sides": 10, "dice": [[f, v5_marks(f, False)] for f in regular]}]
        if hungry:
            groups.append({"label": "Hunger", "sides": 10, "dice": [[f, v5_marks(f, True)] for f in hungry]})
        score = sum(f >= 6 for f in regular + hungry)
        target = f"vs {rng.randint(1, 5)}"
        pool = f"Dexterity 3 + Stealth {size - 3 if size > 3 else 0} = {size} ({size} dice), Hunger {hunger}"
    elif system == "v20":
        size = rng.randint(1, 10)
        faces = [rng.randint(1, 10) for _ in range(size)]
        groups = [{"label": "Dice", "sides": 10, "dice": [[f, ["success"] if f >= 6 else []] for f in faces]}]
        score, target, pool = sum(f >= 6 for f in faces), "difficulty 6", f"Wits 2 + Alertness {size - 2} = {size}"
    elif system == "whalefall":
        size = rng.randint(1, 8)
        faces = [rng.randint(1, 6) for _ in range(size)]
        groups = [{"label": "Dice", "sides": 6, "dice": [[f, ["success"] if f >= 5 else []] for f in faces]}]
        score, target, pool = sum(f >= 5 for f in faces), "", f"{size} dice"
    else:
        face = rng.randint(1, 20)
        groups = [{"label": "Die", "sides": 20, "dice": [[face, []]]}]
        score, target, pool = face, "DC 12", "d20 + 3"
    key, tone = rng.choice([("success", "good"), ("failure", "bad"), ("critical", "triumph"), ("messy_critical", "mixed")])
    view = {"system": system, "pool": pool, "target": target, "groups": groups, "score": score,
            "noun": ["success", "successes"], "outcome": {"key": key, "label": key.replace("_", " "), "tone": tone},
            "notes": []}
    return view, key


def fast_insert(model, objects):
    """
    INSERT the objects with one executemany: Django's bulk_create spends most of its time
    compiling SQL for JSON columns, which would make the fill take half an hour.
    """
    import json

    from django.db import connection, models

    if not objects:
        return
    ops, pg = connection.ops, connection.vendor == "postgresql"
    fields = [f for f in model._meta.concrete_fields if not (f.primary_key and getattr(objects[0], f.attname) is None)]
    convert = []
    for field in fields:
        if isinstance(field, models.JSONField):
            convert.append(json.dumps)
        elif isinstance(field, models.DateTimeField):
            convert.append(ops.adapt_datetimefield_value)
        else:
            convert.append(None)
    holders = ", ".join("%s::jsonb" if pg and isinstance(f, models.JSONField) else "%s" for f in fields)
    sql = (f"INSERT INTO {model._meta.db_table} ({', '.join(connection.ops.quote_name(f.column) for f in fields)}) "
           f"VALUES ({holders})")
    params = [tuple(value if c is None else c(value)
                    for c, value in zip(convert, (getattr(obj, f.attname) for f in fields)))
              for obj in objects]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def fill(rows, seed=14):
    from django.db import connection, transaction
    from django.utils import timezone
    from evennia.accounts.models import AccountDB
    from evennia.objects.models import ObjectDB

    from storyteller_dice.rolllog.fairness import add_to_tally, face_rows
    from storyteller_dice.rolllog.models import RollEntry, RollFace

    rng = random.Random(seed)
    started = time.perf_counter()
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:  # a throwaway file: no waiting for the disk
            cursor.execute("PRAGMA synchronous=OFF")
    staff = AccountDB.objects.create_superuser("benchstaff", "staff@example.org", "bench-password")
    AccountDB.objects.filter(id=staff.id).update(db_typeclass_path=ACCOUNT_TYPECLASS)
    from django.contrib.auth.hashers import make_password

    password = make_password("bench-password")  # hashing is slow by design: once for all
    # Typeclassed, as every account of a game is: the Rolls page reads a player's characters
    # through it (an AccountDB without one sees only the rolls its account made).
    accounts = [AccountDB(username=f"player{i:03d}", password=password, db_typeclass_path=ACCOUNT_TYPECLASS)
                for i in range(ACCOUNTS)]
    AccountDB.objects.bulk_create(accounts)
    accounts = list(AccountDB.objects.filter(username__startswith="player").order_by("id"))
    rooms = ObjectDB.objects.bulk_create(
        [ObjectDB(db_key=f"Room {i}", db_typeclass_path="typeclasses.rooms.Room") for i in range(ROOMS)])
    characters = ObjectDB.objects.bulk_create(
        [ObjectDB(db_key=f"Character{i:03d}", db_typeclass_path="typeclasses.characters.Character",
                  db_account=accounts[i % ACCOUNTS]) for i in range(CHARACTERS)])
    rooms = list(ObjectDB.objects.filter(db_key__startswith="Room ").order_by("id"))
    characters = list(ObjectDB.objects.filter(db_key__startswith="Character").order_by("id"))
    # A quiet player: one character, a roll now and then, always in the first room, shown to
    # nobody else; nobody shows it anything (it sees that room's public rolls and its own).
    AccountDB.objects.bulk_create([AccountDB(username="quiet", password=password, db_typeclass_path=ACCOUNT_TYPECLASS)])
    quiet_account = AccountDB.objects.get(username="quiet")
    ObjectDB.objects.bulk_create([ObjectDB(db_key="Quiet", db_typeclass_path="typeclasses.characters.Character",
                                           db_account=quiet_account)])
    quiet = ObjectDB.objects.get(db_key="Quiet")
    # Each character keeps to a few haunts, as players do.
    haunts = {c.id: rng.sample(rooms, 4) for c in characters}

    now = timezone.now()
    year = 365 * 24 * 3600
    systems = ["v5"] * 6 + ["v20"] * 2 + ["whalefall", "dicecheck"]
    through = RollEntry.receivers.through
    done = 0
    while done < rows:
        count = min(BATCH, rows - done)
        # Each batch is spread over the whole year (so ids do not follow time: the harder
        # case for reading by created), oldest first within the batch.
        offsets = sorted((rng.random() * year for _ in range(count)), reverse=True)
        entries, people = [], []
        for n in range(count):
            number = done + n
            roller = rng.choice(characters)
            room = rng.choice(haunts[roller.id])
            system = rng.choice(systems)
            view, outcome = make_view(rng, system)
            private = rng.random() < 0.25
            others = rng.sample(characters, rng.randint(0, 3))
            if number % QUIET_EVERY == QUIET_EVERY - 1:  # the same draws: the rest stays as it was
                roller, room, others = quiet, rooms[0], []
            seen = [roller] + [c for c in others if c.id != roller.id]
            code = code_of(number)
            command = f"+roll {view['pool'].split(' (')[0]} {view['target']} # Row {number} sneaking past the guards"
            text = (f"|w[Roll]|n {roller.db_key} rolls {view['pool']} {view['target']}\n  Dice: "
                    + " ".join(str(f) for g in view["groups"] for f, _m in g["dice"])
                    + f"  =>  {view['score']} successes: {outcome}  [code {code}]")
            entries.append(RollEntry(
                id=number + 1, code=code, created=now - datetime.timedelta(seconds=offsets[n]), kind="roll",
                character_id=roller.id, character_name=roller.db_key, account_id=roller.db_account_id,
                account_name=roller.db_account.username if roller is quiet else
                accounts[(roller.id - characters[0].id) % ACCOUNTS].username,
                room_id=room.id, room_name=room.db_key, system=system, command=command,
                comment="sneaking past the guards", pool_text=view["pool"], dice=sum(len(g["dice"]) for g in view["groups"]),
                target=view["target"], score=view["score"], outcome=outcome, summary=f"{view['score']} successes: {outcome}",
                view=view, private=private, receiver_names=[c.db_key for c in seen], text=text))
            people.append(seen)
        with transaction.atomic():
            fast_insert(RollEntry, entries)
            fast_insert(through, [through(rollentry_id=e.id, objectdb_id=c.id)
                                  for e, seen in zip(entries, people) for c in seen])
            faces = [face for e in entries for face in face_rows(e)]
            fast_insert(RollFace, faces)
            add_to_tally(faces)  # as store_roll does, in the same transaction
        done += count
        if done % 100_000 == 0 or done == rows:
            print(f"  filled {done:>9,} rows  {time.perf_counter() - started:6.1f} s", flush=True)
    if connection.vendor == "postgresql":  # the ids were given: move the sequence past them
        with connection.cursor() as cursor:
            cursor.execute("SELECT setval(pg_get_serial_sequence('rolllog_rollentry', 'id'), %s)", [rows + 1])
    filled = time.perf_counter() - started
    # The inserts went around save(), which keeps the lists' counts: count them from the whole
    # log (the tally was kept batch by batch, as store_roll keeps it).
    from storyteller_dice.rolllog import listing

    listing.rebuild()
    counted = time.perf_counter() - started - filled
    # Fresh statistics for the planners, as a live database has (PostgreSQL: and the visibility
    # map, for index-only scans).
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    return staff, accounts[0], quiet_account, characters, filled, counted


# ---------------------------------------------------------------- timing


def timed(function, repeats=REPEATS):
    function()  # warm: the first call pays for imports, templates, plans
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="roll log entries to fill (default 1,000,000)")
    parser.add_argument("--sqlite", help="SQLite file to use (default: a new temporary file)")
    parser.add_argument("--reuse", action="store_true",
                        help="PostgreSQL: time a database an earlier run filled (as --sqlite FILE does)")
    args = parser.parse_args()
    backend = setup_django(args)

    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from evennia.objects.models import ObjectDB

    from storyteller_dice.commands import rolllog as cmd_rolllog
    from storyteller_dice.rolllog import api, display, fairness
    from storyteller_dice.rolllog.models import RollEntry

    call_command("migrate", verbosity=0)
    from evennia.accounts.models import AccountDB

    if (args.sqlite or args.reuse) and RollEntry.objects.exists():
        # --sqlite FILE or --reuse of an earlier run: time it again without filling.
        args.rows = RollEntry.objects.count()
        print(f"Roll log bench on {backend}: {args.rows:,} rows (filled by an earlier run)")
        staff = AccountDB.objects.get(username="benchstaff")
        player = AccountDB.objects.filter(username__startswith="player").order_by("id").first()
        quiet = AccountDB.objects.filter(username="quiet").first()  # None: filled before there was one
        characters = list(ObjectDB.objects.filter(db_key__startswith="Character").order_by("id"))
    else:
        print(f"Roll log bench on {backend}: {args.rows:,} rows")
        staff, player, quiet, characters, seconds, counted = fill(args.rows)
        print(f"  fill: {seconds:.1f} s ({args.rows / seconds:,.0f} rows/s); "
              f"the lists' counts (rolllog.listing.rebuild): {counted:.1f} s")

    player_char = ObjectDB.objects.get(id=characters[0].id)  # player000's first character (typeclassed)
    staff_char = ObjectDB.objects.get(id=characters[1].id)
    ids = list(RollEntry.objects.order_by("?").values_list("id", flat=True)[:1]) if args.rows < 50_000 else \
        [RollEntry.objects.order_by("id").values_list("id", flat=True)[args.rows // 2]]
    some = RollEntry.objects.get(id=ids[0])
    mine = RollEntry.objects.filter(character=player_char).order_by("created").first()

    def select_one():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    rng = random.Random(1)
    all_ids = RollEntry.objects.order_by("-id").values_list("id", flat=True)[:1]
    top = all_ids[0]

    def by_pk():
        RollEntry.objects.get(pk=rng.randint(1, top))

    baselines = {"SELECT 1": timed(select_one, 51), "one row by pk": timed(by_pk, 51)}

    staff_client, player_client, quiet_client = Client(), Client(), Client()
    staff_client.force_login(staff)
    player_client.force_login(player)
    if quiet is not None:
        quiet_client.force_login(quiet)

    def page_count(client):
        response = client.get("/rolls/")
        assert response.status_code == 200, response.status_code
        return response.context["entries_page"].paginator.num_pages

    def web(client, query):
        def run():
            response = client.get("/rolls/" + query)
            assert response.status_code == 200, response.status_code
        return run

    def fairness_page(client, query=""):
        def run():
            response = client.get("/rolls/fairness/" + query)
            assert response.status_code == 200, response.status_code
        return run

    staff_pages, player_pages = page_count(staff_client), page_count(player_client)
    quiet_pages = page_count(quiet_client) if quiet is not None else 0
    deep_staff, deep_player = max(1, staff_pages * 9 // 10), max(1, player_pages * 9 // 10)
    deep_quiet = max(1, quiet_pages * 9 // 10)
    name = player_char.key

    def rolls(caller, number, staff, private=False):
        def run():
            query = api.search(private_only=private) if staff else api.search(character=caller)
            entries, total, pages = api.page(query, number, size=cmd_rolllog.PAGE_SIZE)
            display.format_page(entries, total, min(number, pages), pages, "Roll log", "+rolls", width=80)
        return run

    staff_rolls_pages = api.page(api.search(), 1, cmd_rolllog.PAGE_SIZE)[2]
    private_rolls_pages = api.page(api.search(private_only=True), 1, cmd_rolllog.PAGE_SIZE)[2]
    player_rolls_pages = api.page(api.search(character=player_char), 1, cmd_rolllog.PAGE_SIZE)[2]
    player_char.msg = lambda *a, **k: None  # no session: the text is made and dropped
    staff_char.msg = lambda *a, **k: None
    from django.utils import timezone

    since = timezone.now() - datetime.timedelta(days=30)  # the last 30 days: 1/12 of the log
    from storyteller_dice.commands.fairness import format_report, report_tests, scope_text

    def dice_fairness(character, days, viewer=None):
        """What +dice/fairness runs (as `viewer`; None: staff): the counts, the tests, the report's text."""
        format_report(report_tests(character, days, shown_to=viewer),
                      scope_text(character.key if character else "", days))

    cases = [
        ("web staff: first page", web(staff_client, "")),
        (f"web staff: page {deep_staff} of {staff_pages}", web(staff_client, f"?page={deep_staff}")),
        (f"web staff: character {name}", web(staff_client, f"?character={name}")),
        ("web staff: by code", web(staff_client, f"?code={some.code}")),
        ("web player: first page", web(player_client, "")),
        (f"web player: page {deep_player} of {player_pages}", web(player_client, f"?page={deep_player}")),
        (f"web player: character {name}", web(player_client, f"?character={name}")),
        ("web player: by code", web(player_client, f"?code={mine.code if mine else some.code}")),
        *([("web quiet player: first page", web(quiet_client, "")),
           (f"web quiet player: page {deep_quiet} of {quiet_pages}", web(quiet_client, f"?page={deep_quiet}"))]
          if quiet is not None else []),
        ("+rolls staff: first page", rolls(staff_char, 1, True)),
        (f"+rolls staff: page {staff_rolls_pages * 9 // 10} of {staff_rolls_pages}",
         rolls(staff_char, max(1, staff_rolls_pages * 9 // 10), True)),
        (f"+rolls/private staff: page {private_rolls_pages * 9 // 10} of {private_rolls_pages}",
         rolls(staff_char, max(1, private_rolls_pages * 9 // 10), True, private=True)),
        ("+rolls player: first page", rolls(player_char, 1, False)),
        (f"+rolls player: page {player_rolls_pages} of {player_rolls_pages}",
         rolls(player_char, player_rolls_pages, False)),
        ("+roll/verify (player, own roll)", lambda: cmd_rolllog.verify_roll(player_char, mine.code)),
        ("+roll/verify (player, someone's)", lambda: cmd_rolllog.verify_roll(player_char, some.code)),
        ("fairness: everyone, all time", lambda: fairness.face_counts()),
        ("fairness: one character, all time", lambda: fairness.face_counts(character=player_char)),
        ("fairness: everyone, 30 days", lambda: fairness.face_counts(since=since)),
        ("fairness: one character, 30 days",
         lambda: fairness.face_counts(character=player_char, since=since)),
        ("fairness: everyone as a player, all time", lambda: fairness.face_counts(shown_to=player_char)),
        ("fairness: everyone as a player, 30 days",
         lambda: fairness.face_counts(since=since, shown_to=player_char)),
        ("web fairness staff: whole game, all time", fairness_page(staff_client)),
        ("web fairness staff: whole game, 30 days", fairness_page(staff_client, "?days=30")),
        ("web fairness player: whole game, all time", fairness_page(player_client)),
        ("web fairness player: own character, 30 d",
         fairness_page(player_client, f"?character={player_char.id}&days=30")),
        ("+dice/fairness: whole game, all time", lambda: dice_fairness(None, None)),
        ("+dice/fairness: whole game, 30 days", lambda: dice_fairness(None, 30)),
        ("+dice/fairness me (one character)", lambda: dice_fairness(player_char, None)),
        ("+dice/fairness player: whole game", lambda: dice_fairness(None, None, player_char)),
        ("+dice/fairness player: whole game, 30 d", lambda: dice_fairness(None, 30, player_char)),
    ]
    print()
    for label, ms in baselines.items():
        print(f"  baseline {label:<29} {ms:9.3f} ms")
    print()
    print(f"  {'query':<42} {'ms':>9} {'x SELECT 1':>11} {'x by pk':>9}")
    slow = []
    for label, run in cases:
        ms = timed(run)
        flag = "" if ms < TARGET_MS else "  OVER TARGET"
        if flag:
            slow.append(label)
        print(f"  {label:<42} {ms:9.1f} {ms / baselines['SELECT 1']:11.0f} {ms / baselines['one row by pk']:9.1f}{flag}",
              flush=True)
    print()
    print(f"  pages and commands under {TARGET_MS} ms: {'all' if not slow else 'NOT ' + ', '.join(slow)}")


if __name__ == "__main__":
    main()
