"""
+sheet, +stat, +approve and +unapprove: the V5 character sheet in game.

Players set their own traits until staff approve the character; after that only staff change
the sheet. Hunger is never set by its own player (it moves through Rouse checks and feeding).
"""

from rules import v5_sheet
from rules.errors import DiceError
from rules.pools import match_name

from .dice_base import DiceCommand, find_character, is_staff, record_action, whole_number
from .dice_display import escape

WIDTH = 78
COLUMN = 26


def _row(cells):
    return " " + "".join(cell.ljust(COLUMN) for cell in cells).rstrip()


def _trait_cell(name, value):
    return f"{name.title():<15}{value:>2}"


def render_sheet(character):
    """The sheet as text that fits an 80-column telnet client."""
    values = character.sheet_values
    status = "approved" if character.approved else "not approved"
    title = f" {escape(character.key)} ({status}) "
    lines = [f"|w{title.center(WIDTH, '=')}|n"]
    for heading, groups in (("Attributes", v5_sheet.ATTRIBUTES), ("Skills", v5_sheet.SKILLS)):
        lines.append(f"|w{heading}|n")
        lines.append("|c" + _row(group.title() for group in groups) + "|n")
        columns = list(groups.values())
        for index in range(max(len(col) for col in columns)):
            lines.append(_row(_trait_cell(col[index], values[col[index]]) if index < len(col) else ""
                              for col in columns))
    specialties = character.specialties
    if specialties:
        listed = ", ".join(f"{skill.title()} ({escape(name)})"
                           for skill in v5_sheet.ALL_SKILLS for name in specialties.get(skill, ()))
        lines.append(f"|wSpecialties:|n {listed}")
    disciplines = [f"{name.title()} {values[name]}" for name in v5_sheet.DISCIPLINES if values[name]]
    lines.append("|wDisciplines:|n " + (", ".join(disciplines) if disciplines else "none"))
    lines.append(
        f"|wHunger|n {values['hunger']}   |wHumanity|n {values['humanity']} "
        f"(Stains {values['stains']})   |wBlood Potency|n {values['blood potency']}"
        + ("   |[r|wIN FRENZY|n" if getattr(character, "in_frenzy", False) else "")
    )
    for track, maximum in (("willpower", character.willpower_max), ("health", character.health_max)):
        superficial, aggravated = values[f"{track} superficial"], values[f"{track} aggravated"]
        boxes = "X" * aggravated + "/" * superficial + "." * (maximum - aggravated - superficial)
        lines.append(
            f"|w{track.title():<9}|n [{boxes}] {maximum - superficial - aggravated}/{maximum} left "
            f"(Superficial {superficial}, Aggravated {aggravated})"
        )
    lines.append("|w" + "=" * WIDTH + "|n")
    return "\n".join(lines)


class CmdSheet(DiceCommand):
    """
    Show a character sheet.

    Usage:
      +sheet
      +sheet <character>

    Shows your V5 sheet: Attributes, Skills with Specialties, Disciplines,
    Hunger, Humanity and Stains, Blood Potency, Willpower and Health. Staff
    (Builder and up) can see anyone's sheet.

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
            if target != caller and not is_staff(caller):
                raise DiceError("Only staff can see other characters' sheets.")
        if not hasattr(target, "sheet_values"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        self.msg(render_sheet(target))


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

    Traits: the 9 Attributes (1-5), the 27 Skills (0-5), Disciplines (0-5;
    0 removes one), Hunger (0-5, staff only), Humanity (0-10), Stains (up to
    10 - Humanity), Blood Potency (0-10), and damage: willpower superficial,
    willpower aggravated, health superficial, health aggravated. Willpower's
    maximum is Composure + Resolve, Health's is Stamina + 3. A value outside
    its range is refused. A Specialty needs a dot in its Skill.

    You set your own sheet until staff approve it (+approve); then ask
    staff. Staff can change any sheet at any time.

    Examples:
      +stat dexterity=3
      +stat dex=3
      +stat auspex=2
      +stat spec academics=History
      +stat/remove spec academics=History
      +stat Alice/hunger=2
    """

    key = "+stat"
    aliases = ["stat"]
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
        if target != caller and not staff:
            raise DiceError("Only staff can change another character's sheet.")
        if not hasattr(target, "set_trait"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        if not staff and target.approved:
            raise DiceError("Your sheet is approved; ask staff to change it.")

        words = trait_text.split(None, 1)
        if words and words[0].lower() in ("spec", "specialty", "specialties"):
            self._specialty(target, words[1] if len(words) > 1 else "", self.rhs)
            return
        if "remove" in self.switches:
            raise DiceError("/remove is for Specialties: +stat/remove spec <skill>=<specialty>.")
        trait = v5_sheet.match_settable(trait_text)
        if trait == "hunger" and not staff:
            raise DiceError("Only staff set Hunger; it changes through Rouse checks and feeding.")
        value = whole_number(self.rhs, "The value must be a whole number", signed=True)
        old = target.set_trait(trait, value)
        self._audit(target, "hunger" if trait == "hunger" else "stat",
                    f"{trait.title()} set to {value} (was {old})")
        whose = "Your" if target == caller else f"{escape(target.key)}'s"
        self.msg(f"{whose} {trait.title()} is now {value} (was {old}).")
        if target != caller:
            target.msg(f"{escape(caller.key)} set your {trait.title()} to {value} (was {old}).")

    def _audit(self, target, kind, description):
        """Staff changes to someone else's sheet, and every Hunger change, go on the roll log."""
        if target != self.caller or kind == "hunger":
            record_action(self.caller, target, kind, description, command=self.raw_string.strip())

    def _specialty(self, target, skill_text, name):
        if not skill_text.strip():
            raise DiceError("Name the Skill: +stat spec <skill>=<specialty>.")
        skill = match_name(skill_text, v5_sheet.ALL_SKILLS, v5_sheet.ALIASES, what="Skill")
        whose = "your" if target == self.caller else f"{escape(target.key)}'s"
        if "remove" in self.switches:
            removed = target.remove_specialty(skill, name)
            self._audit(target, "stat", f"Specialty {removed} removed from {skill.title()}")
            self.msg(f"Removed the Specialty {escape(removed)} from {whose} {skill.title()}.")
        else:
            added = target.add_specialty(skill, name)
            self._audit(target, "stat", f"Specialty {added} added to {skill.title()}")
            self.msg(f"Added the Specialty {escape(added)} to {whose} {skill.title()}.")


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
