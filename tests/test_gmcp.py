"""
GMCP vitals: each system's `Sheet.vitals` (rules/*_system.py), how Evennia encodes them
(`char_vitals` -> `Char.Vitals <json>`), and that a character sends them after every
`set_trait` and on puppet (typeclasses/characters.py), only to sessions that can use them.
The raw-telnet check against a running server is tests/e2e/test_gmcp.py.
"""

import json
from types import SimpleNamespace

import pytest
from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.rules import systems


def vitals(key, values=None):
    return systems.get_system(key).sheet.vitals(values or {})


# ---------------------------------------------------------------- each system's vitals


def test_v5_defaults():
    # Composure 1 + Resolve 1 = Willpower 2; Stamina 1 + 3 = Health 4; Hunger starts at 1.
    assert vitals("v5") == {
        "hunger": 1,
        "willpower": {"current": 2, "max": 2, "superficial": 0, "aggravated": 0},
        "health": {"current": 4, "max": 4, "superficial": 0, "aggravated": 0},
        "humanity": 7, "stains": 0, "blood_potency": 1,
    }


def test_v5_damage_and_hunger():
    values = {"composure": 3, "resolve": 2, "stamina": 3, "hunger": 2, "willpower superficial": 1,
              "health superficial": 1, "health aggravated": 1, "humanity": 6, "stains": 2}
    got = vitals("v5", values)
    assert got["hunger"] == 2
    assert got["willpower"] == {"current": 4, "max": 5, "superficial": 1, "aggravated": 0}
    assert got["health"] == {"current": 4, "max": 6, "superficial": 1, "aggravated": 1}
    assert (got["humanity"], got["stains"]) == (6, 2)


def test_v20_defaults_and_incapacitated():
    assert vitals("v20") == {
        "willpower": {"current": 1, "max": 1},
        "blood": {"current": 10, "max": 10, "per_turn": 1},
        "health": {"current": 7, "max": 7, "level": "Healthy", "penalty": 0,
                   "bashing": 0, "lethal": 0, "aggravated": 0},
        "humanity": 7,
    }
    hurt = vitals("v20", {"willpower": 6, "willpower temporary": 4, "health lethal": 2, "health bashing": 1})
    assert hurt["willpower"] == {"current": 4, "max": 6}
    assert hurt["health"] == {"current": 4, "max": 7, "level": "Injured", "penalty": -1,
                              "bashing": 1, "lethal": 2, "aggravated": 0}
    # Incapacitated: no action at all, so no dice penalty to show (JSON null).
    down = vitals("v20", {"health aggravated": 7})["health"]
    assert (down["current"], down["level"], down["penalty"]) == (0, "Incapacitated", None)


def test_seyruun():
    assert vitals("seyruun") == {"willpower": {"current": 2, "max": 2},
                                 "wound": {"current": 0, "max": 4, "level": "none", "penalty": 0}}
    got = vitals("seyruun", {"composure": 3, "resolve": 2, "willpower spent": 1, "wound": 2})
    assert got == {"willpower": {"current": 4, "max": 5},
                   "wound": {"current": 2, "max": 4, "level": "moderate", "penalty": 2}}


def test_whalefall_has_none():
    assert vitals("whalefall", {"athletics": 3}) == {}


def test_dicecheck_wounds():
    assert vitals("dicecheck") == {"wounds": {"current": 0, "max": 10}}
    assert vitals("dicecheck", {"wounds": 3}) == {"wounds": {"current": 3, "max": 10}}


@pytest.mark.parametrize("key", ["v5", "v20", "seyruun", "whalefall", "dicecheck"])
def test_vitals_are_plain_json(key):
    got = vitals(key)
    assert json.loads(json.dumps(got)) == got


def test_evennia_names_it_char_vitals():
    """What the Portal writes inside IAC SB GMCP ... IAC SE for `msg(char_vitals={...})`."""
    from evennia.server.portal.gmcp_utils import encode_gmcp

    payload = {"hunger": 3, "willpower": {"current": 4, "max": 5}}
    # The sessionhandler turns a dict value into ([], {...}); the Portal calls encode_gmcp.
    assert encode_gmcp("char_vitals", **payload) == 'Char.Vitals ' + json.dumps(payload)


# ---------------------------------------------------------------- sending


def test_reads_gmcp():
    from storyteller_dice.typeclasses.characters import reads_gmcp

    def session(key, client=""):
        return SimpleNamespace(protocol_key=key, protocol_flags={"CLIENTNAME": client})

    assert reads_gmcp(session("telnet"))
    assert reads_gmcp(session("telnet/ssl"))
    # Evennia's own web client prints an OOB message it cannot handle into the window.
    for key in ("websocket", "webclient/websocket"):  # the Server's name in Evennia 6.1; the Portal's
        assert not reads_gmcp(session(key, "Evennia Webclient (websocket [v1.evennia.com])"))
        assert reads_gmcp(session(key, "Evennia Webclient (websocket [gmcp.mudstandards.org])"))
    assert not reads_gmcp(session("webclient/ajax"))
    assert not reads_gmcp(session("ssh"))


class TestSendVitals(EvenniaCommandTest):
    """set_trait and puppeting send `char_vitals` to the character's sessions (data_out)."""

    def sent(self, call):
        """(vitals, session) of every `char_vitals` the session handler (a Mock here) got."""
        import evennia

        evennia.SESSION_HANDLER.data_out.reset_mock()
        call()
        return [(c.kwargs["char_vitals"], c.args[0]) for c in evennia.SESSION_HANDLER.data_out.call_args_list
                if "char_vitals" in c.kwargs]

    def setUp(self):
        super().setUp()
        # The test session is telnet; puppet char1 on it so the character has a session.
        self.session.puppet = self.char1
        self.char1.sessions.add(self.session)

    def test_set_trait_sends_the_new_value(self):
        seen = self.sent(lambda: self.char1.set_trait("hunger", 3))
        assert len(seen) == 1
        got, session = seen[0]
        assert got["hunger"] == 3
        assert got["willpower"]["current"] == got["willpower"]["max"]
        assert session is self.session

    def test_not_a_message_the_character_reads(self):
        """Command tests read `msg`: the vitals must not show up among what a player was told."""
        from unittest.mock import patch

        with patch.object(self.char1, "msg") as told:
            self.char1.set_trait("hunger", 3)
        assert told.call_args_list == []

    def test_each_change_sends_once(self):
        seen = self.sent(lambda: (self.char1.set_trait("stamina", 3), self.char1.set_trait("health superficial", 2)))
        assert [v["health"] for v, _ in seen] == [
            {"current": 6, "max": 6, "superficial": 0, "aggravated": 0},
            {"current": 4, "max": 6, "superficial": 2, "aggravated": 0}]

    def test_a_refused_change_sends_nothing(self):
        from storyteller_dice.rules.errors import DiceError

        def bad():
            with pytest.raises(DiceError):
                self.char1.set_trait("hunger", 9)

        assert self.sent(bad) == []

    def test_web_client_session_gets_none(self):
        self.session.protocol_key = "webclient/websocket"
        self.session.protocol_flags["CLIENTNAME"] = "Evennia Webclient (websocket [v1.evennia.com])"
        assert self.sent(lambda: self.char1.set_trait("hunger", 2)) == []

    def test_on_puppet(self):
        seen = self.sent(lambda: self.char1.at_post_puppet())
        assert [v["hunger"] for v, _ in seen] == [1]

    @override_settings(DICE_SYSTEM="whalefall")
    def test_no_vitals_no_message(self):
        skill = self.char1.sheet.skills[0]
        assert self.sent(lambda: self.char1.set_trait(skill, 3)) == []
