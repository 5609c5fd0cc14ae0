"""
How roll log entries look in the game (+roll/verify, +rolls). Colour markup as everywhere else;
anything a player typed or named goes through `commands.dice_display.escape`.
"""

from commands.dice_display import escape

from . import api

NO_SUCH_ROLL = "There is no such roll."
WHAT_WIDTH = 70


def _col(text, width):
    """Player text cropped and padded to a column (escaped after cropping)."""
    plain = " ".join(str(text).split())[:width]
    return escape(plain) + " " * (width - len(plain))


def when(entry, seconds=False):
    return entry.created.strftime("%Y-%m-%d %H:%M:%S UTC" if seconds else "%m-%d %H:%M")


def what(entry):
    """`Dexterity 3 + Stealth 2 = 5, vs 3 => 5 successes: messy critical (margin +2)`."""
    if entry.action:
        return entry.summary
    text = entry.pool_text or (f"{entry.dice} dice" if entry.dice else "")
    if entry.difficulty is not None:
        text += f", vs {entry.difficulty}"
    if entry.summary:
        text += f" => {entry.summary}" if text else entry.summary
    return text


def audience(entry):
    if not entry.private:
        return "public"
    shown = ", ".join(entry.receiver_names) or "nobody"
    return f"private: shown to {shown}"


def format_verify(entry, viewer, staff=False):
    """The full stored entry, for someone allowed to see it."""
    kind = "Staff action" if entry.action else "Roll"
    where = f" in {escape(entry.room_name)}" if entry.room_name else ""
    audience_word = "private" if entry.private else "public"
    header = f"|w[Verify]|n {kind} |w{entry.code}|n ({entry.kind}, {audience_word}), {when(entry, seconds=True)}"
    lines = [header + where]
    who = escape(entry.who)
    if staff and entry.account_name:
        who += f" (account {escape(entry.account_name)})"
    lines.append(f"  By: {who}")
    if entry.command:
        lines.append(f"  Typed: {escape(entry.command)}")
    if entry.parent_id:
        parent = entry.parent
        if parent is not None and api.can_view(parent, viewer):
            lines.append(f"  Changes {parent.kind} {parent.code} ({escape(parent.who)}, {when(parent)})")
        else:
            lines.append("  Changes an earlier roll.")
    if entry.text:
        lines.append(entry.text)
    else:
        lines.append(f"  {escape(what(entry))}  [code {entry.code}]")
    if entry.private:
        lines.append(f"  Audience: {escape(audience(entry))}")
    changes = [c for c in entry.changes.order_by("created", "id") if api.can_view(c, viewer)]
    for change in changes:
        lines.append(f"  Later: {change.kind} {change.code} ({escape(change.who)}, {when(change)}): "
                     f"{escape(change.summary)}")
    return "\n".join(lines)


def format_line(entry):
    """One line of +rolls."""
    text = what(entry)
    if entry.parent_id:
        parent_code = entry.parent.code if entry.parent else "?"
        text = f"(on {parent_code}) {text}"
    if len(text) > WHAT_WIDTH:
        text = text[: WHAT_WIDTH - 3] + "..."
    flag = " |y(private)|n" if entry.private else ""
    return (
        f"{entry.code}  {when(entry)}  {_col(entry.who, 20)}  {_col(entry.room_name, 14)}"
        f"  {_col(entry.kind, 9)} {escape(text)}{flag}"
    )


def format_page(entries, total, number, pages, title, next_hint=""):
    if not total:
        return f"|w{title}|n: nothing on the log."
    lines = [f"|w{title}|n: page {number} of {pages} ({total} entries, newest first)"]
    lines.append(f"|w{'Code':<8}  {'When (UTC)':<11}  {'Who':<20}  {'Where':<14}  {'Kind':<9} What|n")
    lines.extend(format_line(entry) for entry in entries)
    if number < pages and next_hint:
        lines.append(f"Next page: {next_hint}={number + 1}")
    return "\n".join(lines)
