"""
Characters: a V5 character sheet stored in the database.

The sheet is kept as Evennia Attributes on the character (category "sheet"): `values` (trait
name -> dots, only what was set; the rest reads as the default), `specialties` (Skill -> list
of names) and `approved`. Ranges, defaults and derived maxima are rules (`rules.v5_sheet`);
this class only stores, checks through the rules, and hands out a trait table for pools.
"""

from evennia.objects.objects import DefaultCharacter

from rules import v5_sheet
from rules.errors import DiceError
from rules.pools import match_name

from .objects import ObjectParent

SHEET = "sheet"


class Character(ObjectParent, DefaultCharacter):
    """A player character or NPC with a V5 sheet."""

    def msg(self, text=None, from_obj=None, session=None, **kwargs):
        """Another player's speech gets its author's tag when this player has +nospoof on."""
        from commands.nospoof import tag_message

        super().msg(text=tag_message(self, text, from_obj), from_obj=from_obj, session=session, **kwargs)

    # ------------------------------------------------------------ stored values

    def _stored(self, key, default):
        value = self.attributes.get(key, category=SHEET)
        return default if value is None else value

    @property
    def sheet_values(self):
        """Every trait's value, in range (see rules.v5_sheet.clamp_all)."""
        return v5_sheet.clamp_all(dict(self._stored("values", {})))

    @property
    def specialties(self):
        """Skill -> tuple of Specialty names."""
        return {skill: tuple(names) for skill, names in self._stored("specialties", {}).items() if names}

    @property
    def approved(self):
        return bool(self._stored("approved", False))

    @approved.setter
    def approved(self, value):
        self.attributes.add("approved", bool(value), category=SHEET)

    @property
    def in_frenzy(self):
        """Set by a failed frenzy test, cleared with +frenzy/end."""
        return bool(self._stored("frenzy", False))

    @in_frenzy.setter
    def in_frenzy(self, value):
        self.attributes.add("frenzy", bool(value), category=SHEET)

    def trait(self, name):
        return self.sheet_values[name]

    @property
    def hunger(self):
        return self.trait("hunger")

    @property
    def willpower_max(self):
        return v5_sheet.willpower_max(self.sheet_values)

    @property
    def willpower_left(self):
        values = self.sheet_values
        return self.willpower_max - values["willpower superficial"] - values["willpower aggravated"]

    @property
    def health_max(self):
        return v5_sheet.health_max(self.sheet_values)

    def trait_table(self):
        """What this sheet offers to pool expressions."""
        return v5_sheet.trait_table(self.sheet_values, self.specialties)

    # ------------------------------------------------------------ changes

    def set_trait(self, trait, value):
        """
        Set a trait to a value within its range.

        Returns:
            int: the old value.

        Raises:
            DiceError: unknown trait or value out of range (nothing is changed).
        """
        values = self.sheet_values
        v5_sheet.check_value(trait, value, values)
        old = values[trait]
        stored = dict(self._stored("values", {}))
        stored[trait] = value
        self.attributes.add("values", stored, category=SHEET)
        return old

    def spend_willpower(self, amount=1):
        """Mark Superficial Willpower damage; refused when Willpower is exhausted."""
        if self.willpower_left < amount:
            raise DiceError("Your Willpower is exhausted: there is no Willpower left to spend.")
        values = self.sheet_values
        return self.set_trait("willpower superficial", values["willpower superficial"] + amount)

    def add_specialty(self, skill, name):
        owned = self.specialties.get(skill, ())
        name = v5_sheet.check_specialty(skill, name, self.sheet_values, owned)
        stored = {k: list(v) for k, v in self._stored("specialties", {}).items()}
        stored.setdefault(skill, []).append(name)
        self.attributes.add("specialties", stored, category=SHEET)
        return name

    def remove_specialty(self, skill, name):
        owned = self.specialties.get(skill, ())
        if not owned:
            raise DiceError(f"{skill.title()} has no Specialties.")
        name = match_name(name, owned, what=f"{skill.title()} Specialty")
        stored = {k: list(v) for k, v in self._stored("specialties", {}).items()}
        stored[skill].remove(name)
        self.attributes.add("specialties", stored, category=SHEET)
        return name

    # ------------------------------------------------------------ connecting

    def at_post_puppet(self, **kwargs):
        """
        After the usual greeting: what expired while the player was away (kept notices) and
        what is still pending (challenges, teamwork, the +willpower window; commands.pending).
        """
        super().at_post_puppet(**kwargs)
        from commands import pending

        try:
            pending.at_connect(self)
        except Exception:  # noqa: BLE001 - a notice must never stop anyone from playing
            from evennia.utils import logger

            logger.log_trace(f"pending notices for {self}")
