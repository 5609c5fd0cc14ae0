"""
The move to the system-neutral record, step 2 of 3: every existing row (all V5) into the
system-neutral form, without loss.

Until the record became system-neutral every entry was a V5 roll stored in V5's own columns
(`regular` and `hunger` faces, `difficulty`, `successes`, an outcome key) and a contest or
teamwork roll ran both sides' dice together in those columns, with each side apart only in
`details`. The record is now a `rules.engine.RollView` dict (`RollView.to_dict`): labelled
groups of dice with marks, the target as text, a score, an outcome with a label and a tone.

The view, sides, verdict and target are built by `convert_row` below: frozen code, a
description of how old V5 rows looked, written out here rather than imported from `rules.v5*`
or the roll log, so this migration converts the same way for ever, whatever those modules
become (standard library and Django only). `tests/test_rolllog_migration.py` checks it against
the live V5 view (`rules.v5_system`) face by face, and against the rows it converted before.
The old V5 columns are copied whole into `data` (with `"legacy": true`), so nothing they held
is lost when step 3 drops them. A contest row's summary becomes the verdict as the room saw it
(it was "4 to 5: Thorne wins by 1", attacker first and the defender's successes second,
against the room's "Thorne wins by 1 (5 to 4)").

**Ruling (old contest sides):** an old contest row kept each side's faces and successes but
not its outcome flags; they are worked out again as the contest scored them (docs/v5.md and
`rules.v5_contest`: the attacker needs one success more than the defender, the defender as
many as the attacker, 0 successes never wins), under the official bestial rule (a losing side
with a Hunger 1 showing), the only one old games ran with by default.

**Ruling (no outcome key):** an old row whose outcome was words (a Rouse check: "1 passed,
0 failed: Hunger 2 -> 2") gets the outcome key of its kind ("rouse"), its words as the label,
and the tone "neutral".

Going back fills the old columns again from `data`.
"""

from django.db import migrations

BATCH = 500

SYSTEM = "v5"

# Each V5 outcome key as old rows held it: its words and its tone.
OUTCOMES = {
    "messy_critical": ("messy critical", "mixed"),
    "critical": ("critical success", "triumph"),
    "exceptional": ("exceptional success", "good"),
    "solid": ("solid success", "good"),
    "bare": ("bare success", "good"),
    "success": ("success", "good"),
    "bestial_failure": ("bestial failure", "disaster"),
    "total_failure": ("total failure", "dire"),
    "failure": ("failure", "bad"),
}
LABELS = {key: label for key, (label, _tone) in OUTCOMES.items()}
TONES = {key: tone for key, (_label, tone) in OUTCOMES.items()}
NOUN = ["success", "successes"]


def _ints(values):
    return [int(v) for v in (values or ()) if isinstance(v, int) and not isinstance(v, bool)]


def regular_marks(face, rerolled=False):
    marks = {"ten", "success"} if face == 10 else {"success"} if face >= 6 else {"fail"}
    if rerolled:
        marks.add("rerolled")
    return sorted(marks)


def hunger_marks(face):
    marks = {"hunger"}
    marks |= {"ten", "success"} if face == 10 else {"success"} if face >= 6 else {"one"} if face == 1 else {"fail"}
    return sorted(marks)


def groups(regular, hunger, rerolled=()):
    """The V5 dice groups: "Dice" (the regular dice) and "Hunger" (when there were any)."""
    rerolled = set(rerolled or ())
    regular, hunger = _ints(regular), _ints(hunger)
    out = []
    if regular:
        out.append({"label": "Dice", "sides": 10,
                    "dice": [[face, regular_marks(face, i in rerolled)] for i, face in enumerate(regular)]})
    if hunger:
        out.append({"label": "Hunger", "sides": 10, "dice": [[face, hunger_marks(face)] for face in hunger]})
    return out


def margin_grade(margin):
    return "exceptional" if margin >= 3 else "solid" if margin >= 1 else "bare"


def outcome(key, label=None):
    key = str(key or "")
    return {"key": key, "label": label or LABELS.get(key, key), "tone": TONES.get(key, "neutral")}


def view(pool="", regular=(), hunger=(), successes=None, key="", difficulty=None, rerolled=(), label=None,
         notes=None):
    """
    A V5 roll as a RollView dict.

    Args:
        pool (str): the pool as shown ("Dexterity 3 + Stealth 2 = 5 dice, Hunger 2").
        regular, hunger (lists of int): the faces.
        successes (int or None): the score.
        key (str): the outcome key as stored ("critical", "solid", ...); without a difficulty
            a win is just "success", as the room saw it.
        difficulty (int or None): the difficulty, None when none was stated.
        rerolled (indexes): regular dice rerolled with Willpower.
        label (str): the outcome's words when `key` is not a V5 outcome (see the ruling).
        notes (list of str): instead of the margin note.
    """
    if difficulty is None and key in ("bare", "solid", "exceptional"):
        key = "success"
    if notes is None:
        notes = []
        if difficulty is not None and successes is not None and key in LABELS:
            margin = successes - difficulty
            note = f"margin {'+' if margin >= 0 else ''}{margin}"
            win = key in ("messy_critical", "critical", "exceptional", "solid", "bare")
            grade = LABELS[margin_grade(margin)]
            if win and grade != LABELS[key]:
                note += f", {grade}"
            notes = [note]
    return {
        "system": SYSTEM,
        "pool": str(pool or ""),
        "target": f"vs {difficulty}" if difficulty is not None else "",
        "groups": groups(regular, hunger, rerolled),
        "score": successes if isinstance(successes, int) else None,
        "noun": list(NOUN),
        "outcome": outcome(key, label),
        "notes": list(notes),
    }


def pool_text(pool_text, dice, hunger_count):
    """An old row's pool text ("Dexterity 3 + Stealth 2 = 5") as the roll line showed it."""
    if not pool_text and not dice:
        return ""
    text = pool_text or str(dice)
    if dice is not None and text.strip() == str(dice):
        text = f"{dice} {'die' if dice == 1 else 'dice'}"
    elif dice is not None:
        text += f" ({dice} {'die' if dice == 1 else 'dice'})"
    if hunger_count is not None:
        text += f", Hunger {hunger_count}"
    return text


# ---------------------------------------------------------------- contests and teamwork


def _side_key(regular, hunger, successes, needs):
    faces = list(regular) + list(hunger)
    win = successes >= max(needs, 1)
    if win:
        if faces.count(10) >= 2:
            return "messy_critical" if 10 in hunger else "critical"
        return "success"
    if 1 in hunger:
        return "bestial_failure"
    if successes == 0:
        return "total_failure"
    return "failure"


def contest(details):
    """
    (sides, verdict) of an old contest row's `details` (attacker/defender: name, pool, faces,
    successes; winner, margin, tie): each side apart, the verdict as the room saw it.
    """
    attacker, defender = details.get("attacker") or {}, details.get("defender") or {}
    a, d = int(attacker.get("successes") or 0), int(defender.get("successes") or 0)
    sides = []
    for side, needs in ((attacker, d + 1), (defender, a)):
        regular, hunger = _ints(side.get("regular")), _ints(side.get("hunger"))
        successes = int(side.get("successes") or 0)
        key = _side_key(regular, hunger, successes, needs)
        dice = len(regular) + len(hunger)
        pool = f"{side.get('pool') or dice} ({dice} {'die' if dice == 1 else 'dice'}), Hunger {len(hunger)}"
        sides.append({"label": str(side.get("name") or ""),
                      "view": view(pool, regular, hunger, successes, key)})
    return sides, contest_verdict(attacker.get("name", ""), defender.get("name", ""), a, d,
                                  details.get("winner"), details.get("tie"))


def contest_verdict(attacker_name, defender_name, a, d, winner, tie):
    """`Thorne wins by 1 (5 to 4).` / `Tie at 3 successes: Vesper wins (ties go to the defender).`"""
    if tie or a == d:
        return f"Tie at {a} {'success' if a == 1 else 'successes'}: {defender_name} wins (ties go to the defender)."
    name = defender_name if winner == "defender" else attacker_name
    return f"{name} wins by {abs(a - d)} ({max(a, d)} to {min(a, d)})."


def teamwork(details, leader_name, leader_pool, regular, hunger, total):
    """The sides of an old teamwork row: the leader's dice, then each helper's."""
    helpers = details.get("helpers") or ()
    own = (total or 0) - sum(int(h.get("successes") or 0) for h in helpers)
    sides = [{"label": str(leader_name or "Leader"),
              "view": view(leader_pool, regular, hunger, own, "success" if own else "failure",
                           label=f"adds {own}")}]
    for helper in helpers:
        regular, hunger = _ints(helper.get("regular")), _ints(helper.get("hunger"))
        successes = int(helper.get("successes") or 0)
        dice = len(regular) + len(hunger)
        pool = f"{helper.get('pool') or dice} ({dice} {'die' if dice == 1 else 'dice'}), Hunger {len(hunger)}"
        key = "success" if successes else "failure"
        sides.append({"label": str(helper.get("name") or ""),
                      "view": view(pool, regular, hunger, successes, key, label=f"adds {successes}")})
    return sides


# ---------------------------------------------------------------- a whole old row


def _contest_row(new, details):
    """An old contest row's fields: each side apart, and the contest's own view (every die,
    each side's group under its name)."""
    sides, verdict = contest(details)
    shown = view("", (), (), None, "contest", label=verdict, notes=[])
    shown["groups"] = [dict(g, label=f"{side['label']}: {g['label']}")
                       for side in sides for g in side["view"]["groups"]]
    shown["score"] = None
    new.update(view=shown, sides=sides, verdict=verdict)
    return new


def _rouse_view(pool, faces, successes, key, label):
    """An old Rouse row's view: its dice in one group, passed (6+) or failed, no Hunger dice."""
    rouse = {"label": "Dice", "sides": 10, "dice": [[f, ["success"] if f >= 6 else ["fail"]] for f in faces]}
    shown = view(pool or "Rouse check", (), (), successes, key, None, label=label, notes=[])
    shown["groups"] = [rouse] if rouse["dice"] else []
    shown["noun"] = ["passed", "passed"]
    return shown


def convert_row(row):
    """
    The new fields of an old row (a dict of its old columns: kind, action, pool_text, dice,
    difficulty, regular, hunger, successes, outcome, summary, details, character_name).

    Returns:
        dict: `view` (or None for a staff action), `sides`, `initial`, `verdict`, `target`,
        `score`, `data` (the old V5 columns, kept as they were: nothing is lost).
    """
    details = dict(row.get("details") or {})
    regular, hunger = _ints(row.get("regular")), _ints(row.get("hunger"))
    difficulty = row.get("difficulty")
    successes = row.get("successes")
    key = row.get("outcome") or ""
    kind = row.get("kind") or "roll"
    data = {"system": SYSTEM, "legacy": True, "regular": regular, "hunger": hunger,
            "difficulty": difficulty, "successes": successes, "outcome": key}
    new = {"view": None, "sides": [], "initial": None, "verdict": "", "target": "",
           "score": successes if isinstance(successes, int) else None, "data": data}
    if row.get("action"):
        return new
    label = None
    if not key:
        key, label = kind, row.get("summary") or kind
    if kind == "contest" and details.get("attacker"):
        return _contest_row(new, details)
    rating = row.get("hunger_rating", len(hunger))
    pool = pool_text(row.get("pool_text"), row.get("dice"), rating if (regular or hunger) else None)
    if kind == "rouse":
        new.update(view=_rouse_view(row.get("pool_text"), regular + hunger, successes, key, label))
        return new
    shown = view(pool, regular, hunger, successes, key, difficulty, details.get("rerolled") or (), label)
    new.update(view=shown, target=shown["target"])
    if kind == "teamwork" and details.get("helpers"):
        new["sides"] = teamwork(details, row.get("character_name"), pool, regular, hunger, successes)
    if "initial_regular" in details:
        before = view(pool, details.get("initial_regular"), details.get("initial_hunger"), None, "", difficulty,
                      label=details.get("initial_summary") or "before the reroll", notes=[])
        new["initial"] = before
    return new


# ---------------------------------------------------------------- the migration


def forwards(apps, schema_editor):
    RollEntry = apps.get_model("rolllog", "RollEntry")
    fields = ("kind", "action", "pool_text", "dice", "difficulty", "regular", "hunger", "successes",
              "outcome", "summary", "details", "character_name")
    changed = []
    for entry in RollEntry.objects.filter(view__isnull=True).order_by("id").iterator(chunk_size=BATCH):
        row = {name: getattr(entry, name) for name in fields}
        new = convert_row(row)
        data = dict(entry.data or {})
        for key, value in new.pop("data").items():
            data.setdefault(key, value)
        entry.data = data
        for key, value in new.items():
            setattr(entry, key, value)
        entry.system = entry.system or "v5"
        if new["verdict"]:
            entry.summary = new["verdict"][:255]
        changed.append(entry)
        if len(changed) >= BATCH:
            RollEntry.objects.bulk_update(changed, ["view", "sides", "initial", "verdict", "target", "score",
                                                    "data", "system", "summary"])
            changed = []
    if changed:
        RollEntry.objects.bulk_update(changed, ["view", "sides", "initial", "verdict", "target", "score",
                                                "data", "system", "summary"])


def backwards(apps, schema_editor):
    RollEntry = apps.get_model("rolllog", "RollEntry")
    for entry in RollEntry.objects.order_by("id").iterator(chunk_size=BATCH):
        data = entry.data or {}
        if not data.get("legacy"):
            continue
        entry.regular = data.get("regular") or []
        entry.hunger = data.get("hunger") or []
        entry.difficulty = data.get("difficulty")
        entry.successes = data.get("successes")
        entry.save(update_fields=["regular", "hunger", "difficulty", "successes"])


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0002_system_neutral_fields"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
