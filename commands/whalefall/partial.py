"""
+partial: the GM's ruling on a Whalefall check flagged partial (docs/whalefall.md: "the GM may rule
a partial success or a partial failure").

The ruling is a roll log entry of its own (`record_action`, kind "partial") whose parent is the
roll, so +roll/verify of the roll shows it, and it is told to everyone who saw the roll.

Rulings:
- **Ruling**: only staff (Builder and above) rule, once per roll: a second ruling is refused
  (a GM who changes their mind says so in the scene; the log keeps the first word).
- **Ruling**: a code the caller may not see is answered exactly as one that does not exist
  ("There is no such roll.", as +roll/verify), so codes cannot be probed.
- **Ruling**: the ruling is as private as the roll: a private roll's ruling goes to those the
  roll was shown to and staff.
"""

from evennia.objects.models import ObjectDB

from storyteller_dice.rolllog import api, display
from storyteller_dice.rules.display import append_code, escape, wrap
from storyteller_dice.rules.errors import DiceError

from ..dice_base import DiceCommand, is_staff, record_action, send

RULINGS = ("success", "failure")
KIND = "partial"


class CmdPartial(DiceCommand):
    """
    Rule on a check flagged partial (staff).

    Usage:
      +partial <code>=success
      +partial <code>=failure

    A failed Whalefall check where some die met the face is flagged
    partial: it reads "failure (partial)". The GM may rule it a partial
    success or a partial failure. The ruling is stored on the roll log
    with the roll (+roll/verify <code> shows both) and is told to everyone
    who saw the roll. Each roll is ruled once; a roll that was not flagged
    partial cannot be ruled.

    Examples:
      +partial ABCD2345=success
      +partial abcd2345=failure
    """

    key = "+partial"
    aliases = ["partial"]
    locks = "cmd:all()"
    usage = "+partial <code>=success|failure"

    def run(self):
        caller = self.caller
        if not is_staff(caller):
            raise DiceError("Only staff rule on a partial check.")
        code = (self.lhs or "").strip()
        ruling = (self.rhs or "").strip().lower()
        if not code:
            raise DiceError("Give the code of the roll to rule on.")
        if ruling not in RULINGS:
            raise DiceError("Rule it a partial success or a partial failure: "
                            "say =success or =failure after the code.")
        entry = api.find_visible(code, caller)
        if entry is None:
            caller.msg(display.NO_SUCH_ROLL)
            return
        data = entry.data or {}
        if entry.action or entry.system != "whalefall" or not data.get("partial"):
            raise DiceError(f"The roll {entry.code} was not flagged partial: only a failed check where a die "
                            "met the face can be ruled a partial success or failure.")
        earlier = entry.changes.filter(kind=KIND, action=True).order_by("created", "id").first()
        if earlier is not None:
            said = (earlier.details or {}).get("ruling", "")
            raise DiceError(f"The roll {entry.code} was already ruled a partial {said} by "
                            f"{escape(earlier.character_name)} ({earlier.code}).")

        owner = entry.subject or entry.character
        owner_name = entry.subject_name or entry.character_name
        # Who was shown the roll: a public roll keeps them in its own row (`shown_ids`).
        shown = ObjectDB.objects.filter(id__in=entry.shown_ids()).order_by("id")
        audience = [caller] + [obj for obj in shown if obj != caller]
        colour = "|g" if ruling == "success" else "|r"
        text = (f"|w[Partial]|n {escape(caller.key)} rules {escape(owner_name)}'s check ({entry.code}) "
                f"a {colour}partial {ruling}|n.")
        action = record_action(caller, owner, KIND, f"partial {ruling} for {entry.code}",
                               command=self.raw_string.strip(), private=entry.private, receivers=audience,
                               parent=entry, details={"ruling": ruling, "roll": entry.code},
                               text="\n".join(wrap(text, 80)))
        send(audience, lambda width: append_code("\n".join(wrap(text, width)), action.code, width=width),
             from_obj=caller)
