"""
+sheet, +stat, +approve and +unapprove: the character sheet in game, for every dice system.

The configured system's `Sheet` says which traits exist, their ranges and how the sheet is
laid out (`Sheet.layout`); `rules.display.format_sheet` draws it at the caller's width.
Players set their own traits until staff approve the character; after that only staff change
the sheet. Some traits are staff's only (`Sheet.staff_only`: V5's Hunger moves through Rouse
checks and feeding).
"""

from storyteller_dice.rules.engine import Sheet
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import match_name

from . import keys, pending
from .help_layout import wrap_text
from .wing_features import SheetFlagger
from .dice_base import (DiceCommand, dice_system, dice_wing, find_character, is_staff, record_action, whole_number,
                        width_of)
from storyteller_dice.rules.display import escape, format_sheet
from storyteller_dice.typeclasses import access


def render_sheet(character, width=80):
    """The sheet as text that fits the client's width."""
    system = dice_system()
    status = "approved" if character.approved else "not approved"
    wing = dice_wing(system)
    flags = wing.sheet_flags(character) if isinstance(wing, SheetFlagger) else frozenset()
    sections = system.sheet.layout(character.sheet_values, character.specialties, flags)
    return format_sheet(character.key, status, sections, width=width)


class CmdSheet(DiceCommand):
    """
    Show a character sheet.

    Usage:
      +sheet
      +sheet <character>

    Shows your character sheet, as this game's dice system lays it out.
    Staff (Builder and up) can see anyone's sheet.

    Examples:
      +sheet
      +sheet Alice
    """

    key = "+sheet"
    aliases = ["sheet"]
    locks = "cmd:all()"
    usage = "+sheet [<character>]"

    def run(self):
        caller = self.caller
        target = caller
        if self.args.strip():
            target = find_character(caller, self.args)
            access.require(caller, target, "Only staff can see other characters' sheets.")
        if not hasattr(target, "sheet_values"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        width = width_of(caller)
        text = render_sheet(target, width)
        hint = how_to_set() if target is caller and not target.approved else ""
        self.msg(f"{text}\n{wrap_text(hint, width)}" if hint else text)


def how_to_set():
    """The line under an own sheet not yet approved: how to set it, in this game's keys (none
    where the game leaves +stat out)."""
    stat, approve = keys.decide(CmdStat).key, keys.decide(CmdApprove).key
    if stat is None:
        return ""
    done = f" When it is done, staff {approve} it." if approve else ""
    return f"Set your traits with {stat} <trait>=<value> (help {stat} lists them).{done}"


class CmdStat(DiceCommand):
    """
    Set a trait on a character sheet.

    Usage:
      +stat <trait>=<value>
      +stat spec <skill>=<specialty>
      +stat/remove spec <skill>=<specialty>
      +stat <character>/<trait>=<value>             (staff)
      +stat <character>/spec <skill>=<specialty>    (staff)

    Switches:
      remove - remove a Specialty

    A trait is named in full, abbreviated or by a unique prefix; its
    range is below. You set your sheet until staff approve it (+approve).

    Examples:
      +stat dexterity=3
      +stat dex=3
      +stat auspex=2
      +stat spec academics=History
      +stat/remove spec academics=History
      +stat Alice/dex=4
    """

    key = "+stat"
    aliases = ["stat"]

    def get_help(self, caller, cmdset):
        text = super().get_help(caller, cmdset)
        try:
            system = dice_system()
        except DiceError:
            return text
        sheet = system.sheet
        extra = sheet.help() if sheet is not None else ""
        if sheet is not None and sheet.specialty_words[0] != Sheet.specialty_words[0]:
            word = sheet.specialty_words[0]
            extra = (f"A Specialty is called a {word} here: +stat {sheet.specialty_keywords[0]} "
                     f"<skill>=<{word.lower()}>.\n" + extra)
        return text.rstrip() + (f"\n\nIn this game ({system.title}):\n{extra.rstrip()}" if extra else "")
    locks = "cmd:all()"
    switch_options = ("remove",)
    usage = "+stat [<character>/]<trait>=<value> or +stat [<character>/]spec <skill>=<specialty>"

    def run(self):
        caller = self.caller
        if self.rhs is None or not self.lhs.strip():
            raise DiceError("Say which trait and what value.")
        target_text, _, trait_text = self.lhs.rpartition("/")
        target = caller
        if target_text.strip():
            target = find_character(caller, target_text)
        staff = is_staff(caller)
        access.require(caller, target, "Only staff can change another character's sheet.")
        if not hasattr(target, "set_trait"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        if not staff and target.approved:
            raise DiceError("Your sheet is approved; ask staff to change it.")

        sheet = dice_system().sheet
        words = trait_text.split(None, 1)
        if words and words[0].lower() in sheet.specialty_keywords:
            self._specialty(target, words[1] if len(words) > 1 else "", self.rhs)
            return
        if "remove" in self.switches:
            (word, words), keyword = sheet.specialty_words, sheet.specialty_keywords[0]
            raise DiceError(f"/remove is for {words}: +stat/remove {keyword} <skill>=<{word.lower()}>.")
        trait = sheet.match(trait_text)
        if trait in sheet.staff_only and not staff:
            raise DiceError(f"Only staff set {trait.title()}.")
        # A sheet may read its own words for a value (`Sheet.read_value`, e.g. a wound level's
        # name); one without it reads whole numbers, as before.
        reader = getattr(sheet, "read_value", None)
        if reader is None:
            value = whole_number(self.rhs, "The value must be a whole number", signed=True)
        else:
            value = reader(trait, self.rhs)
        # A sheet may make more changes than the one asked for (`Sheet.changes`, in order).
        changes = sheet.changes(trait, value, target.sheet_values) if hasattr(sheet, "changes") else {trait: value}
        for trait, value in changes.items():
            old = target.set_trait(trait, value)
            # A staff-only trait's changes are logged under its own name ("hunger").
            self._audit(target, trait if trait in sheet.staff_only else "stat",
                        f"{trait.title()} set to {value} (was {old})")
            whose = "Your" if target == caller else f"{escape(target.key)}'s"
            self.msg(f"{whose} {trait.title()} is now {value} (was {old}).")
            if target != caller:
                self._tell(target, f"{escape(caller.key)} set your {trait.title()} to {value} (was {old}).")

    def _tell(self, target, text):
        """Another character's sheet changed: they are told, now or when they next connect."""
        access.tell_changed(target, text, notify=pending.notify)

    def _audit(self, target, kind, description):
        """Staff changes to someone else's sheet, and every change of a staff-only trait, go on the log."""
        if target != self.caller or kind != "stat":
            record_action(self.caller, target, kind, description, command=self.raw_string.strip())

    def _specialty(self, target, skill_text, name):
        """Add or remove a Specialty, in the system's own word for it (`Sheet.specialty_words`)."""
        sheet = dice_system().sheet
        word, words = sheet.specialty_words
        if not skill_text.strip():
            raise DiceError(f"Name the Skill: +stat {sheet.specialty_keywords[0]} <skill>=<{word.lower()}>.")
        skill = sheet.match(skill_text)
        whose = "your" if target == self.caller else f"{escape(target.key)}'s"
        if "remove" in self.switches:
            # Matched here, so that a refusal names the system's word too.
            owned = target.specialties.get(skill, ())
            if not owned:
                raise DiceError(f"{skill.title()} has no {words}.")
            removed = target.remove_specialty(skill, match_name(name, owned, what=f"{skill.title()} {word}"))
            self._audit(target, "stat", f"{word} {removed} removed from {skill.title()}")
            self.msg(f"Removed the {word} {escape(removed)} from {whose} {skill.title()}.")
            if target != self.caller:
                self._tell(target, f"{escape(self.caller.key)} removed the {word} {escape(removed)} from your "
                                   f"{skill.title()}.")
        else:
            added = target.add_specialty(skill, name)
            self._audit(target, "stat", f"{word} {added} added to {skill.title()}")
            self.msg(f"Added the {word} {escape(added)} to {whose} {skill.title()}.")
            if target != self.caller:
                self._tell(target, f"{escape(self.caller.key)} added the {word} {escape(added)} to your "
                                   f"{skill.title()}.")


class CmdApprove(DiceCommand):
    """
    Approve or unapprove a character sheet (staff).

    Usage:
      +approve <character>
      +unapprove <character>

    An approved sheet can only be changed by staff. Unapproving lets the
    player edit it again with +stat.

    Examples:
      +approve Alice
      +unapprove Alice
    """

    key = "+approve"
    aliases = ["+unapprove", "approve", "unapprove"]
    locks = "cmd:perm(Builder)"
    usage = "+approve <character> or +unapprove <character>"

    def run(self):
        target = find_character(self.caller, self.args)
        if not hasattr(target, "sheet_values"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        approve = not self.cmdstring.lower().lstrip("+").startswith("un")
        if target.approved == approve:
            state = "already approved" if approve else "not approved"
            raise DiceError(f"{escape(target.key)} is {state}.")
        target.approved = approve
        word = "approved" if approve else "unapproved"
        self.msg(f"{escape(target.key)}'s sheet is {word}.")
        if target != self.caller:
            target.msg(f"Your sheet was {word} by {escape(self.caller.key)}.")
