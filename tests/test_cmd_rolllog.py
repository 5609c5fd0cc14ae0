"""+roll/verify, +roll/private ...=names, and +rolls: what players and staff can see."""

import re
from unittest import mock

import pytest

from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from tests.table_helpers import Connected

from storyteller_dice.commands.dice_base import record_action
from storyteller_dice.commands.rolllog import CmdRolls
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules.randomness import FixedFaces, seeded

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

CODE = re.compile(r"\[code ([A-Z0-9]{8})\]")
NO_SUCH_ROLL = "There is no such roll."


class CommandLogBase(Connected, EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        # Char2 is a second player, online: "seen by" lists only connected characters.
        self.connect(self.account2, self.char2)
        # Char (account TestAccount) is a plain player here; staff is Char3 (Builder).
        self.char1.permissions.remove("Developer")
        self.account.permissions.remove("Developer")
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("hunger", 1)
        self.staff = create.create_object(self.character_typeclass, key="Storyteller",
                                          location=self.room1, home=self.room1)
        self.staff.permissions.add("Builder")
        self.outsider = create.create_object(self.character_typeclass, key="Stranger",
                                             location=self.room2, home=self.room2)

    def roll(self, args, faces, expected=None, caller=None, cmd=CmdRoll, **kwargs):
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd(), args, expected, caller=caller or self.char1, **kwargs)
        assert source.remaining == [], f"unused faces {source.remaining}"
        return out

    def code_of(self, text):
        found = CODE.findall(text)
        assert found, text
        return found[-1]

    def verify(self, code, caller, expected=None):
        return self.call(CmdRoll(), f"/verify {code}", expected, caller=caller)


class TestVerify(CommandLogBase):
    def test_every_roll_line_ends_with_its_code(self):
        out = self.roll("dex vs 2", [6, 7, 10])
        self.assertIn("=>  3 successes", out)
        self.assertRegex(out, r"\s\[code [A-Z0-9]{8}\]$")
        entry = RollEntry.objects.get()
        self.assertEqual(self.code_of(out), entry.code)
        self.assertEqual(entry.command, "+roll dex vs 2")

    def test_public_roll_verified_by_anyone_in_any_case(self):
        code = self.code_of(self.roll("dex vs 2 # sneaking", [6, 7, 10]))
        for viewer in (self.outsider, self.char2, self.staff):
            out = self.verify(code.lower(), viewer, f"[Verify] Roll {code} (roll, public)")
            self.assertIn("By: Char", out)
            self.assertIn("Typed: +roll dex vs 2 # sneaking", out)
            self.assertIn("[Roll] Char rolls Dexterity 3 (3 dice), Hunger 1, vs 2 # sneaking", out)
            self.assertIn(f"[code {code}]", out)
        # Only staff see the account behind the character.
        self.assertNotIn("TestAccount", self.verify(code, self.outsider))
        self.assertIn("By: Char (account TestAccount)", self.verify(code, self.staff))

    def test_private_roll_hidden_from_outsiders_exactly_like_a_missing_code(self):
        code = self.code_of(self.roll("/private dex vs 2", [6, 7, 10]))
        missing = "ZZZZ2222" if code != "ZZZZ2222" else "YYYY3333"
        hidden = self.verify(code, self.char2)
        nothing = self.verify(missing, self.char2)
        self.assertEqual(hidden, NO_SUCH_ROLL)
        self.assertEqual(hidden.encode(), nothing.encode())
        self.assertEqual(self.verify(code, self.outsider), NO_SUCH_ROLL)
        # Raw (with colour codes) too: the very same bytes.
        raw_hidden = self.call(CmdRoll(), f"/verify {code}", caller=self.char2, noansi=False)
        raw_missing = self.call(CmdRoll(), f"/verify {missing}", caller=self.char2, noansi=False)
        self.assertEqual(raw_hidden, raw_missing)
        # The roller and staff see it.
        self.verify(code, self.char1, f"[Verify] Roll {code} (roll, private)")
        self.verify(code, self.staff, f"[Verify] Roll {code} (roll, private)")

    def test_malformed_codes_get_the_same_answer(self):
        for typed in ("nope", "ABCD2O45", "ABCDEFGHJK"):
            self.assertEqual(self.verify(typed, self.char2), NO_SUCH_ROLL)

    def test_verify_needs_a_code(self):
        self.call(CmdRoll(), "/verify", "Give the code to verify: +roll/verify <code>.", caller=self.char2)

    def test_later_changes_are_listed_on_the_roll(self):
        code = self.code_of(self.roll("dex vs 2", [6, 7, 10]))
        change = record_action(self.staff, self.char1, "hunger", "Hunger 1 -> 2", parent=code,
                               private=False)
        out = self.verify(code, self.char2)
        self.assertIn(f"Later: hunger {change.code} (Storyteller for Char", out)
        out = self.verify(change.code, self.char2)
        self.assertIn(f"Changes roll {code}", out)


class TestPrivateShared(CommandLogBase):
    def test_shared_with_named_characters_in_the_room(self):
        out = self.roll("/private dex vs 2=char2", [6, 7, 10],
                        {self.char2: "[Private roll] Char rolls Dexterity 3 (3 dice), Hunger 1, vs 2"})
        self.assertIn("(private: shown to Char, Char2, staff) [code ", out)
        entry = RollEntry.objects.get()
        self.assertTrue(entry.private)
        self.assertEqual(entry.details["shared_with"], ["Char2"])
        self.assertEqual(entry.shown_ids(), {self.char1.id, self.char2.id})
        self.verify(entry.code, self.char2, f"[Verify] Roll {entry.code} (roll, private)")
        self.assertEqual(self.verify(entry.code, self.outsider), NO_SUCH_ROLL)

    def test_a_named_character_not_connected_is_not_shown_and_the_roller_is_told(self):
        telly = create.create_object(self.character_typeclass, key="Telly", location=self.room1, home=self.room1)
        telly.msg = mock.Mock()
        out = self.roll("/private 3=Char2, Telly", [6, 7, 10], cmd=CmdCheck)
        entry = RollEntry.objects.get()
        self.assertEqual(out, "[Private roll] Char checks 3 dice, Hunger 1\n"
                              "  Dice: 6 7  Hunger: 10  =>  3 successes: success\n"
                              f"  (private: shown to Char, Char2, staff) [code {entry.code}]\n"
                              "Not shown to Telly (not connected).")
        telly.msg.assert_not_called()
        del telly.msg
        self.assertEqual(entry.shown_ids(), {self.char1.id, self.char2.id})
        self.assertEqual(entry.details["shared_with"], ["Char2", "Telly"])  # named, not seen
        self.assertEqual(self.verify(entry.code, telly), NO_SUCH_ROLL)
        self.assertIn("  Audience: private: shown to Char, Char2\n",
                      self.verify(entry.code, self.char2, f"[Verify] Roll {entry.code} (check, private)") + "\n")

    def test_several_not_connected_are_named_in_one_line(self):
        away = [create.create_object(self.character_typeclass, key=key, location=self.room1, home=self.room1)
                for key in ("Telly", "Ozzy", "Pim")]
        out = self.roll("/private 2=Telly, Ozzy, Pim", [6, 7], cmd=CmdCheck, noansi=True)
        self.assertIn("(private: shown to Char, staff)", out)
        self.assertTrue(out.endswith("\nNot shown to Telly, Ozzy and Pim (not connected)."), out)
        self.assertEqual(RollEntry.objects.get().shown_ids(), {self.char1.id})
        self.assertEqual(away[0].location, self.room1)

    def test_comment_after_names_and_equals_in_comments(self):
        out = self.roll("/private dex vs 2 = Char2 # who lies?", [6, 7, 10])
        self.assertIn("vs 2 # who lies?", out)
        self.assertIn("(private: shown to Char, Char2, staff)", out)
        out = self.roll("dex # a=b", [6, 7, 10])
        self.assertIn("# a=b", out)
        self.assertFalse(RollEntry.objects.latest("id").private)

    def test_check_can_be_shared_too(self):
        out = self.roll("/private 2=Char2", [6, 7], cmd=CmdCheck)
        self.assertIn("(private: shown to Char, Char2, staff)", out)

    def test_naming_yourself_is_ignored(self):
        out = self.roll("/private dex=Char, char2", [6, 7, 10])
        self.assertIn("(private: shown to Char, Char2, staff)", out)

    def test_refusals_roll_nothing(self):
        cases = {
            "/private dex=Stranger": "There is no character called 'Stranger' here.",
            "/private dex=Nobody": "There is no character called 'Nobody' here.",
            "/private dex=": "Name the characters to share the roll with after '='.",
            "/private dex=Char2,,": "A name is missing in the list after '=' (names are separated by commas).",
            "dex=Char2": "To show a roll only to some characters, roll privately: "
                         "+roll/private <pool>=<name>, <name>.",
        }
        for args, expected in cases.items():
            out = self.roll(args, [])
            # The refusal (wrapped at 80), then the usage on a line of its own.
            self.assertIn(expected, " ".join(out.split()))
            self.assertTrue(out.splitlines()[-1].startswith("Usage: +roll"), out)
        self.assertEqual(RollEntry.objects.count(), 0)


class TestRollsCommand(CommandLogBase):
    def test_staff_pages_newest_first(self):
        for _ in range(20):
            self.roll("1", [6], cmd=CmdCheck)
        codes = list(RollEntry.objects.order_by("-id").values_list("code", flat=True))
        out = self.call(CmdRolls(), "", "Roll log: page 1 of 2 (20 entries, newest first, times UTC)",
                        caller=self.staff)
        lines = out.splitlines()
        # Two lines an entry: code, when, kind, who and where; then what.
        self.assertEqual([line[:8] for line in lines[1:31:2]], codes[:15])
        self.assertRegex(lines[1], r"^[A-Z0-9]{8}  \d\d-\d\d \d\d:\d\d  check      Char, in Room$")
        self.assertEqual(lines[2], "    1 die, Hunger 1 => 1 success: success")
        self.assertEqual(lines[-1], "Next page: +rolls=2")
        out = self.call(CmdRolls(), "=2", "Roll log: page 2 of 2", caller=self.staff)
        self.assertEqual([line[:8] for line in out.splitlines()[1::2]], codes[15:])

    def test_staff_filters(self):
        self.roll("dex", [6, 7, 10])
        self.roll("/private dex", [6, 7, 10])
        self.char2.set_trait("hunger", 0)
        self.roll("1", [6], caller=self.char2, cmd=CmdCheck)
        self.assertIn("(3 entries", self.call(CmdRolls(), "", caller=self.staff))
        out = self.call(CmdRolls(), "char2", "Roll log (Char2): page 1 of 1 (1 entries", caller=self.staff)
        self.assertIn("check", out)
        out = self.call(CmdRolls(), "/private", "Roll log (private): page 1 of 1 (1 entries",
                        caller=self.staff)
        self.assertIn("(private)", out)
        self.call(CmdRolls(), "/here", "Roll log (in Room): page 1 of 1 (3 entries", caller=self.staff)
        self.staff.location = self.room2
        self.call(CmdRolls(), "/here", "Roll log (in Room2): nothing on the log.", caller=self.staff)
        self.call(CmdRolls(), "/mine", "Roll log (yours): nothing on the log.", caller=self.staff)

    def test_staff_actions_are_on_the_log(self):
        record_action(self.staff, self.char1, "hunger", "Hunger 1 -> 3")
        out = self.call(CmdRolls(), "char", caller=self.staff)
        self.assertIn("Storyteller for Char", out)
        self.assertIn("Hunger 1 -> 3", out)
        # ... and the player sees what was done to them.
        self.assertIn("Hunger 1 -> 3", self.call(CmdRolls(), "/mine", caller=self.char1))

    def test_players_see_their_own(self):
        self.roll("dex", [6, 7, 10])
        self.char2.set_trait("hunger", 0)
        self.roll("1", [6], caller=self.char2, cmd=CmdCheck)
        for args in ("", "/mine"):
            out = self.call(CmdRolls(), args, "Roll log (yours): page 1 of 1 (1 entries", caller=self.char2)
            self.assertIn("Char2", out)
            self.assertNotIn("Dexterity", out)

    def test_refusals(self):
        self.call(CmdRolls(), "char",
                  "Only staff can look at other characters' rolls; +rolls/mine shows yours.\nUsage: +rolls",
                  caller=self.char2)
        self.call(CmdRolls(), "=two", "The page must be a whole number from 1, not 'two'.\nUsage: +rolls",
                  caller=self.staff)
        self.call(CmdRolls(), "Nobody", "There is no character called 'Nobody'.\nUsage: +rolls",
                  caller=self.staff)
        self.call(CmdRolls(), "/mine char", "Use /mine or name a character, not both.", caller=self.staff)

    def test_a_deleted_character_is_still_found_by_name(self):
        self.outsider.location = self.room1
        self.roll("1", [6], caller=self.outsider, cmd=CmdCheck)
        self.outsider.delete()
        out = self.call(CmdRolls(), "stranger", "Roll log (Stranger): page 1 of 1 (1 entries",
                        caller=self.staff)
        self.assertIn("Stranger", out)


def visible(line):
    from storyteller_dice.rules.display import visible_len

    return visible_len(line)


class TestEightyColumns(CommandLogBase):
    """No line of +rolls or +roll/verify is wider than 80 columns, whatever was rolled."""

    def test_long_rolls_fit(self):
        self.char1.set_trait("stealth", 2)
        long_comment = "a very long comment that goes on " * 8
        out = self.roll(f"dex+stealth+3+2+1 vs 3 # {long_comment}", [6, 7, 10, 1, 2, 3, 4, 5, 9, 8, 8])
        code = self.code_of(out)
        self.roll("/private dex=char2 # " + "x" * 150, [6, 7, 10])
        record_action(self.staff, self.char1, "hunger", "Hunger set to 4 (was 1) " + "because " * 20)
        for caller, args in ((self.staff, ""), (self.char1, "/mine")):
            listing = self.call(CmdRolls(), args, caller=caller, noansi=False)
            for line in listing.splitlines():
                self.assertLessEqual(visible(line), 80, line)
        for viewer in (self.staff, self.char2):
            shown = self.call(CmdRoll(), f"/verify {code}", caller=viewer, noansi=False)
            self.assertGreater(len(shown.splitlines()), 4)
            for line in shown.splitlines():
                self.assertLessEqual(visible(line), 80, line)
            self.assertIn(f"[code {code}]", shown)

    def test_a_narrow_client_gets_narrower_lines(self):
        from storyteller_dice.commands import rolllog as cmd_rolllog

        self.roll("dex vs 2 # " + "word " * 30, [6, 7, 10])
        with mock.patch.object(cmd_rolllog, "screen_width", return_value=50):
            listing = self.call(CmdRolls(), "", caller=self.staff, noansi=False)
        self.assertTrue(all(visible(line) <= 50 for line in listing.splitlines()), listing)

    def test_a_long_list_goes_through_the_pager(self):
        from storyteller_dice.commands import rolllog as cmd_rolllog

        for _ in range(3):
            self.roll("1", [6], cmd=CmdCheck)
        with mock.patch.object(cmd_rolllog, "_flag", return_value=8), \
                mock.patch.object(cmd_rolllog.pager, "msg") as paged:
            cmd_rolllog.send_paged(self.char1, "\n".join(str(n) for n in range(20)))
        paged.assert_called_once()
        with mock.patch.object(cmd_rolllog.pager, "msg") as paged:
            cmd_rolllog.send_paged(self.char1, "short")
        paged.assert_not_called()


class TestContestEntry(CommandLogBase):
    """A contest on the log: each side apart, the verdict as the room saw it (not reversed)."""

    def store(self):
        import dataclasses

        from storyteller_dice.commands.dice_base import announce
        from storyteller_dice.rules import v5
        from storyteller_dice.rules.engine import RollRequest
        from storyteller_dice.rules.v5.system import SYSTEM

        def side(regular, hunger, needs):
            result = v5.evaluate(regular, hunger, needs)
            view = SYSTEM.view(result, RollRequest("v5", "", None, 5, needs, target_given=False))
            return dataclasses.replace(view, pool="5 (5 dice), Hunger 2")

        char, char2 = side((10, 7, 3), (10, 3), 5), side((6, 7, 8), (9, 1), 5)
        record = {
            "kind": "contest", "command": "+contest/answer 5", "subject": self.char1, "view": char,
            "sides": [{"label": "Char", "view": char}, {"label": "Char2", "view": char2}],
            "verdict": "Char wins by 1 (5 to 4).",
        }
        return announce(self.char2, "|w[Contest]|n Char vs Char2\n  => |wChar|n wins by 1 (5 to 4).",
                        record=record).entry

    def test_listed_with_both_sides_and_the_verdict(self):
        entry = self.store()
        out = self.call(CmdRolls(), "", caller=self.staff)
        lines = out.splitlines()
        self.assertRegex(lines[1], rf"^{entry.code}  \d\d-\d\d \d\d:\d\d  contest    Char vs Char2, in Room$")
        self.assertEqual(lines[2], "    Char 5 (messy critical), Char2 4 (bestial failure): Char wins by 1 (5 to 4).")

    def test_verified_with_sides_and_who_typed_it(self):
        entry = self.store()
        out = self.verify(entry.code, self.char2)
        self.assertIn("  Sides: Char vs Char2", out)
        self.assertIn("  By: Char2", out)
        self.assertNotIn("Char2 for Char", out)
        self.assertIn("=> Char wins by 1 (5 to 4).", out)

    def test_without_stored_text_each_side_is_shown_apart(self):
        from storyteller_dice.rolllog import display

        entry = self.store()
        entry.text = ""
        shown = display.format_verify(entry, self.staff).splitlines()
        self.assertIn("  Char: 5 (5 dice), Hunger 2", shown)
        self.assertIn("    Dice: 10 7 3  Hunger: 10 3  =>  5 successes: messy critical", shown)
        self.assertIn("  Char2: 5 (5 dice), Hunger 2", shown)
        self.assertIn("    Dice: 6 7 8  Hunger: 9 1  =>  4 successes: bestial failure", shown)
        self.assertEqual(shown[-1], f"  => Char wins by 1 (5 to 4).  [code {entry.code}]")
