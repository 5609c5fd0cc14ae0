"""
Characters: a character sheet stored in the database, for whichever dice system the game runs.

`DiceCharacterMixin` is what a game's own Character class mixes in
(`class Character(DiceCharacterMixin, ObjectParent, DefaultCharacter)`).

The sheet is kept as Evennia Attributes on the character, under the plugin's own category
`SHEET` ("storyteller_dice"), never the host's `db.<name>` ones: `values` (trait
name -> value, only what was set; the rest reads as the default), `specialties` (trait -> list
of names), `approved`, and flags a system's commands set (e.g. "frenzy"). Which traits exist,
their ranges, defaults and what they derive are the configured system's rules
(`System.sheet`, a `rules.engine.Sheet`); this class only stores, checks through those rules,
and hands out the `Roller` the rules roll for (`roller()`). It speaks no system's words: what a
system derives (V5's Hunger, Willpower left) is in `roller().state`, read by the system's wing.
A game whose traits live elsewhere supplies them with `DICE_TRAIT_SOURCE` (`typeclasses.traits`).

**Ruling:** the category is "storyteller_dice", not a plain word like "sheet" that a host's
own code may well use for its own data.
"""

import unicodedata

from evennia.utils import logger
from evennia.utils.utils import make_iter

from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import match_name

from . import panel
from .incoming import incoming, look_text, names_in_view, ours, send_mxp_inert
from .names import name_problem, shown_name
from .nospoof import tag_message
from .events import sheet_changed
from .stored import replace_value
from .system import dice_system as configured_system
from .speech_text import description_text
from .traits import SheetOnly, read_specialties, read_values, trait_source, write_specialties, write_value

SHEET = "storyteller_dice"


def reads_gmcp(session):
    """
    Whether GMCP vitals may go to this session. Telnet: yes; the Portal writes GMCP (or MSDP)
    only when the client agreed to it and drops it otherwise. A websocket only when it chose a
    mudstandards.org GMCP or JSON subprotocol: Evennia's own web client (v1.evennia.com) prints
    any OOB message it has no plugin for as "Error or Unhandled event" in the player's window.
    """
    key = getattr(session, "protocol_key", "") or ""
    if key.startswith("telnet"):
        return True
    if key in panel.WEB_PROTOCOLS:
        client = str(session.protocol_flags.get("CLIENTNAME", ""))
        return "gmcp.mudstandards.org" in client or "json.mudstandards.org" in client
    return False


class DiceCharacterMixin:
    """A player character or NPC with a character sheet (mixed in before DefaultCharacter)."""

    def get_display_desc(self, looker, **kwargs):
        """The description its player set, coloured as they like but never a line of ours: each
        line indented, our tags marked (the ruling is in typeclasses/speech_text.py)."""
        return description_text(self.db.desc or self.default_description, self.key)

    def at_look(self, target, **kwargs):
        """Evennia's look (and the host's), what it shows made safe by the looker: every name in
        it shown as text, whatever the host's `get_display_name` prints, and no line of it
        starting with a tag of ours (typeclasses/incoming.py, `look_text`)."""
        names = names_in_view(target)  # before the look: a target may delete itself in at_desc
        owner = getattr(target, "key", "") or ""
        return look_text(super().at_look(target, **kwargs), names, owner)

    def msg(self, text=None, from_obj=None, session=None, **kwargs):
        """
        What another object sends is player text: one line, our tags in it marked with the
        sender's name, no links, colour reset at the end (typeclasses/incoming.py); a line of
        ours (marked so) passes unchanged. Then another player's speech gets its author's tag
        when this player has +nospoof on. A session that parses MXP gets `<`, `>` and `&`
        escaped (`incoming.mxp_inert`).
        """
        text = tag_message(self, incoming(self, text, from_obj), from_obj)
        send_mxp_inert(super().msg, self, text, session, {"from_obj": from_obj, **kwargs})

    # ------------------------------------------------------------ the name

    @classmethod
    def normalize_name(cls, name):
        """
        Evennia's latinising (`Zoë` -> `Zoe`), for names the rule accepts. A name it refuses is
        left as it is, so that `validate_name` says what is wrong with what was typed (and
        Evennia's `latinify` raises on a C1 control character, a website's HTTP 500).
        """
        name = unicodedata.normalize("NFC", str(name))  # a letter and its accents as one
        if name_problem(name, "character"):
            return name
        return super().normalize_name(name)

    @classmethod
    def validate_name(cls, name, account=None):
        """
        The name rule (typeclasses/names.py), then Evennia's own check that no other character
        has the name. Every way a character is made comes here: `charcreate`, the character
        made with a new account, the website's character creation.
        """
        return name_problem(name, "character") or super().validate_name(name, account=account)

    @classmethod
    def get_default_lockstring(cls, account=None, caller=None, **kwargs):
        """
        Evennia's default locks, with the character given by its number: the stock lock string
        writes `id(<character>)` with the character's *name*, so a name holding `;` or `)`
        (made before the rule, or on a path around it) broke the lock string and left a
        character its owner could neither puppet nor delete.
        """
        character = kwargs.get("character")
        if character is not None and getattr(character, "id", None) is not None:
            kwargs["character"] = character.id
        return super().get_default_lockstring(account=account, caller=caller, **kwargs)

    # ------------------------------------------------------------ stored values

    def _stored(self, key, default):
        value = self.attributes.get(key, category=SHEET)
        return default if value is None else value

    @staticmethod
    def dice_system():
        """The game's configured `rules.engine.System`."""
        return configured_system()

    @property
    def sheet(self):
        """The configured system's `Sheet`."""
        return self.dice_system().sheet

    @property
    def sheet_values(self):
        """Every trait's value, in range (see `Sheet.clamp`); a trait source's values first."""
        # A roll reads the sheet several times (the roller, the pool's traits, what it
        # spends): unpacking the Attribute and clamping every trait each time was a tenth of
        # a roll. Kept while the stored value is the same object (every write replaces it)
        # under the same system; a game's own trait source is read every time (its values
        # change where this class cannot see).
        system = self.dice_system()
        source = trait_source()
        if not isinstance(source, SheetOnly):
            values = dict(self._stored("values", {}))
            values.update(read_values(source, self, list(system.sheet.defaults())))
            return system.sheet.clamp(values)
        attribute = self.attributes.get("values", category=SHEET, return_obj=True)
        packed = getattr(attribute, "db_value", None) if not isinstance(attribute, list) else None
        memo = self.__dict__.get("_sheet_memo")
        if memo is None or memo[0] is not packed or memo[1] is not system or packed is None:
            memo = (packed, system, system.sheet.clamp(dict(self._stored("values", {}))))
            self.__dict__["_sheet_memo"] = memo
        return dict(memo[2])

    @property
    def specialties(self):
        """Trait -> tuple of Specialty names: a trait source's for the skills it names, else the sheet's."""
        own = {skill: tuple(names) for skill, names in self._stored("specialties", {}).items() if names}
        source = trait_source()
        if not callable(getattr(source, "specialties", None)):
            return own
        found = read_specialties(source, self, self.sheet.defaults())
        own = {skill: names for skill, names in own.items() if skill not in found}
        own.update((skill, names) for skill, names in found.items() if names)
        return own

    @property
    def approved(self):
        return bool(self._stored("approved", False))

    @approved.setter
    def approved(self, value):
        self.attributes.add("approved", bool(value), category=SHEET)
        sheet_changed(self, "approved")

    def flag(self, name):
        """A sheet flag a system's command sets (e.g. V5's "frenzy"), False when never set."""
        return bool(self._stored(name, False))

    def set_flag(self, name, value):
        self.attributes.add(name, bool(value), category=SHEET)
        sheet_changed(self, "flags")

    def trait(self, name):
        return self.sheet_values[name]

    def sheet_layout(self):
        """The sheet as `Sheet.layout` lays it out (`rules.engine.SheetSection`s), its flags read here."""
        sheet = self.sheet
        flags = frozenset(name for name in sheet.layout_flags if self.flag(name))
        return sheet.layout(self.sheet_values, self.specialties, flags)

    def roller(self):
        """This character as the rules see it (`rules.engine.Roller`): name, traits, state."""
        return self.dice_system().roller(self.key, self.sheet_values, self.specialties)

    def trait_table(self):
        """What this sheet offers to pool expressions."""
        return self.sheet.traits(self.sheet_values, self.specialties)

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
        self.sheet.check_value(trait, value, values)
        old = values[trait]
        if not write_value(trait_source(), self, trait, value):
            stored = dict(self._stored("values", {}))
            stored[trait] = value
            # Hunger and Willpower change in play, often in a roll: in one statement.
            replace_value(self, "values", stored, category=SHEET)
        self.send_gmcp_vitals()
        sheet_changed(self, "values")
        return old

    def willpower_left(self):
        """The Willpower this character may still spend (how it is kept is the system's sheet's)."""
        return self.sheet.willpower_left(self.sheet_values)

    def spend_willpower(self, amount=1):
        """
        Spend `amount` Willpower: the one way every system's commands do it (`Sheet.spend_willpower`
        says which trait moves). Raises DiceError, changing nothing, when too little is left.
        """
        for trait, value in self.sheet.spend_willpower(self.sheet_values, amount).items():
            self.set_trait(trait, value)

    def add_specialty(self, skill, name):
        owned = self.specialties.get(skill, ())
        name = self.sheet.check_specialty(skill, name, self.sheet_values, owned)
        self._store_specialties(skill, [*owned, name])
        return name

    def remove_specialty(self, skill, name):
        owned = self.specialties.get(skill, ())
        if not owned:
            raise DiceError(f"{skill.title()} has no {self.sheet.specialty_words[1]}.")
        name = match_name(name, owned, what=f"{skill.title()} {self.sheet.specialty_words[0]}")
        self._store_specialties(skill, [each for each in owned if each != name])
        return name

    def _store_specialties(self, skill, names):
        """
        `skill`'s whole new list: to the trait source when it takes it (`write_specialties`),
        else to the sheet, unless the source's list of that skill would hide it (the ruling
        in `typeclasses.traits`).
        """
        source = trait_source()
        if not write_specialties(source, self, skill, names):
            if skill in (read_specialties(source, self, self.sheet.defaults()) or {}):
                raise DiceError(f"{skill.title()}'s {self.sheet.specialty_words[1]} are kept in this game's "
                                "own stats; +stat cannot change them.")
            stored = {k: list(v) for k, v in self._stored("specialties", {}).items() if k != skill}
            if names:
                stored[skill] = list(names)
            self.attributes.add("specialties", stored, category=SHEET)
        sheet_changed(self, "specialties")

    # ------------------------------------------------------------ MUD clients

    def send_vitals(self, session=None):
        """
        The sheet's gauges (`Sheet.vitals`) as the OOB message `char_vitals`, which Evennia's
        telnet GMCP encoder names `Char.Vitals` (an underscore becomes a dot, each word
        capitalised), for clients that negotiated GMCP; others drop it. Sent on puppet and
        after every `set_trait`, so a Mudlet gauge follows the sheet. Nothing is sent when the
        system has no vitals (an empty GMCP message would only say the package exists), nor to
        a session that cannot use it (`reads_gmcp`). A web client running the dice panel gets
        the sheet and the same gauges as the panel's OOB messages (`typeclasses.panel`).
        """
        panel.send_sheet(self, session)
        self.send_gmcp_vitals(session)

    def send_gmcp_vitals(self, session=None):
        """The gauges to the sessions that read GMCP (`reads_gmcp`) and run no dice panel (a
        panel gets them with its sheet: `SHEET_CHANGED`, `typeclasses.panel`)."""
        try:
            sessions = [s for s in (make_iter(session) if session else self.sessions.all())
                        if reads_gmcp(s) and not panel.is_panel_session(s)]
            vitals = self.sheet.vitals(self.sheet_values) if sessions else None
            for each in sessions if vitals else ():
                # Straight to the session: OOB data is no message for `msg`'s hooks (nospoof,
                # at_msg_receive) nor for tests that read what a character was told.
                each.data_out(char_vitals=vitals)
        except Exception:  # noqa: BLE001 - a gauge must never stop a sheet change or a login
            logger.log_trace(f"vitals for {self}")

    # ------------------------------------------------------------ connecting

    def at_post_puppet(self, **kwargs):
        """
        After the usual greeting: the sheet's gauges for MUD clients. What expired while the
        player was away and what is still pending (challenges, teamwork, the +willpower
        window) follows from the commands' side: Evennia sends SIGNAL_OBJECT_POST_PUPPET right
        after this hook, and the game's start hooks (server/conf/at_server_startstop.py)
        connect commands.pending to it, since a typeclass never imports from `commands/`.
        """
        self._stock_post_puppet()
        self.send_vitals()

    def at_post_unpuppet(self, account=None, session=None, **kwargs):
        """After Evennia's: a web client's dice panel that showed this sheet shows none (its
        player left the character; the panel must not offer rolls from a sheet not played)."""
        super().at_post_unpuppet(account=account, session=session, **kwargs)
        if session is not None and panel.is_panel_session(session):
            panel.send([session], cleared=True)

    def _stock_post_puppet(self):
        """Evennia's greeting, look and "has entered the game", with the name shown as text (the
        stock greeting prints the raw key into `You become |c<key>|n`)."""
        self.msg(f"\nYou become |c{shown_name(self)}|n.\n")
        self.msg((self.at_look(self.location), {"type": "look"}), options=None)

        def message(obj, from_obj):
            obj.msg(ours(f"{shown_name(self)} has entered the game."), from_obj=from_obj)

        if self.location:
            self.location.for_contents(message, exclude=[self], from_obj=self)
