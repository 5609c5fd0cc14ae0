"""
A sixth system edits no shared file: the toy of tests/toy_system/ ("Coin") is installed as a
host would (`tests.toy_system.install()`: `rules.systems.register`, the system naming its wing,
then `DICE_SYSTEM = "coin"`), and the shared parts serve
it from what it declares: `+roll` and the contract (tests/test_engine_contract.py), its tag in
speech, its die mark's look on telnet and on the roll log's page, `+sheet`, `help dice` and the
help index, Limbo, the home page and the connect screen; a contest on the shared challenge flow
(`commands.contest`: challenge, answer, decline, private, odds, rebuilt after a restart), extended
rolls on the shared `+roll/extended` (`commands.extended`), teamwork on the shared `+teamwork`
(`commands.teamwork`) and Willpower (its Nerve) spent through the sheet
(`DiceCharacterMixin.spend_willpower`). The last test lists the shared files the toy had to
touch: none.
"""

import inspect
import pathlib
import re
from unittest import mock

from django.test import override_settings
from evennia.objects.models import ObjectDB
from evennia.utils.idmapper.models import flush_cache
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import contest as shared_contest
from storyteller_dice.commands import extended, pending, pending_lifecycle, teamwork
from storyteller_dice.commands.contest import INCOMING, OUTGOING, load_challenge
from storyteller_dice.commands.dice_base import dice_wing
from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdSheet, CmdStat
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules import display, systems
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces, seeded
from storyteller_dice.typeclasses.speech_text import SYSTEM_TAGS, speech_text
from tests import toy_system
from tests.test_engine_contract import TYPICAL, TestContract, sent
from tests.test_help_systems import WordsChecks, named
from tests.toy_system.contest import CmdContest
from tests.toy_system.teamwork import CmdTeamwork

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOY = pathlib.Path(toy_system.__file__).resolve().parent
SHARED = ("rules", "commands", "typeclasses", "rolllog", "storyteller_dice", "game")


@override_settings(DICE_SYSTEM=toy_system.KEY)
class TestSixthSystem(WordsChecks, EvenniaCommandTest):
    def setUp(self):
        self.addCleanup(toy_system.install())
        super().setUp()

    def roll(self, typed, faces):
        self.call(CmdStat(), "luck=3")
        with seeded(FixedFaces(faces)):
            return sent(self, CmdRoll(), typed, [self.char1, self.char2])[self.char2]

    def test_roll_and_its_die_look_on_telnet(self):
        out = self.roll("luck vs 2", [2, 1, 2])
        assert len(out) == 1, out
        assert out[0].startswith("|w[Roll]|n Char rolls Luck 3 (3 coins), vs 2\n  Coins (d2): |y2|n 1 |y2|n  =>  "), out
        assert (frozenset({"crown"}), "|y") in display.MARK_STYLES

    def test_the_contract(self):
        assert toy_system.KEY in TYPICAL
        for seed in (1, 2, 3):
            TestContract.play(self, toy_system.KEY, seed)

    def test_its_tag_is_marked_in_speech(self):
        assert "Flip" in SYSTEM_TAGS
        assert speech_text("look: [Flip] Char flips a coin", "Bob") == "look: (Bob)[Flip] Char flips a coin"
        from tests.toy_system.wing import CmdFlip

        with seeded(FixedFaces([2])):
            self.call(CmdFlip(), "", "[Flip] Char flips a coin: heads.")

    def test_its_die_look_on_the_roll_log_page(self):
        self.roll("luck", [2, 1, 1])
        self.client.force_login(self.account)
        page = self.client.get("/rolls/").content.decode()
        assert re.search(r'<span class="die mark-crown mark-success"[^>]*>\s*2\s*</span>', page), page
        assert ".rolllog-dice .die.mark-crown { color: #7a5c00; font-weight: bold; }" in page

    def test_sheet(self):
        self.call(CmdStat(), "luck=4")
        assert " Luck            4" in self.call(CmdSheet(), "").split("\n")

    def test_help_limbo_home_page_and_connect_screen(self):
        self.check(toy_system.KEY)  # the checks every system passes (tests/test_help_systems.py)
        from commands.default_cmdsets import CharacterCmdSet
        from storyteller_dice.commands.help import CmdHelp

        cmdset = CharacterCmdSet()
        guide = self.call(CmdHelp(), "dice", cmdset=cmdset)
        assert "Rolling here (Coin): toss coins and count the heads." in guide
        assert "  +flip      Toss one coin for the room to see (nothing stored)." in guide
        assert "  +contest   Toss against another character: more heads wins, a tie goes to" in guide
        assert "  +teamwork  Toss as a team: every member's heads add up." in guide
        assert "help coins" in guide
        assert "Help for coins" in self.call(CmdHelp(), "coins", cmdset=cmdset)
        index = self.help("", cmdset)
        commands = index.split("Game & World")[0].split("-- Dice --")[1].split("-- General --")[0]
        for command in ("+contest", "+flip", "+teamwork"):  # Evennia's index may leave the + out
            assert named(commands, command) or named(commands, command[1:]), commands
        assert "+roll/extended <pool> to <total>" in self.help("+roll", cmdset)
        assert "+odds/contest <your pool> vs <their pool>" in self.help("+odds", cmdset)
        assert "the leader spends 1 Nerve a toss" in " ".join(self.help("+teamwork", cmdset).split())

    def test_its_help_entries_fit_one_page(self):
        from tests import test_help_entries as entries  # the checks every installed system's entries pass

        assert toy_system.KEY in systems.installed()
        assert {entry["key"] for entry in entries.system_entries(toy_system.KEY)} == {"dice", "coins", "coin"}
        entries.test_dice_entries_fit_one_page(None)
        entries.test_no_stray_pipe(None)

    def test_the_system_names_its_wing(self):
        from storyteller_dice.commands.dice_base import Wing, dice_wing
        from tests.toy_system.system import CoinSystem
        from tests.toy_system.wing import WING

        assert dice_wing(systems.get_system(toy_system.KEY)) is WING

        class Bare(CoinSystem):
            wing = ""

        bare = dice_wing(systems.register(Bare()))  # no wing: the default one, which adds nothing
        assert type(bare) is Wing and bare.key == toy_system.KEY

    def test_gone_when_uninstalled(self):
        toy_system.install()()
        assert toy_system.KEY not in systems.available()
        assert "Flip" not in SYSTEM_TAGS
        assert (frozenset({"crown"}), "|y") not in display.MARK_STYLES
        assert "mark-crown" not in display.mark_css()


def names_the_toy(text):
    return re.search(r"\b(coin|toy_system)\b", text, re.IGNORECASE) is not None


def test_the_shared_files_the_toy_had_to_touch_none(db):
    """No file of the package or the game names the toy or imports it, and every part of the
    toy (its system, its wing, its commands, its help) is a module under tests/toy_system/.
    (`db`: Evennia's flat API, the toy's `from evennia import CmdSet`, is filled in by its
    initialisation, which comes with the test database.)"""
    from tests.toy_system import help as toy_help
    from tests.toy_system.system import SYSTEM
    from tests.toy_system.teamwork import RULES
    from tests.toy_system.wing import WING, CmdFlip

    touched = [str(path.relative_to(ROOT)) for folder in SHARED for path in sorted((ROOT / folder).rglob("*"))
               if path.suffix in (".py", ".html", ".css", ".js", ".md") and names_the_toy(path.read_text())]
    assert touched == []
    parts = (type(SYSTEM), type(SYSTEM.sheet), type(SYSTEM.extended), type(WING), WING.cmdset, CmdFlip, CmdContest,
             CmdTeamwork, type(RULES), toy_help)
    assert WING.teamwork is RULES and {type(cmd) for cmd in WING.cmdset().commands} == {CmdFlip, CmdContest,
                                                                                         CmdTeamwork}
    for part in parts:
        assert pathlib.Path(inspect.getfile(part)).resolve().parent == TOY, part


@override_settings(DICE_SYSTEM=toy_system.KEY)
class ToyTest(EvenniaCommandTest):
    """The toy installed and configured; Char has Luck 3 and Char2 Luck 2 (Nerve 3 each, the
    default)."""

    def setUp(self):
        self.addCleanup(toy_system.install())
        super().setUp()
        self.char1.set_trait("luck", 3)
        self.char2.set_trait("luck", 2)

    def do(self, cmd, args, faces=(), expected=None, **kwargs):
        """Run a command with exactly these coins (all must be used)."""
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd(), args, expected, **kwargs)
        self.assertEqual(source.remaining, [])
        return out

    def refused(self, cmd, args, message, caller=None):
        """One line saying what was wrong (wrapped as the client shows it), then the usage; nothing tossed."""
        out = self.do(cmd, args, [], caller=caller or self.char1)
        self.assertTrue(out.replace("\n  ", " ").startswith(message), out)
        self.assertIn("\nUsage: +", out)
        return out


class TestToyContest(ToyTest):
    """The shared challenge flow with the toy's rules: more heads wins, a tie is the defender's."""

    def challenge(self, args="luck vs Char2", expected=None):
        with mock.patch.object(shared_contest, "delay"):
            self.do(CmdContest, args, [], expected)
        return load_challenge(self.char1, OUTGOING)

    def test_challenge_and_answer(self):
        self.challenge(expected={self.char2: "[Contest] Char challenges Char2: Luck 3\n  Char2 answers with "
                                              "+contest/answer <pool> or +contest/decline (within 5"})
        expected = ("[Contest] Char vs Char2\n"
                    "  Char: Luck 3 (3 coins)\n"
                    "    Coins (d2): 2 2 1  =>  2 heads: success\n"
                    "  Char2: 2 (2 coins)\n"
                    "    Coins (d2): 2 2  =>  2 heads: success\n"
                    "  => Char2 wins, 2 to 2 (a tie: the defender's).")
        self.do(CmdContest, "/answer 2", [2, 2, 1, 2, 2], {self.char1: expected, self.char2: expected},
                caller=self.char2)
        entry = RollEntry.objects.get()
        self.assertEqual((entry.system, entry.kind, entry.verdict),
                         (toy_system.KEY, "contest", "Char2 wins, 2 to 2 (a tie: the defender's)."))
        self.assertEqual([side["label"] for side in entry.sides], ["Char", "Char2"])
        self.assertIsNone(load_challenge(self.char2, INCOMING))

    def test_the_challengers_side_is_read_again_when_answered(self):
        self.challenge()
        self.char1.set_trait("luck", 1)
        out = self.do(CmdContest, "/answer luck", [2, 1, 1], caller=self.char2)
        self.assertIn("  Char: Luck 1 (1 coins)\n", out)
        self.assertIn("  => Char wins, 1 to 0.", out)

    def test_refusals(self):
        self.refused(CmdContest, "luck vs Nobody", "There is no character called 'Nobody' here.")
        self.refused(CmdContest, "luck vs Char", "You cannot challenge yourself.")
        self.refused(CmdContest, "vs Char2", "Say what you roll before 'vs'.")
        self.refused(CmdContest, "/answer 2", "No one has challenged you.", caller=self.char2)
        self.challenge()
        self.refused(CmdContest, "luck vs Char2", "You already challenged Char2; wait for the answer or withdraw it "
                     "with +contest/cancel.")
        self.refused(CmdContest, "/answer", "Answer with your pool: +contest/answer <pool>.", caller=self.char2)
        self.assertIsNotNone(load_challenge(self.char2, INCOMING))

    def test_decline_and_cancel(self):
        self.challenge()
        self.do(CmdContest, "/decline", [], {self.char1: "[Contest] Char2 declines Char's challenge."},
                caller=self.char2)
        self.refused(CmdContest, "/answer 2", "No one has challenged you.", caller=self.char2)
        self.challenge()
        self.do(CmdContest, "/cancel", [], {self.char2: "[Contest] Char withdraws the challenge to Char2."})
        self.assertIsNone(load_challenge(self.char2, INCOMING))

    def test_private(self):
        self.challenge("/private luck vs Char2")
        out = self.do(CmdContest, "/answer 1", [1, 1, 1, 2], caller=self.char2)
        self.assertTrue(out.startswith("[Private contest] Char vs Char2\n"), out)
        self.assertIn("  => Char2 wins, 0 to 1.", out)
        self.assertIn("(private: shown to Char2, Char, staff)", out)
        self.assertTrue(RollEntry.objects.get().private)

    def test_odds(self):
        out = self.call(CmdOdds(), "/contest luck vs 2")
        self.assertEqual(out.split("\n"), [
            "[Contest odds] you: Luck 3 (3 coins)",
            "  vs they: 2 (2 coins)",
            "  you win (more heads)    50.0%",
            "  tie (they take it)      31.3%",
            "  they win (more heads)   18.7%",
            "  You win overall 50.0%; they win overall 50.0%.",
            "  Exact, by counting.",
        ])

    def test_the_challenge_is_rebuilt_from_the_store_after_a_restart(self):
        made = self.challenge()
        flush_cache()
        self.char1, self.char2 = (ObjectDB.objects.get(id=obj.id) for obj in (self.char1, self.char2))
        with mock.patch.object(shared_contest, "delay") as delay:
            shared_contest.restore_challenges()
        (_, _, restored), = [call.args for call in delay.call_args_list]
        self.assertEqual((restored.id, restored.pool, restored.key), (made.id, "luck", "+contest"))
        self.assertEqual(pending_lifecycle.pending_lines(self.char2)[0][:64],
                         "|w[Contest]|n Char's challenge to you is still open: answer with")
        out = self.do(CmdContest, "/answer 1", [2, 2, 2, 1], caller=self.char2)
        self.assertIn("  => Char wins, 3 to 0.", out)


class TestToyExtended(ToyTest):
    """The shared `+roll/extended` with the toy's rules: heads add up, a toss with no head is a
    slip that takes 1 off; `/lucky` is kept for every toss and each toss pays its Nerve."""

    def test_start_continue_status_stop(self):
        out = self.do(CmdRoll, "/extended luck to 4 # wall", [2, 2, 1], {self.char2: (
            "[Roll] Char starts an extended roll toward 4 (roll 1): Luck 3 (3 coins) # wall\n"
            "  Coins (d2): 2 2 1  =>  2 heads: success\n"
            "  Extended: 2/4 after 1 roll. [code ")})
        self.assertIn("Extended: 2/4 after 1 roll.", out)
        self.do(CmdRoll, "/extended", [1, 1, 1], "[Roll] Char continues an extended roll toward 4 (roll 2): "
                "Luck 3 (3 coins)\n  Coins (d2): 1 1 1  =>  0 heads: failure\n"
                "  Extended: 1/4 after 2 rolls (a slip takes 1 off; 1 slip).")
        self.call(CmdRoll(), "/status", "Your extended roll: luck toward 4: 1/4 after 2 rolls, 1 slip.")
        self.do(CmdRoll, "/extended", [2, 2, 2], "[Roll] Char continues an extended roll toward 4 (roll 3): "
                "Luck 3 (3 coins)\n  Coins (d2): 2 2 2  =>  3 heads: success\n"
                "  Extended: 4/4 after 3 rolls: complete (1 slip).")
        self.refused(CmdRoll, "/extended", "Your extended roll is complete (4/4); start a new one with "
                     "+roll/extended <pool> to <total>.")
        self.call(CmdRoll(), "/stop", "You stop your extended roll of luck toward 4: 4/4 after 3 rolls, 1 slip,\n"
                  "  complete.")
        self.assertIsNone(extended.load(self.char1))
        self.assertEqual(self.char1.trait("nerve"), 3)  # nothing lucky, nothing spent

    def test_the_shared_refusals(self):
        no_roll = "You have no extended roll: start one with +roll/extended <pool> to <total>."
        for args in ("/extended", "/status", "/stop"):
            self.refused(CmdRoll, args, no_roll)
        self.refused(CmdRoll, "/extended luck", "Say the total to reach: +roll/extended <pool> to <total>.")
        self.refused(CmdRoll, "/extended to 3", "Say what to roll before 'to'.")
        self.refused(CmdRoll, "/extended luck to 0", "An extended roll's target is a total of 1 to 100 successes.")
        self.refused(CmdRoll, "/extended luck to x", "The target total is a whole number of successes, not 'x'.")
        self.refused(CmdRoll, "/extended 3 to 4=Char2", "To show a roll only to some characters, roll privately")
        self.assertIsNone(extended.load(self.char1))
        self.do(CmdRoll, "/extended 2 to 9", [2, 1])
        self.refused(CmdRoll, "/extended 3 to 4", "You already have an extended roll going (2 toward 9: 1/9 after "
                     "1 roll); roll it with /extended or drop it with /stop.")
        self.refused(CmdRoll, "/extended/private", "This extended roll is public; /private only applies when "
                     "starting one.")
        self.refused(CmdRoll, "/status/stop", "Use /status or /stop, not both.")
        self.refused(CmdRoll, "/status 3", "/status and /stop take nothing after them.")
        self.refused(CmdRoll, "/stop/lucky", "/status and /stop take no other switch.")
        self.assertEqual(extended.load(self.char1).rolls, 1)

    def test_a_lasting_switch_paid_on_every_toss(self):
        self.do(CmdCheck, "/extended/lucky 2 to 5", [2, 1, 1])
        state = extended.load(self.char1)
        self.assertEqual((state.switches, state.numbers_only, state.pool), (("lucky",), True, "2"))
        self.assertEqual(self.char1.trait("nerve"), 2)
        self.do(CmdCheck, "/extended", [2, 2, 1], "[Roll] Char continues an extended roll toward 5 (roll 2): "
                "2 (3 coins)")
        self.assertEqual(self.char1.trait("nerve"), 1)
        self.char1.set_trait("nerve", 0)
        self.refused(CmdCheck, "/extended", "You have 0 Nerve left; that needs 1.")
        self.assertEqual(extended.load(self.char1).rolls, 2)

    def test_private_rolls_stay_private(self):
        self.do(CmdRoll, "/extended/private luck to 9", [2, 2, 2], {
            self.char1: "[Private roll] Char starts an extended roll toward 9 (roll 1)", self.char2: ""})
        self.do(CmdRoll, "/extended", [2, 2, 2], {
            self.char1: "[Private roll] Char continues an extended roll toward 9 (roll 2)", self.char2: ""})

    def test_kept_over_a_restart_and_told_on_connecting(self):
        self.do(CmdRoll, "/extended luck to 6", [2, 1, 1])
        self.assertTrue(self.char1.db_attributes.filter(db_key=extended.STATE, db_category=pending.PENDING).exists())
        self.char1.attributes.reset_cache()  # what a restart loses
        self.char1.nattributes.clear()
        self.assertEqual(pending_lifecycle.pending_lines(self.char1), [
            "Your extended roll is open: luck toward 6: 1/6 after 1 roll (+roll/extended rolls it again, "
            "+roll/stop drops it)."])
        self.do(CmdRoll, "/extended", [2, 2, 2], "[Roll] Char continues an extended roll toward 6 (roll 2)")
        self.assertEqual(extended.load(self.char1).total, 4)

    def test_a_damaged_state_is_refused_and_can_be_stopped(self):
        pending.save(self.char1, extended.STATE, {"pool": "luck"})
        self.refused(CmdRoll, "/extended", "The stored extended roll is damaged; stop it and start again.")
        self.call(CmdRoll(), "/stop", "You stop your damaged extended roll.")
        self.do(CmdRoll, "/extended luck to 2", [2, 2, 1])

    def test_the_record(self):
        self.do(CmdRoll, "/extended luck to 5", [2, 1, 1])
        entry = RollEntry.objects.get()
        self.assertEqual((entry.system, entry.kind, entry.score, entry.outcome),
                         (toy_system.KEY, "extended", 1, "success"))
        self.assertEqual(entry.data["extended"], {"target": 5, "total": 1, "rolls": 1, "complete": False})
        self.assertEqual(entry.summary, "1 head: success; extended 1 of 5")

    def test_a_system_without_extended_rolls_has_no_such_switch(self):
        from tests.toy_system.system import CoinSystem

        class Plain(CoinSystem):
            extended = None
            roll_switches = ()

        systems.register(Plain())
        out = self.do(CmdRoll, "/extended 3 to 4", [])
        self.assertTrue(out.startswith("Unknown switch /extended"), out)


class TestToyWillpower(ToyTest):
    """The toy's Willpower (Nerve) spent through the sheet: `/lucky` on a roll, a team toss."""

    def test_lucky_spends_a_point_once_the_roll_is_made(self):
        self.do(CmdRoll, "/lucky luck", [2, 1, 1, 1], "[Roll] Char rolls Luck 3 (4 coins)\n"
                "  Coins (d2): 2 1 1 1  =>  1 head: success")
        self.assertEqual(self.char1.trait("nerve"), 2)
        self.assertEqual(self.char1.willpower_left(), 2)

    def test_none_left_refuses_before_any_coin_is_tossed(self):
        self.char1.set_trait("nerve", 0)
        self.refused(CmdRoll, "/lucky luck", "You have 0 Nerve left; that needs 1.")
        with self.assertRaisesRegex(DiceError, "You have 0 Nerve left; that needs 1."):
            self.char1.spend_willpower()
        self.assertEqual((self.char1.trait("nerve"), RollEntry.objects.count()), (0, 0))


class TestToyTeamwork(ToyTest):
    """The shared `+teamwork` (open, join, roll) with the toy's rules: each member tosses their
    own pool, the heads add up, the leader spends 1 Nerve a toss."""

    def setUp(self):
        super().setUp()
        self.char1.set_trait("luck", 2)
        self.char2.set_trait("luck", 3)

    def test_open_join_roll_spends_the_leaders_willpower(self):
        self.do(CmdTeamwork, "luck # the rope", [], {self.char2: "[Teamwork] Char leads a teamwork roll: Luck 2"})
        self.do(CmdTeamwork, "/join Char=luck", [], {self.char1: "[Teamwork] Char2 tosses with Luck 3."},
                caller=self.char2)
        self.do(CmdTeamwork, "", [], "[Teamwork] Char leads: Luck 2\n  Char2 helps: Luck 3")
        expected = ("[Teamwork] Char's team toss\n  Char: Coins (d2): 2 1  =>  1 head\n"
                    "  Char2: Coins (d2): 2 2 1  =>  2 heads\n  => Total 3")
        self.do(CmdTeamwork, "/roll", [2, 1, 2, 2, 1], {self.char1: expected, self.char2: expected})
        self.assertEqual((self.char1.trait("nerve"), self.char2.trait("nerve")), (2, 3))
        entry = RollEntry.objects.get()
        self.assertEqual((entry.system, entry.kind, entry.score, entry.comment), (toy_system.KEY, "teamwork", 3,
                                                                                  "the rope"))
        self.assertEqual(entry.data["team"], ["Char", "Char2"])
        self.assertIsNone(teamwork.load_team(self.char1))
        self.assertIsNone(teamwork.helping(self.char2))

    def test_no_willpower_left_refuses_and_keeps_the_roll(self):
        self.char1.set_trait("nerve", 0)
        self.do(CmdTeamwork, "luck")
        self.do(CmdTeamwork, "/roll", [], "You have 0 Nerve left; that needs 1.")
        self.assertIsNotNone(teamwork.load_team(self.char1))
        self.assertEqual(self.char1.trait("nerve"), 0)

    def test_the_roll_is_kept_in_the_database_and_told_on_connecting(self):
        self.do(CmdTeamwork, "luck")
        self.do(CmdTeamwork, "/join Char=luck", caller=self.char2)
        stored = self.char1.attributes.get(teamwork.TEAM, category=pending.PENDING)
        self.assertEqual(stored["helpers"][0][0], self.char2)
        self.assertEqual(dice_wing().pending_lines(self.char2), [
            "|w[Teamwork]|n You still help Char's teamwork roll with Luck 3 (+teamwork/leave to stop)."])
        self.assertEqual(pending_lifecycle.pending_lines(self.char1), [
            "|w[Teamwork]|n Your teamwork roll is still open: Luck 2; 1 helper. "
            "+teamwork/roll or +teamwork/cancel it."])
        self.do(CmdTeamwork, "/cancel", [], {self.char2: "[Teamwork] Char cancels the teamwork roll."})
        self.assertIsNone(teamwork.load_team(self.char1))

    def test_one_at_a_time_is_the_shared_flows(self):
        self.do(CmdTeamwork, "luck")
        self.do(CmdTeamwork, "/join Char=luck", caller=self.char2)
        self.do(CmdTeamwork, "luck", [], "You help Char's teamwork roll: one at a time; +teamwork/leave it first.",
                caller=self.char2)
        self.do(CmdTeamwork, "/leave", [], "[Teamwork] Char2 stops helping Char's teamwork roll.", caller=self.char2)
