"""
The web client's dice panel, server side (typeclasses/panel.py, commands/panel.py): which
sessions get its OOB messages (a web client that said hello; never telnet), what they carry
(the sheet, the trackers, `+odds`' own figures, the room's rolls, V5's Willpower reroll), and
that a bad request changes nothing. The browser side is tests/e2e/test_panel_web.py.
"""

import pytest
from evennia.utils.ansi import strip_ansi

from storyteller_dice.rules import systems
from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.v5.hunger import CmdHunger
from storyteller_dice.commands.v5.willpower import CmdWillpower, last_roll
from storyteller_dice.typeclasses import inputfuncs, panel

from .table_helpers import Connected, TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


@pytest.mark.parametrize("key, syntax", [
    ("v5", (" vs ", "<difficulty>")), ("v20", (" vs ", "<difficulty>")), ("seyruun", (" vs ", "<successes>")),
    ("whalefall", (" vs ", "(<face>,<count>)")), ("dicecheck", (":", "<TN>")),
])
def test_each_systems_target_in_its_own_syntax(key, syntax):
    assert panel.target_syntax(systems.get_system(key)) == syntax


class PanelTest(Connected, TableTest):
    """char1 plays on a web client session running the panel; char2 on telnet."""

    def setUp(self):
        super().setUp()
        import evennia
        from unittest.mock import patch

        # The flag goes to the Portal (which keeps it over a reload): no Portal here.
        syncing = patch.object(evennia.SESSION_HANDLER, "session_portal_sync")
        self.portal_sync = syncing.start()
        self.addCleanup(syncing.stop)
        from storyteller_dice.commands import panel as command_panel  # imports the commands: Evennia set up

        command_panel.install()
        self.web = self.connect(self.account, self.char1)
        self.web.protocol_key = "websocket"
        self.telnet = self.connect(self.account2, self.char2)

    def sent(self, call, session=None):
        """The OOB messages (name, kwargs) `session` (default: the web one) got during `call`."""
        import evennia

        evennia.SESSION_HANDLER.data_out.reset_mock()
        call()
        found = []
        for each in evennia.SESSION_HANDLER.data_out.call_args_list:
            if each.args[0] is (session or self.web):
                found += [(name, value) for name, value in each.kwargs.items() if name not in ("text", "options")]
        return found

    def panel_messages(self, call, session=None):
        return [value[1] for name, value in self.sent(call, session) if name == "dice_panel"]

    def hello(self, session=None):
        return self.sent(lambda: inputfuncs.dice_panel(session or self.web, hello=True, cmdid=1), session)


class TestWhoGetsIt(PanelTest):
    def test_hello_sends_sheet_trackers_rolls_and_actions(self):
        got = self.hello()
        names = [name for name, _ in got]
        assert names == ["dice_panel", "char_vitals", "dice_panel", "dice_panel"]
        sheet = got[0][1][1]["sheet"]
        assert (sheet["system"], sheet["name"], sheet["joiner"], sheet["hint"]) == ("v5", "Char", " vs ", "<difficulty>")
        attributes = sheet["sections"][0]
        assert attributes["title"] == "Attributes"
        assert ["Physical", [["Strength", 1], ["Dexterity", 3], ["Stamina", 1]]] in attributes["rows"]
        assert got[1][1]["hunger"] == 2
        assert {key: sheet[key] for key in ("specialties", "approved", "impaired", "tools", "keys")} == {
            "specialties": [], "approved": False, "impaired": False,
            "tools": [{"label": "Rouse check", "command": "+rouse"},
                      {"label": "Frenzy test", "command": "+frenzy", "target": True}],
            "keys": {"+roll": "+roll"}}
        assert set(sheet) == {"system", "title", "name", "usage", "joiner", "hint", "sections", "specialties",
                              "approved", "impaired", "tools", "keys", "edit"}
        assert got[2][1][1] == {"rolls": []} and got[3][1][1] == {"actions": []}
        assert self.web.protocol_flags["DICE_PANEL"] is True
        self.portal_sync.assert_called_once_with(self.web)

    def test_a_telnet_session_never_gets_the_panel(self):
        assert self.hello(self.telnet) == []
        assert "DICE_PANEL" not in self.telnet.protocol_flags
        got = self.sent(lambda: self.char2.set_trait("hunger", 3), self.telnet)
        assert [name for name, _ in got] == ["char_vitals"]  # GMCP, as before
        self.hello()
        assert self.panel_messages(lambda: self.call(CmdRoll(), "dex vs 1", caller=self.char1), self.telnet) == []

    def test_a_web_client_without_the_panel_gets_nothing(self):
        assert self.sent(lambda: self.char1.set_trait("hunger", 3)) == []
        assert self.sent(lambda: self.call(CmdRoll(), "dex vs 1", caller=self.char2)) == []

    def test_a_sheet_change_updates_sheet_and_trackers(self):
        self.hello()
        got = self.sent(lambda: self.call(CmdHunger(), "Char=4", caller=self.char1))
        assert [name for name, _ in got] == ["dice_panel", "char_vitals"]
        assert got[1][1]["hunger"] == 4


class TestOddsAndRolls(PanelTest):
    def odds(self, text, session=None):
        self.hello()
        found = self.panel_messages(lambda: inputfuncs.dice_panel(session or self.web, odds=text))
        return found[0]["odds"] if found else None

    def test_the_preview_is_odds_figures(self):
        got = self.odds("dex+athletics vs 3")
        typed = strip_ansi(self.call(CmdOdds(), "dex+athletics vs 3", caller=self.char1))
        for chance in got["chances"]:
            assert any(line.split() == chance["label"].split() + [chance["percent"]]
                       for line in typed.splitlines()), (chance, typed)
        assert f"[Odds] {got['pool']}, {got['target']}" == typed.splitlines()[0]
        assert sum(float(c["percent"].rstrip("%")) for c in got["chances"]) == pytest.approx(100.0)

    def test_a_refused_pool_is_one_line(self):
        assert self.odds("nosuchtrait vs 3")["error"] == "There is no trait called 'nosuchtrait'."
        assert self.odds("")["error"] == "Click traits or type a pool."
        assert self.odds(["a", "list"])["error"] == "Click traits or type a pool."

    def test_the_room_sees_a_roll_in_its_panel(self):
        self.hello()
        got = self.panel_messages(lambda: self.call(CmdRoll(), "composure vs 1 # <b>hi</b>", caller=self.char2))
        item = got[0]["roll"]
        assert item["who"] == "Char2" and item["code"] and item["summary"]
        # and the hello of a later panel lists it, from the roll log
        again = self.hello()
        assert again[2][1][1]["rolls"][-1]["code"] == item["code"]

    def test_a_private_roll_reaches_only_its_receivers_panels(self):
        self.telnet.protocol_key = "webclient/websocket"
        self.hello(self.telnet)
        got = self.panel_messages(lambda: self.call(CmdRoll(), "dex vs 1", caller=self.char1), self.telnet)
        assert len(got) == 1
        import evennia

        evennia.SESSION_HANDLER.data_out.reset_mock()
        self.call(CmdRoll(), "/private dex vs 1", caller=self.char1)
        assert self.panel_messages(lambda: None, self.telnet) == []
        assert [c for c in evennia.SESSION_HANDLER.data_out.call_args_list
                if c.args[0] is self.telnet and "dice_panel" in c.kwargs] == []

    def test_willpower_reroll_offered_in_its_window(self):
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.hello()
        with seeded(FixedFaces([1, 2, 6, 3, 7])):
            self.call(CmdRoll(), "dex+athletics vs 3", caller=self.char1)
        got = self.panel_messages(lambda: inputfuncs.dice_panel(self.web, actions=True))
        action = got[0]["actions"][0]
        assert (action["label"], action["command"]) == ("Reroll with Willpower", "+willpower")
        assert 0 < action["seconds"] <= 600
        with seeded(FixedFaces([10, 10])):
            self.call(CmdWillpower(), "", caller=self.char1)
        assert self.panel_messages(lambda: inputfuncs.dice_panel(self.web, actions=True)) == [{"actions": []}]


class TestOtherSystems(PanelTest):
    def test_v20_sheet_and_trackers(self):
        from django.test import override_settings

        with override_settings(DICE_SYSTEM="v20"):
            got = self.hello()
        sheet, vitals = got[0][1][1]["sheet"], got[1][1]
        assert (sheet["system"], sheet["joiner"], sheet["hint"]) == ("v20", " vs ", "<difficulty>")
        assert vitals["willpower"] == {"current": 1, "max": 1}
        assert vitals["health"]["level"] == "Healthy"

    def test_v20_offers_no_willpower_reroll_nor_a_pick_on_its_cards(self):
        # V20's Willpower buys a success before the roll (+roll/willpower): nothing rerolls after
        from django.test import override_settings
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        with override_settings(DICE_SYSTEM="v20"):
            self.hello()
            with seeded(FixedFaces([2, 3, 4])) as source:
                out = self.call(CmdRoll(), "3 vs 6", caller=self.char1)
            assert out.startswith("[Roll] Char rolls 3 dice, difficulty 6") and source.remaining == [], out
            assert self.panel_messages(lambda: inputfuncs.dice_panel(self.web, actions=True)) == [{"actions": []}]

    def test_dicecheck_target_after_a_colon(self):
        from django.test import override_settings

        with override_settings(DICE_SYSTEM="dicecheck"):
            sheet = self.hello()[0][1][1]["sheet"]
        assert (sheet["joiner"], sheet["hint"]) == (":", "<TN>")


class TestWillpowerOffer(PanelTest):
    def test_no_offer_for_hunger_dice_alone_or_without_willpower(self):
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.hello()
        self.char1.set_trait("hunger", 3)
        with seeded(FixedFaces([2, 3, 4])):
            self.call(CmdRoll(), "3 vs 2", caller=self.char1)  # 3 dice, all Hunger dice
        assert self.panel_messages(lambda: inputfuncs.dice_panel(self.web, actions=True)) == [{"actions": []}]
        self.char1.set_trait("hunger", 0)
        self.char1.set_trait("willpower superficial", 2)  # Willpower 2: none left
        with seeded(FixedFaces([2, 3, 4])):
            self.call(CmdRoll(), "3 vs 2", caller=self.char1)
        assert self.panel_messages(lambda: inputfuncs.dice_panel(self.web, actions=True)) == [{"actions": []}]


class TestLeavingTheCharacter(PanelTest):
    def test_unpuppet_clears_the_panel_and_telnet_gets_nothing(self):
        self.hello()
        got = self.panel_messages(lambda: self.char1.at_post_unpuppet(account=self.account, session=self.web))
        assert got == [{"cleared": True}]
        assert self.panel_messages(lambda: self.char2.at_post_unpuppet(account=self.account2, session=self.telnet),
                                   self.telnet) == []


class TestEverySheetChange(PanelTest):
    """The panel follows every write of the sheet, whoever makes it: char2 plays on a panel,
    char1 (staff) changes char2's sheet as from telnet."""

    def setUp(self):
        super().setUp()
        self.telnet.protocol_key = "websocket"
        self.player = self.telnet
        self.hello(self.player)
        self.char2.set_trait("athletics", 1)

    def sheets(self, call):
        return [message["sheet"] for message in self.panel_messages(call, self.player) if "sheet" in message]

    def test_a_staff_specialty_change_reaches_the_players_panel(self):
        from storyteller_dice.commands.sheet import CmdStat

        got = self.sheets(lambda: self.call(CmdStat(), "Char2/spec athletics=Climbing", caller=self.char1))
        assert len(got) == 1
        assert got[0]["specialties"] == [["athletics", "Climbing"]]
        assert ["line", "Specialties", "Athletics (Climbing)"] in [
            [s["kind"], s["title"], s["text"]] for s in got[0]["sections"]]
        got = self.sheets(lambda: self.call(CmdStat(), "/remove Char2/spec athletics=Climbing", caller=self.char1))
        assert got[0]["specialties"] == []
        # the staff member's own panel (char1's web session) is not told of char2's sheet
        assert self.panel_messages(lambda: self.call(CmdStat(), "Char2/spec athletics=Running", caller=self.char1)) == []

    def test_approval_reaches_the_panel(self):
        from storyteller_dice.commands.sheet import CmdApprove

        assert self.sheets(lambda: None) == []
        got = self.sheets(lambda: self.call(CmdApprove(), "Char2", caller=self.char1, cmdstring="+approve"))
        assert [sheet["approved"] for sheet in got] == [True]
        got = self.sheets(lambda: self.call(CmdApprove(), "Char2", caller=self.char1, cmdstring="+unapprove"))
        assert [sheet["approved"] for sheet in got] == [False]

    def test_a_flag_reaches_the_panel(self):
        got = self.sheets(lambda: self.char2.set_flag("frenzy", True))
        hunger = [s["text"] for s in got[0]["sections"] if s["title"] == "Hunger"]
        assert hunger == ["1   Humanity 7 (Stains 0)   Blood Potency 1   IN FRENZY"]

    def test_a_value_sends_the_sheet_and_its_boxes_once(self):
        got = self.sent(lambda: self.char2.set_trait("health superficial", 2), self.player)
        assert [name for name, _ in got] == ["dice_panel", "char_vitals"]
        assert got[1][1]["health"] == {"current": 2, "max": 4, "superficial": 2, "aggravated": 0}

    def test_impaired_is_flagged(self):
        """V5: Impaired while Stains overflow Humanity (the rule its rolls apply)."""
        got = self.sheets(lambda: self.char2.set_trait("stains", 4))
        assert got[0]["impaired"] is True
        got = self.sheets(lambda: self.char2.set_trait("stains", 0))
        assert got[0]["impaired"] is False

    def test_the_event_names_the_change(self):
        from storyteller_dice.typeclasses.events import SHEET_CHANGED

        heard = []

        def listener(sender, character=None, what=None, **kwargs):
            heard.append((character.key, what))

        SHEET_CHANGED.connect(listener, weak=False, dispatch_uid="test listener")
        self.addCleanup(SHEET_CHANGED.disconnect, dispatch_uid="test listener")
        self.char2.set_trait("hunger", 2)
        self.char2.add_specialty("athletics", "Climbing")
        self.char2.approved = True
        self.char2.set_flag("frenzy", False)
        assert heard == [("Char2", "values"), ("Char2", "specialties"), ("Char2", "approved"), ("Char2", "flags")]

    def test_nothing_is_computed_for_a_character_without_a_panel(self):
        from unittest.mock import patch

        with patch.object(panel, "sheet_message", side_effect=AssertionError("computed")):
            self.char1.set_trait("hunger", 3)  # char1's web session never said hello


class TestOffersOnlyWhatWorks(PanelTest):
    def actions(self):
        return self.panel_messages(lambda: inputfuncs.dice_panel(self.web, actions=True))

    def test_no_reroll_offered_after_a_win(self):
        from storyteller_dice.commands.rolls import CmdCheck
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.hello()
        self.char1.set_trait("hunger", 0)
        with seeded(FixedFaces([7, 2, 3, 4, 5, 6, 8, 9])):
            self.call(CmdCheck(), "8 vs 1", caller=self.char1)
        assert self.actions() == [{"actions": []}]
        # ... and +willpower refuses it, spending nothing: the very rule the panel asked
        out = self.call(CmdWillpower(), "", caller=self.char1)
        assert out.startswith("No reroll raises the chance to win"), out

    def test_the_offer_goes_once_used(self):
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.hello()
        self.char1.set_trait("hunger", 0)
        with seeded(FixedFaces([1, 2, 3])):
            self.call(CmdRoll(), "3 vs 2", caller=self.char1)
        offer = self.actions()[0]["actions"][0]
        code = last_roll(self.char1).entry
        # the card's pick: the dice +willpower alone takes (all three under 6), by position
        assert offer == {"label": "Reroll with Willpower", "command": "+willpower", "seconds": offer["seconds"],
                         "dice": {"code": code, "regular": [1, 2, 3], "picks": [0, 1, 2], "most": 3,
                                  "switch": "/position"}}
        with seeded(FixedFaces([1, 2, 3])):
            self.call(CmdWillpower(), "", caller=self.char1)
        assert self.actions() == [{"actions": []}]


class TestCards(PanelTest):
    def test_a_roll_comes_with_its_card(self):
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.hello()
        with seeded(FixedFaces([10, 6, 2, 10, 1])):
            got = self.panel_messages(lambda: self.call(CmdRoll(), "dex+athletics vs 3", caller=self.char1))
        item = got[0]["roll"]
        assert item["card"] == [{
            "label": "",
            "groups": [{"label": "Dice", "dice": [[10, ["success", "ten"]], [6, ["success"]], [2, ["fail"]]]},
                       {"label": "Hunger", "dice": [[10, ["hunger", "success", "ten"]], [1, ["hunger", "one"]]]}],
            "score": "5 successes",
            "outcome": {"key": "messy_critical", "label": "messy critical", "tone": "mixed"},
            "notes": ["margin +2, solid success"]}]
        assert set(item) == {"code", "who", "pool", "target", "summary", "kind", "card"}

    def test_a_contest_card_has_both_sides(self):
        from storyteller_dice.commands.rolllog import CmdRolls  # noqa: F401 - the commands loaded
        from storyteller_dice.rolllog.models import RollEntry
        from storyteller_dice.commands.panel import card_of

        view = {"system": "v5", "pool": "3 dice", "target": "", "score": 1, "noun": ["success", "successes"],
                "groups": [{"label": "Dice", "sides": 10, "dice": [[7, ["success"]], [2, ["fail"]]]}],
                "outcome": {"key": "success", "label": "success", "tone": "good"}, "notes": []}
        entry = RollEntry(code="ABCDEFGH", sides=[{"label": "<b>Ann</b>", "view": view}, {"label": "Bo", "view": view}])
        cards = card_of(entry)
        assert [side["label"] for side in cards] == ["<b>Ann</b>", "Bo"]  # text, drawn as text
        assert cards[0]["score"] == "1 success"


class TestContestOffers(PanelTest):
    """A challenge to a panel's character offers Answer (with the panel's pool) and Decline; the
    challenger's panel offers Withdraw; both go when it is over."""

    def setUp(self):
        super().setUp()
        self.telnet.protocol_key = "websocket"
        self.hello()
        self.hello(self.telnet)

    def offers(self, call, session):
        found = [message["actions"] for message in self.panel_messages(call, session) if "actions" in message]
        return [[(action["label"], action["command"], action.get("pool", False)) for action in actions]
                for actions in found]

    def test_answer_decline_and_withdraw(self):
        from storyteller_dice.commands.v5.contest import CmdContest

        import evennia

        evennia.SESSION_HANDLER.data_out.reset_mock()
        self.call(CmdContest(), "composure+resolve vs Char", caller=self.char2)
        told = {}
        for each in evennia.SESSION_HANDLER.data_out.call_args_list:
            if "dice_panel" in each.kwargs and "actions" in each.kwargs["dice_panel"][1]:
                told.setdefault(each.args[0].sessid, []).append(each.kwargs["dice_panel"][1]["actions"])
        mine, theirs = told[self.web.sessid][-1], told[self.telnet.sessid][-1]
        assert [(a["label"], a["command"], a.get("pool", False)) for a in mine] == [
            ("Answer Char2's challenge", "+contest/answer", True),
            ("Decline Char2's challenge", "+contest/decline", False)]
        assert 0 < mine[0]["seconds"] <= 300
        assert [(a["label"], a["command"]) for a in theirs] == [("Withdraw the challenge to Char", "+contest/cancel")]
        assert self.offers(lambda: self.call(CmdContest(), "/decline", caller=self.char1), self.web) == [[]]

    def test_nothing_offered_to_a_telnet_side(self):
        from storyteller_dice.commands.v5.contest import CmdContest

        self.telnet.protocol_key = "telnet"
        assert self.offers(lambda: self.call(CmdContest(), "composure vs Char", caller=self.char2), self.telnet) == []


class TestTools(PanelTest):
    def tools(self, session=None):
        return [(tool["label"], tool["command"], tool.get("target", False))
                for tool in self.hello(session)[0][1][1]["sheet"]["tools"]]

    def test_v5_rouse_remorse_when_due_and_frenzy(self):
        assert self.tools() == [("Rouse check", "+rouse", False), ("Frenzy test", "+frenzy", True)]
        self.char1.set_trait("stains", 2)
        assert self.tools() == [("Rouse check", "+rouse", False), ("Remorse test", "+remorse", False),
                                ("Frenzy test", "+frenzy", True)]

    def test_a_command_left_out_or_locked_is_not_offered(self):
        from django.test import override_settings

        from storyteller_dice.commands.v5.hunger import CmdRouse

        with override_settings(DICE_COMMAND_KEYS={"+rouse": "+vrouse"}):
            assert self.tools()[0] == ("Rouse check", "+vrouse", False)
        with override_settings(DICE_COMMAND_KEYS={"+rouse": None}):
            assert [label for label, _, _ in self.tools()] == ["Frenzy test"]
        # Char2, a player, and a +rouse only staff may use
        locked = CmdRouse.lock_storage  # the lock string Evennia read from `locks`
        CmdRouse.lock_storage = "cmd:perm(Developer)"
        self.addCleanup(setattr, CmdRouse, "lock_storage", locked)
        self.telnet.protocol_key = "websocket"
        assert [label for label, _, _ in self.tools(self.telnet)] == ["Frenzy test"]
        assert [label for label, _, _ in self.tools()] == ["Rouse check", "Frenzy test"]  # staff

    def test_v20_has_none(self):
        from django.test import override_settings

        with override_settings(DICE_SYSTEM="v20"):
            assert self.tools() == []


class TestEditing(PanelTest):
    """What the panel's Edit sheet may set (the sheet's `edit`), for char2, a player on a panel;
    the lines it sends are `+stat`'s own."""

    def setUp(self):
        super().setUp()
        self.telnet.protocol_key = "websocket"

    def edit(self):
        return self.hello(self.telnet)[0][1][1]["sheet"]["edit"]

    def test_a_sheet_not_approved_offers_its_columns_and_specialties(self):
        from storyteller_dice.rules.v5.sheet import ALL_ATTRIBUTES, ALL_SKILLS

        edit = self.edit()
        assert edit["command"] == "+stat"
        assert sorted(edit["traits"]) == sorted(ALL_ATTRIBUTES + ALL_SKILLS)
        assert "hunger" not in edit["traits"]  # staff's: not offered
        assert edit["specialty"] == {"keyword": "spec", "word": "Specialty", "traits": list(ALL_SKILLS)}
        assert "animal ken" in edit["specialty"]["traits"] and "strength" not in edit["specialty"]["traits"]

    def test_v20_offers_specialties_on_attributes_and_abilities(self):
        from django.test import override_settings

        with override_settings(DICE_SYSTEM="v20"):
            edit = self.edit()
        assert edit["traits"][:3] == ["strength", "dexterity", "stamina"] and "alertness" in edit["traits"]
        assert not {"health bashing", "health lethal", "health aggravated"} & set(edit["traits"])
        assert edit["specialty"]["traits"] == edit["traits"]

    def test_approved_renamed_left_out(self):
        from django.test import override_settings

        from storyteller_dice.commands.sheet import CmdApprove

        with override_settings(DICE_COMMAND_KEYS={"+stat": "+setstat"}):
            assert self.edit()["command"] == "+setstat"
        with override_settings(DICE_COMMAND_KEYS={"+stat": None}):
            assert self.edit() is None
        # approved: the panel is sent the sheet again, with nothing to set
        sheets = [message["sheet"] for message in self.panel_messages(
            lambda: self.call(CmdApprove(), "Char2", caller=self.char1, cmdstring="+approve"), self.telnet)]
        assert [(sheet["approved"], sheet["edit"]) for sheet in sheets] == [(True, None)]

    def test_a_stat_locked_to_the_player_is_not_offered(self):
        from storyteller_dice.commands.sheet import CmdStat

        locked = CmdStat.lock_storage
        CmdStat.lock_storage = "cmd:perm(Developer)"
        self.addCleanup(setattr, CmdStat, "lock_storage", locked)
        assert self.edit() is None
        assert self.hello()[0][1][1]["sheet"]["edit"]["command"] == "+stat"  # char1 is staff

    def test_the_panels_lines_are_stats_own(self):
        """The lines the panel sends (dice_panel.js: setTrait, the Specialty form, Remove):
        set, refused over the range with nothing changed, a Specialty added and removed."""
        from storyteller_dice.commands.sheet import CmdStat

        self.call(CmdStat(), "animal ken=2", "Your Animal Ken is now 2 (was 0).", caller=self.char2)
        self.call(CmdStat(), "dexterity=6", "Dexterity must be from 1 to 5.", caller=self.char2)
        assert self.char2.sheet_values["dexterity"] == 1
        self.call(CmdStat(), "spec animal ken=Dogs", "Added the Specialty Dogs to your Animal Ken.", caller=self.char2)
        self.call(CmdStat(), "/remove spec animal ken=Dogs", "Removed the Specialty Dogs from your Animal Ken.",
                  caller=self.char2)
        assert self.char2.specialties == {}
