"""
+dice/fairness: are the dice fair? For every system, from the roll log.

The counts come from the database by one GROUP BY (`rolllog.fairness.face_counts`), the test
and its charts from `rules.fairness`: per (dice group label, die size) the observed count of
each face against the expected one, the chi-square p-value and a verdict in plain words. The
record keeps group labels as shown, so under V5 Hunger dice and regular dice are tested apart.

**Rulings** (the rules are silent):

- Who may see what: a player sees the whole game and their own characters (every character of
  their account); staff (Builder+) see anyone. Naming another character is refused with the
  same words whether or not it exists, so the command cannot be used to probe names.
- No character named: the whole game. `me` names the caller.
- What is counted is what the viewer could see: every public roll, and a private roll only
  for those it was shown to (and staff). Otherwise the report run before and after another
  player's private roll would give away its faces (`rolllog.fairness`).
- `<days>` is the last word when it is a whole number, from 1 to 3650 (ten years): the rolls
  of the last that many days (24-hour periods back from now). Without it, every roll kept.
"""

from datetime import timedelta

from django.utils import timezone

from storyteller_dice.rolllog import api
from storyteller_dice.rolllog.fairness import face_counts
from storyteller_dice.rules.display import escape, wrap
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.fairness import fairness_report, text_chart

from .dice_base import DiceCommand, find_character, is_staff, whole_number, width_of

MAX_DAYS = 3650


def check_days(value):
    if not 1 <= value <= MAX_DAYS:
        raise DiceError(f"Days are from 1 to {MAX_DAYS}, not {value}.")
    return value


def split_days(text):
    """`Alice 30` -> ("Alice", 30); `Alice` -> ("Alice", None); `30` -> ("", 30)."""
    words = text.split()
    if words and words[-1].lstrip("-").isascii() and words[-1].lstrip("-").isdigit():
        return " ".join(words[:-1]), whole_number(words[-1], "Days are a whole number", check_days, signed=True)
    return " ".join(words), None


def allowed_ids(viewer):
    """None when the viewer may see anyone (staff), else the ids of their own characters."""
    if is_staff(viewer) or api.is_staff(viewer):
        return None
    return api.own_character_ids(viewer)


def report_tests(character=None, days=None, now=None, shown_to=None):
    """
    The `rules.fairness.FaceTest`s of a character's (None: everyone's) faces, as `shown_to`
    could see them (None: the whole record; see `rolllog.fairness.face_counts`).
    """
    since = None
    if days is not None:
        since = (now or timezone.now()) - timedelta(days=days)
    return fairness_report(face_counts(character=character, since=since, shown_to=shown_to))


def scope_text(name, days):
    who = name or "the whole game"
    return f"{who}, the last {days} day{'s' if days != 1 else ''}" if days else f"{who}, every roll kept"


def format_report(tests, scope, width=80):
    """The report as one text, every line within `width` (Evennia markup; `scope` escaped)."""
    lines = [f"|wDice fairness|n: {scope}"]
    if not tests:
        lines.append("No dice rolled in that time.")
    for test in tests:
        lines.append("")
        lines.extend(text_chart(test, width=width).split("\n"))
    lines.append("")
    lines.append("Each bar is how often a face came up; ':' marks the count fair dice would "
                 "give on average. A p-value under 0.01 reads unusual: fair dice do that one "
                 "time in a hundred.")
    out = []
    for line in lines:
        out.extend(wrap(line, width, indent=2) if line else [""])
    return "\n".join(out)


class CmdDice(DiceCommand):
    """
    Check that the dice are fair.

    Usage:
      +dice/fairness [<character>] [<days>]

    Switches:
      fairness - count every face rolled (by a character, or the whole
                 game) against what fair dice give, per die size, with a
                 chi-square test and its verdict in plain words.

    Each die size (and each kind of dice a roll shows apart) gets a
    bar chart of how often each face came up next to the expected count,
    and a p-value: "consistent with fair dice", or "unusual" when fair
    dice would stray that far less than one time in a hundred. Without a
    character the whole game is counted; without days, every roll kept.
    Players may see the whole game and their own characters; staff, anyone.
    A private roll is counted only for those it was shown to (and staff):
    everyone else's report counts public rolls alone.
    A Willpower reroll counts only the dice it rerolled.

    Examples:
      +dice/fairness
      +dice/fairness me 30
      +dice/fairness Alice 7
    """

    key = "+dice"
    aliases = ["dice"]
    locks = "cmd:all()"
    usage = "+dice/fairness [<character>] [<days>]"
    switch_options = ("fairness",)

    def run(self):
        if "fairness" not in self.switches:
            raise DiceError("Say what to check: +dice/fairness.")
        caller = self.caller
        name, days = split_days(self.args.strip())
        character = None
        if name:
            character = caller if name.lower() == "me" else self.find(name)
        shown = escape(character.key) if character is not None else ""
        viewer = None if allowed_ids(caller) is None else caller
        tests = report_tests(character, days, shown_to=viewer)
        self.msg(format_report(tests, scope_text(shown, days), width=width_of(caller)))

    def find(self, name):
        allowed = allowed_ids(self.caller)
        refusal = f"You may check your own characters or the whole game, not '{escape(name, 40)}'."
        try:
            character = find_character(self.caller, name)
        except DiceError:
            if allowed is not None:
                raise DiceError(refusal) from None
            raise
        if allowed is not None and character.id not in allowed:
            raise DiceError(refusal)
        return character
