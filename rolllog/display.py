"""
How roll log entries look in the game (+roll/verify, +rolls), in any dice system: everything
comes from the stored view (`rules.engine.RollView` as a dict), never from a system's module.
Escaping, visible widths and wrapping are `rules.display`'s (the one place for them); anything
a player typed or named goes through `escape`.

Every line fits `width` visible columns (80 by default: what the record is kept at):

- `+rolls`: two lines an entry, `CODE  MM-DD HH:MM  kind  who, where (private)` and an
  indented `what` (pool, target => outcome; a contest's sides with their scores and the
  verdict as the room saw it), each cropped with "..." (the whole entry is one
  `+roll/verify` away).
- `+roll/verify`: the stored entry in full, every line wrapped with a hanging indent.
"""

from storyteller_dice.rules.display import escape, without_control, wrap

from . import api

NO_SUCH_ROLL = "There is no such roll."
WIDTH = 80
WHO_WIDTH = 30


def _clean(text):
    return " ".join(str(text or "").split())


def crop(text, width):
    """Plain text cropped to `width` characters (with "..." when cut)."""
    text = _clean(text)
    return text if len(text) <= width else text[: max(0, width - 3)].rstrip() + "..."


def when(entry, seconds=False):
    return entry.created.strftime("%Y-%m-%d %H:%M:%S UTC" if seconds else "%m-%d %H:%M")


def sides_text(entry):
    """`Thorne vs Vesper` (a contest), `Anna with Bob, Carl` (teamwork); "" without sides."""
    labels = [side.get("label", "") for side in entry.sides or ()]
    if not labels:
        return ""
    if entry.kind == "contest":
        return " vs ".join(labels)
    return labels[0] + (" with " + ", ".join(labels[1:]) if len(labels) > 1 else "")


def who(entry):
    """Who the entry is about: the sides of a contest, else `Char` / `Storyteller for Char`."""
    return sides_text(entry) if entry.kind == "contest" and entry.sides else entry.who


def score_of(view):
    """`5` of a view, `-` when nothing was counted."""
    score = (view or {}).get("score")
    return "-" if score is None else str(score)


def side_summary(side):
    """`Thorne 5 (messy critical)`: a side's name, score and its notable outcome."""
    view = side.get("view") or {}
    outcome = (view.get("outcome") or {})
    text = f"{side.get('label', '')} {score_of(view)}"
    if outcome.get("key") not in ("", "success", "failure", None) and outcome.get("label"):
        text += f" ({outcome['label']})"
    return text


def what(entry):
    """One line of plain words: what was rolled and how it came out."""
    if entry.action:
        return entry.summary
    if entry.sides and entry.kind == "contest":
        verdict = entry.verdict or entry.summary
        return ", ".join(side_summary(side) for side in entry.sides) + (f": {verdict}" if verdict else "")
    text = (entry.view or {}).get("pool") or entry.pool_text or (f"{entry.dice} dice" if entry.dice else "")
    if entry.target and entry.target not in text:
        text += f", {entry.target}"
    if entry.sides:
        text += " (" + ", ".join(side_summary(side) for side in entry.sides[1:]) + ")"
    if entry.summary:
        text += f" => {entry.summary}" if text else entry.summary
    return text


def audience(entry):
    if not entry.private:
        return "public"
    shown = ", ".join(entry.receiver_names) or "nobody"
    return f"private: shown to {shown}"


def dice_text(view):
    """`Dice: 2 6 10  Hunger: 1 10` of a view dict (plain: the stored text has the colours)."""
    parts = []
    for group in (view or {}).get("groups", ()):
        faces = " ".join(str(face) for face, _marks in group.get("dice", ()))
        parts.append(f"{group.get('label', 'Dice')}: {faces}")
    return "  ".join(parts)


def view_lines(label, view):
    """A side (or a roll without stored text) apart: its pool, dice and outcome."""
    view = view or {}
    head = f"{escape(label)}: " if label else ""
    target = f", {escape(view['target'])}" if view.get("target") else ""
    dice = "  ".join(escape(part) for part in (dice_text(view) or "no dice").split("  "))
    return [f"  {head}{escape(view.get('pool', ''))}{target}",
            f"    {dice}  =>  {escape(api.view_summary(view))}"]


def format_verify(entry, viewer, staff=False, width=WIDTH):
    """The full stored entry, for someone allowed to see it, every line within `width`."""
    kind = "Staff action" if entry.action else "Roll"
    audience_word = "private" if entry.private else "public"
    header = f"|w[Verify]|n {kind} |w{entry.code}|n ({escape(entry.kind)}, {audience_word}), {when(entry, seconds=True)}"
    if entry.room_name:
        header += f" in {escape(entry.room_name)}"
    lines = [header]
    if entry.sides and entry.kind == "contest":
        lines.append(f"  Sides: {escape(sides_text(entry))}")
        by = escape(entry.character_name)
    else:
        by = escape(entry.who)
    if staff and entry.account_name:
        by += f" (account {escape(entry.account_name)})"
    lines.append(f"  By: {by}")
    if entry.system:
        lines.append(f"  System: {escape(entry.system)}")
    if entry.command:
        lines.append(f"  Typed: {escape(entry.command)}")
    if entry.parent_id:
        parent = entry.parent
        if parent is not None and api.can_view(parent, viewer):
            lines.append(f"  Changes {escape(parent.kind)} {parent.code} ({escape(who(parent))}, {when(parent)})")
        else:
            lines.append("  Changes an earlier roll.")
    if entry.text:
        lines.extend(entry.text.split("\n"))
    elif entry.action:
        lines.append(f"  {escape(entry.summary)}  [code {entry.code}]")
    else:
        for side in entry.sides or ():
            lines.extend(view_lines(side.get("label", ""), side.get("view")))
        if entry.view and not entry.sides:
            lines.extend(view_lines("", entry.view))
        verdict = entry.verdict or (entry.summary if entry.sides else "")
        lines.append(f"  => {escape(verdict)}  [code {entry.code}]" if verdict else f"  [code {entry.code}]")
    if entry.private:
        lines.append(f"  Audience: {escape(audience(entry))}")
    changes = [c for c in entry.changes.order_by("created", "id") if api.can_view(c, viewer)]
    for change in changes:
        lines.append(f"  Later: {escape(change.kind)} {change.code} ({escape(who(change))}, {when(change)}): "
                     f"{escape(change.summary)}")
    out = []
    for line in lines:
        # Wrapped lines hang two columns under the line's own indent.
        out.extend(wrap(line, width=width, indent=2))
    return "\n".join(out)


def format_line(entry, width=WIDTH):
    """The two lines of +rolls for one entry, each within `width` visible columns."""
    place = f", in {entry.room_name}" if entry.room_name else ""
    flag = " |y(private)|n" if entry.private else ""
    kind = crop(entry.kind, 9)
    fixed = f"{entry.code}  {when(entry)}  {kind:<9}  "
    room = max(0, width - len(fixed) - (len(" (private)") if entry.private else 0))
    first = fixed + escape(crop(f"{crop(who(entry), WHO_WIDTH)}{place}", room)) + flag
    text = what(entry)
    if entry.parent_id:
        parent_code = entry.parent.code if entry.parent else "?"
        text = f"(on {parent_code}) {text}"
    second = "    " + escape(crop(text, width - 4))
    return f"{first}\n{second}"


def format_page(entries, total, number, pages, title, next_hint="", width=WIDTH):
    if not total:
        return "\n".join(wrap(f"|w{title}|n: nothing on the log.", width=width, indent=2))
    lines = wrap(f"|w{title}|n: page {number} of {pages} ({total} entries, newest first, times UTC)",
                 width=width, indent=2)
    lines.extend(format_line(entry, width) for entry in entries)
    if number < pages and next_hint:
        lines.extend(wrap(f"Next page: {next_hint}={number + 1}", width=width, indent=2))
    return "\n".join(lines)
