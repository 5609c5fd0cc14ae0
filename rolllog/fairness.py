"""
The fairness report's counts (issue 14), from the database: how often each face came up, per
dice group label and die size, for one character (or everyone) over a time window.

The dice live in each entry's JSON `view`; counting JSON portably (SQLite and PostgreSQL) is
awkward and slow, so every stored roll also writes `RollFace` rows (one per group label, die
size and face, with its count) in one bulk insert (`rolllog.api.store_roll`), and
`face_counts` is one GROUP BY over that table.

**Ruling (which dice count):** a chi-square test of the dice wants every die the random source
actually threw, once:

- a roll: every die of its view (a contest or teamwork entry: every die of each side's view,
  the sides being the dice as rolled);
- a reroll made in the same command (the entry keeps `initial`, the view before): every die
  of `initial` *and* the new faces of the rerolled dice (marked `rerolled` in the view);
  the kept dice are counted once, from `initial`;
- a later change to a roll (`parent` set: a Willpower reroll) whose view marks rerolled dice:
  only those new faces (the rest were counted on the parent). A change without any rerolled
  mark is a new throw (a contest answer) and counts whole;
- staff actions (no view) count nothing.

Group labels are kept as shown ("Dice", "Hunger", "Chance die" ...), so under V5 Hunger dice
and regular dice are counted apart; a report may merge labels of one size if it wants.
`character` is whose dice they were: the subject when staff rolled for someone, else the roller.
"""

from collections import Counter

from rules.engine import REROLLED


def _groups(view):
    return (view or {}).get("groups") or ()


def _count(counter, view, only_rerolled=False):
    for group in _groups(view):
        label, sides = str(group.get("label", ""))[:64], int(group.get("sides", 10) or 10)
        for face, marks in group.get("dice", ()):
            if not only_rerolled or REROLLED in (marks or ()):
                counter[(label, sides, int(face))] += 1


def _has_rerolled(view):
    return any(REROLLED in (marks or ()) for group in _groups(view) for _face, marks in group.get("dice", ()))


def faces_of(view, initial=None, sides=(), parent_id=None, action=False):
    """
    Counter {(label, sides, face): count} of the dice an entry threw (see the module's ruling),
    from its stored fields.
    """
    counter = Counter()
    if action:
        return counter
    side_views = [side.get("view") for side in sides or () if side.get("view") and _groups(side.get("view"))]
    views = side_views or ([view] if view else [])
    for shown in views:
        if initial:
            _count(counter, initial)
            _count(counter, shown, only_rerolled=True)
        elif parent_id and _has_rerolled(shown):
            _count(counter, shown, only_rerolled=True)
        else:
            _count(counter, shown)
    return counter


def face_rows(entry, model=None):
    """The unsaved `RollFace` rows of a saved entry (`model`: the migration's historical model)."""
    if model is None:
        from .models import RollFace as model
    counter = faces_of(entry.view, entry.initial, entry.sides, entry.parent_id, entry.action)
    character_id = entry.subject_id or entry.character_id
    return [model(entry_id=entry.id, character_id=character_id, created=entry.created, system=entry.system or "",
                  label=label, sides=size, face=face, count=count)
            for (label, size, face), count in sorted(counter.items())]


def face_counts(character=None, since=None, until=None, system=None):
    """
    {(label, sides): {face: count}}: the faces rolled by (or for) `character` (an object or
    its id; None: everyone), from `since` (inclusive) to `until` (exclusive; datetimes), in the
    database by one GROUP BY. Faces that never came up are absent (the report knows the size).
    """
    from django.db.models import Sum

    from .models import RollFace

    query = RollFace.objects.all()
    if character is not None:
        query = query.filter(character_id=getattr(character, "id", character))
    if since is not None:
        query = query.filter(created__gte=since)
    if until is not None:
        query = query.filter(created__lt=until)
    if system:
        query = query.filter(system=system)
    out = {}
    rows = query.values_list("label", "sides", "face").annotate(total=Sum("count")).order_by()
    for label, size, face, total in rows:
        out.setdefault((label, size), {})[face] = total
    return {key: dict(sorted(faces.items())) for key, faces in sorted(out.items())}
