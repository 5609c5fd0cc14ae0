"""
What every system's contest shares, as plain data: a challenge's time, and how a contest's
outcome is told (`Outcome`: each side's view, the verdict, what the record keeps). Who wins and
by how much is each system's rule (its wing's contest rules), never this module's.

Pure Python, standard library only.
"""

from typing import NamedTuple

TIMEOUT = 300  # seconds a challenge waits for its answer (wall clock: it runs on while the server is down)
CHALLENGER, DEFENDER = "challenger", "defender"


def seconds_left(created, now, timeout=TIMEOUT):
    """Seconds a challenge made at `created` still has at `now` (0 once out of time)."""
    return max(0.0, timeout - (now - created))


def is_expired(created, now, timeout=TIMEOUT):
    return now - created > timeout


def joined_comment(*comments):
    """The challenger's and the answerer's comments, shown as one (`a / b`)."""
    return " / ".join(part for part in comments if part)


class Side(NamedTuple):
    """One rolled side: its label (a name, plain text), its `RollView`, the system's record data."""

    label: str
    view: object
    data: object = None


class Outcome(NamedTuple):
    """
    A rolled contest as the shared flow shows and stores it.

    Args:
        sides (tuple of Side): the challenger's side first.
        verdict (str): the verdict line's text (markup; names already escaped).
        summary (str): the verdict in plain words for the record.
        data (dict): what the system keeps of it (winner, margin, ...), plain data.
    """

    sides: tuple
    verdict: str
    summary: str
    data: dict
