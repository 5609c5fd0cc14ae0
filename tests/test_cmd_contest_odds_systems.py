"""
+odds/contest under V20, Seyruun and The Dice Check (each wing's own syntax), and its refusal
under Whalefall: exact output, the figures those of the rules (tests/rules/test_systems_contest_odds.py
checks them against icepool and the game's own scoring), the access rule for a named character,
bad input refused with the usage and never a traceback.

char1 is staff (Developer), char2 a plain player (account2); both in room1. The small pools'
figures are worked out by hand in the comments.
"""

from fractions import Fraction

from django.test import override_settings
from evennia.utils import create
from evennia.utils.ansi import strip_ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.rules.dicecheck import contest_odds as dicecheck_contest_odds
from storyteller_dice.rules.seyruun import contest_odds as seyruun_contest_odds
from storyteller_dice.rules.v20 import contest_odds as v20_contest_odds
from storyteller_dice.rules.display import visible_len
from storyteller_dice.rules.seyruun.system import SYSTEM as SEYRUUN_SYSTEM
from storyteller_dice.rules.v20.system import SYSTEM as V20_SYSTEM


class ContestOddsTest(EvenniaCommandTest):
    def odds(self, args, caller=None):
        return strip_ansi(self.call(CmdOdds(), args, caller=caller or self.char1))

    def refused(self, args, message, usage, caller=None):
        """The message (wrapping undone), then the usage on a line of its own."""
        out = self.odds(args, caller=caller)
        text, _, shown_usage = out.partition("\nUsage: ")
        self.assertEqual(" ".join(text.split()), message, out)
        self.assertEqual(" ".join(shown_usage.split()), usage, out)
        self.assertNotIn("Traceback", out)

    def alt_of_char2(self):
        """A second character of char2's player (account2)."""
        alt = create.create_object(self.character_typeclass, key="Alt", location=self.room1, home=self.room1)
        alt.db_account = self.account2
        alt.save()
        return alt

    def assert_fits(self, text, width):
        wide = [line for line in text.split("\n") if visible_len(line) > width]
        self.assertEqual(wide, [], text)


# ---------------------------------------------------------------- V20

V20_USAGE = "+odds/contest <pool> [vs <diff>] = [<character>:] <pool> [vs <diff>]"
V20_NOTE = ("  Exact, by counting; a botch is 0 net successes here, and the winner keeps its\n"
            "    net minus the other's.")


@override_settings(DICE_SYSTEM="v20")
class TestV20(ContestOddsTest):
    def setUp(self):
        super().setUp()
        self.char1.key = "Anna"
        self.char1.save()
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("brawl", 2)
        self.char2.set_trait("dexterity", 2)
        self.char2.set_trait("athletics", 3)

    def test_one_die_against_one_die(self):
        # Each die at 6: 6-10 is a net of 1 (5/10), 2-5 is 0 (4/10), a 1 is 0 and a botch (1/10).
        self.assertEqual(self.odds("/contest 1 vs 6 = 1 vs 6"),
                         "[Contest odds] you: 1 die, difficulty 6\n"
                         "  vs 1 die, difficulty 6\n"
                         "  you win (more net successes)    25.0%\n"
                         "  tie (equal nets: nobody wins)   50.0%\n"
                         "  they win (more net successes)   25.0%\n"
                         "              you      they\n"
                         "  botch     10.0%     10.0%\n" + V20_NOTE)

    def test_a_character_side_is_their_sheet_wounds_and_all(self):
        self.char2.set_trait("health lethal", 2)  # Hurt: -1 die
        out = self.odds("/contest dex+brawl = Char2: dex+athletics vs 7")
        figures = v20_contest_odds.contest_odds((5, 6), (4, 7))
        self.assertEqual((figures["first_wins"], figures["tie"]),
                         (Fraction(694689, 1250000), Fraction(255561, 1250000)))
        self.assertEqual(out,
                         "[Contest odds] you: Dexterity 3 + Brawl 2 = 5 dice, difficulty 6\n"
                         "  vs Char2: Dexterity 2 + Athletics 3 - 1 Hurt = 4 dice, difficulty 7\n"
                         "  Char2: Hurt: -1 die\n"
                         "  you win (more net successes)      55.6%\n"
                         "  tie (equal nets: nobody wins)     20.4%\n"
                         "  Char2 wins (more net successes)   24.0%\n"
                         "              you     Char2\n"
                         "  botch      5.2%      9.3%\n" + V20_NOTE)

    def test_a_character_alone_rolls_the_first_sides_pool(self):
        out = self.odds("/contest dex+brawl vs 7 = Char2")
        self.assertIn("  vs Char2: Dexterity 2 + Brawl 0 = 2 dice, difficulty 7\n"
                      "  Char2: untrained Talent Brawl: the Attribute alone, no penalty\n", out)
        figures = v20_contest_odds.contest_odds((5, 7), (2, 7))
        self.assertIn(f"  you win (more net successes)      {percent_cell(figures, 'first_wins', V20_ROWS)}\n", out)

    def test_both_sides_named_as_contest_writes_them(self):
        out = self.odds("/contest Anna: dex+brawl(grappling) vs 5 = Char2: dex+athletics")
        self.assertIn("You have no Brawl Specialty.", out)  # Anna's own sheet, as +contest reads it
        self.char1.add_specialty("brawl", "Grappling")
        out = self.odds("/contest Anna: dex+brawl(grappling) vs 5 = Char2: dex+athletics")
        self.assertTrue(out.startswith(
            "[Contest odds] Anna: Dexterity 3 + Brawl 2 (Grappling) = 5 dice, difficulty 5\n"
            "  vs Char2: Dexterity 2 + Athletics 3 = 5 dice, difficulty 6\n"
            "  Anna: Specialty (Grappling): 10s count twice\n"
            "  Anna wins (more net successes)  "), out)
        figures = v20_contest_odds.contest_odds((5, 5, True), (5, 6))
        self.assertIn(row("Char2 wins (more net successes)", 31, percent_cell(figures, 'second_wins', V20_ROWS)), out)

    def test_vs_character_staff_or_owner_only(self):
        self.refused("/contest dex = Anna: dex",
                     "Only staff may read another player's character for contest odds; give their pool as a "
                     "number of dice instead.", V20_USAGE, caller=self.char2)
        self.refused("/contest Anna: dex = 3",
                     "Only staff may read another player's character for contest odds; give their pool as a "
                     "number of dice instead.", V20_USAGE, caller=self.char2)
        alt = self.alt_of_char2()
        alt.set_trait("dexterity", 4)
        out = self.odds("/contest dex = Alt: dex", caller=self.char2)
        self.assertIn("  vs Alt: Dexterity 4 = 4 dice, difficulty 6\n", out)

    def test_refusals(self):
        self.refused("/contest dex+brawl", "Put '=' between the two sides: <pool> [vs <diff>] = <dice or character> "
                     "[vs <diff>].", V20_USAGE)
        self.refused("/contest dex = 51", "Their side: That pool is 51 dice; pools are limited to 50.", V20_USAGE)
        self.refused("/contest dex = 3 vs 11", "Their side: Difficulty is a number from 2 to 10, not 11.", V20_USAGE)
        self.refused("/contest dex = dex", "There is no character called 'dex'. The other side is a number of dice "
                     "(= 5 vs 7) or a character (= <name>: <pool> [vs <diff>]).", V20_USAGE)
        self.refused("/contest dex = Anna", "A resisted action needs two different characters.", V20_USAGE)
        self.refused("/contest/spec dex = 3", "+odds/contest takes no other switch (/spec): it counts the contest "
                     "as +contest rolls it.", V20_USAGE)
        self.refused("/contest : dex = 3", "Write a named side as <character>: <pool> [vs <diff>].", V20_USAGE)
        self.char2.set_trait("health lethal", 7)
        self.refused("/contest dex = Char2: dex", "Char2's side: An Incapacitated character cannot act.", V20_USAGE)

    def test_help_and_width(self):
        help_text = CmdOdds().get_help(self.char1, None)
        self.assertIn("+odds/contest <pool> [vs <diff>] = <dice> [vs <diff>]", help_text)
        from storyteller_dice.commands.v20.contest_odds import contest_sides, format_odds

        class Cmd:
            caller, args, switches = self.char1, "dex+brawl vs 6 = Char2: dex+athletics vs 7", ["contest"]
            system = V20_SYSTEM

        first, second = contest_sides(Cmd())
        figures = v20_contest_odds.contest_odds((5, 6), (5, 7))
        self.assert_fits(format_odds(first, second, figures, width=40), 40)


V20_ROWS = ("first_wins", "tie", "second_wins")


def row(label, width, cell):
    """One line of the outcome table: the label padded to `width`, the cell right-aligned in 6."""
    return f"  {label:<{width}}  {cell:>6}"


def percent_cell(figures, key, rows):
    """The cell the table shows for `key`: its share of the three rows, in tenths (summing to 100.0%)."""
    from storyteller_dice.rules.display import shares

    count = shares([figures[row] for row in rows])[rows.index(key)]
    return f"{count // 10}.{count % 10}%"


# ---------------------------------------------------------------- Seyruun

SEYRUUN_USAGE = "+odds/contest <your pool> vs <their pool>[=<character>] or vs <character>"
SEYRUUN_ROWS = ("attacker_wins", "tie", "defender_wins")


@override_settings(DICE_SYSTEM="seyruun")
class TestSeyruun(ContestOddsTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("stealth", 2)
        self.char2.set_trait("dexterity", 4)
        self.char2.set_trait("stealth", 1)

    def test_chance_die_against_one_die(self):
        # Chance die: 1 success on a 10 (1/10). One die: 6-9 one (4/10), 10 two (1/10). You win
        # 1/10 x 5/10; a tie 9/10 x 5/10 + 1/10 x 4/10; base Attributes 1 and 1: theirs.
        self.assertEqual(self.odds("/contest 0 vs 1"),
                         "[Contest odds] you: 0: a chance die (base Attribute 1)\n"
                         "  vs 1 die (base Attribute 1)\n"
                         "  you: chance die: 10 succeeds, 1 is a dramatic botch\n"
                         "  you win (more successes)                     5.0%\n"
                         "  tie (they take it: base Attribute 1 to 1)   49.0%\n"
                         "  they win (more successes)                   46.0%\n"
                         "  You win overall 5.0%; they win overall 95.0%.\n"
                         "              you      they\n"
                         "  botch     10.0%     10.0%\n"
                         "  A chance die's botch (a 1) is a dramatic botch.\n"
                         "  Exact, by counting; a tie goes to the defender unless your base Attribute is\n"
                         "    higher.")

    def test_the_tie_is_yours_with_the_higher_base_attribute(self):
        out = self.odds("/contest dex+stealth vs 2+3")
        figures = seyruun_contest_odds.contest_odds(5, 5, 3, 2)
        self.assertEqual(out.split("\n")[:6], [
            "[Contest odds] you: Dexterity 3 + Stealth 2 = 5 dice (base Attribute 3)",
            "  vs 2 + 3 = 5 dice (base Attribute 2)",
            row("you win (more successes)", 40, percent_cell(figures, 'attacker_wins', SEYRUUN_ROWS)),
            row("tie (you take it: base Attribute 3 to 2)", 40, percent_cell(figures, 'tie', SEYRUUN_ROWS)),
            row("they win (more successes)", 40, percent_cell(figures, 'defender_wins', SEYRUUN_ROWS)),
            "  You win overall 59.4%; they win overall 40.6%.",
        ])
        self.assertEqual(figures["attacker_wins_overall"], figures["attacker_wins"] + figures["tie"])

    def test_a_character_rolls_their_pool_or_yours(self):
        # Their Dexterity 4 beats your 3: the tie is theirs.
        for args in ("/contest dex+stealth vs dex+stealth=Char2", "/contest dex+stealth vs Char2"):
            out = self.odds(args)
            self.assertIn("  vs Char2: Dexterity 4 + Stealth 1 = 5 dice (base Attribute 4)\n", out)
            self.assertIn("  tie (Char2 takes it: base Attribute 3 to 4)   ", out)
            self.assertIn("  You win overall 40.6%; Char2 wins overall 59.4%.\n", out)
        self.char2.set_trait("wound", 1)
        out = self.odds("/contest dex+stealth vs dex=Char2")
        self.assertIn("vs Char2: Dexterity 4 - untrained 1 - Light wound 1 = 2 dice (base Attribute 4) "
                      "Char2: untrained: -1 die; Light wound: -1 die", " ".join(out.split()))

    def test_vs_character_staff_or_owner_only(self):
        message = ("Only staff may read another player's character for contest odds; give their pool as numbers "
                   "(vs 3+2) instead.")
        self.refused("/contest dex vs Char", message, SEYRUUN_USAGE, caller=self.char2)
        self.refused("/contest dex vs dex=Char", message, SEYRUUN_USAGE, caller=self.char2)
        alt = self.alt_of_char2()
        alt.set_trait("dexterity", 2)
        out = self.odds("/contest dex vs Alt", caller=self.char2)
        self.assertIn("  vs Alt: Dexterity 2 - untrained 1 = 1 die (base Attribute 2)\n", out)

    def test_refusals(self):
        self.refused("/contest dex+stealth", "Say both sides: your pool, 'vs', then theirs (numbers like 3+2, or a "
                     "character).", SEYRUUN_USAGE)
        self.refused("/contest dex+stealth vs 3 vs 2", "A contest has no difficulty: each side's successes are "
                     "compared. Put one pool on each side of 'vs'.", SEYRUUN_USAGE)
        self.refused("/contest dex vs 51", "Their side: That pool is 51 dice; pools are limited to 50.", SEYRUUN_USAGE)
        self.refused("/contest dex vs 3+x", "Their side: 'x' is a trait name; only numbers can be used here.",
                     SEYRUUN_USAGE)
        self.refused("/contest dex+stealth vs dex", "There is no character called 'dex'. Their side is a pool of "
                     "numbers (vs 3+2), a character's pool (vs dex+stealth=<name>) or a character (vs <name>).",
                     SEYRUUN_USAGE)
        self.refused("/contest dex vs 3=", "Name the character after '='.", SEYRUUN_USAGE)
        self.refused("/contest/willpower dex vs 3", "+odds/contest takes no other switch (/willpower): it counts the "
                     "contest as +contest rolls it.", SEYRUUN_USAGE)
        self.refused("/contest dex vs dominate=Char2", "Char2's side: A Seyruun pool starts from an Attribute: add "
                     "one to Dominate (e.g. dex+stealth).", SEYRUUN_USAGE)
        self.refused("/contest dex vs cha+dominate=Char2", "Char2's side: You have no dots in Dominate, so you cannot "
                     "use it.", SEYRUUN_USAGE)

    def test_help_and_width(self):
        help_text = CmdOdds().get_help(self.char1, None)
        self.assertIn("+odds/contest <your pool> vs <their pool>[=<character>]", help_text)
        from storyteller_dice.commands.seyruun.contest_odds import contest_sides, format_odds

        class Cmd:
            caller, args, switches = self.char1, "dex+stealth/willpower vs 14+2", ["contest"]
            system = SEYRUUN_SYSTEM

        mine, theirs, character = contest_sides(Cmd())
        figures = seyruun_contest_odds.contest_odds(mine.dice, theirs.dice, 3, 14)
        self.assert_fits(format_odds(mine, theirs, character, figures, width=40), 40)


# ---------------------------------------------------------------- The Dice Check

DICECHECK_USAGE = "+odds/contest <pool>:<their pool> <character> or <pool>:<dice>d(<X>+)"


@override_settings(DICE_SYSTEM="dicecheck")
class TestDiceCheck(ContestOddsTest):
    def test_strength_1_against_strength_1(self):
        # 1d(10+) each: a Hit 1/10. You win 1/10 x 9/10, they win the same; a tie 82/100 is yours.
        self.assertEqual(self.odds("/contest STR:STR Char2"),
                         "[Contest odds] you: Strength 1 = 1d(10+)\n"
                         "  vs Char2: Strength 1 = 1d(10+)\n"
                         "  you win (more hits)       9.0%\n"
                         "  tie (you take it)        82.0%\n"
                         "  Char2 wins (more hits)    9.0%\n"
                         "  You succeed overall 91.0% (your Hits at least theirs); Char2 wins overall\n"
                         "    9.0%.\n"
                         "  Your big botch (Char2 has 3 or more Hits more): 0.0%.\n"
                         "  You succeed by Degree of Success: DoS 1 91.0%.\n"
                         "  Exact, by counting; their Hits are your TN, so a tie is yours.")

    def test_against_dice_and_a_focus(self):
        self.char1.set_trait("strength", 4)
        self.char1.set_trait("athletics", 2)
        self.char1.add_specialty("athletics", "Grapple")
        out = self.odds("/contest Athletics (Grapple):12d(6+)")
        figures = dicecheck_contest_odds.contest_odds(7, 7, 12, 6)
        rows = ("active_wins", "tie", "other_wins")
        self.assertEqual(out.split("\n")[:5], [
            "[Contest odds] you: Strength 4 + Athletics 2 + Grapple 1 = 7d(7+)",
            "  vs 12d(6+)",
            row("you win (more hits)", 20, percent_cell(figures, 'active_wins', rows)),
            row("tie (you take it)", 20, percent_cell(figures, 'tie', rows)),
            row("they win (more hits)", 20, percent_cell(figures, 'other_wins', rows)),
        ])
        # A number on the right is that many dice at 6+, never a TN.
        self.assertIn("  vs 3d(6+)\n", self.odds("/contest STR:3"))

    def test_their_focus_counts_only_if_they_have_it(self):
        self.char2.set_trait("strength", 2)
        self.char2.set_trait("athletics", 1)
        out = self.odds("/contest STR:Athletics (Grapple) Char2")
        self.assertIn("  vs Char2: Strength 2 + Athletics 1 = 3d(9+)\n", out)

    def test_vs_character_staff_or_owner_only(self):
        self.refused("/contest STR:STR Char", "Only staff may read another player's character for contest odds; "
                     "give their pool as dice (12d(6+)) instead.", DICECHECK_USAGE, caller=self.char2)
        alt = self.alt_of_char2()
        alt.set_trait("strength", 5)
        self.assertIn("  vs Alt: Strength 5 = 5d(6+)\n", self.odds("/contest STR:STR Alt", caller=self.char2))

    def test_refusals(self):
        self.refused("/contest STR:EVA Char2", "A contest is against their pool, not their Evasion: like STR:STR "
                     "<name> or Swords (Cut):12d(6+) (plain +odds checks against a defence).", DICECHECK_USAGE)
        self.refused("/contest STR:STR", "Name whose STR you roll against: STR:STR <name>, or give their dice, like "
                     "STR:12d(6+).", DICECHECK_USAGE)
        self.refused("/contest STR:3 Char2", "Their dice (3) belong to no one: drop 'Char2'.", DICECHECK_USAGE)
        self.refused("/contest STR", "Write a contest as <your pool>:<their pool> with one colon, like STR:STR "
                     "<name> or Swords (Cut):12d(6+).", DICECHECK_USAGE)
        self.refused("/contest STR:STR Nobody", "There is no character called 'Nobody'.", DICECHECK_USAGE)
        self.refused("/contest STR:51d(6+)", "That pool is 51 dice; pools are limited to 50.", DICECHECK_USAGE)
        self.refused("/contest/damage STR:3", "+odds/contest takes no other switch (/damage): it counts the contest "
                     "as an opposed +roll rolls it.", DICECHECK_USAGE)

    def test_help(self):
        self.assertIn("+odds/contest <pool>:<their pool> <character>", CmdOdds().get_help(self.char1, None))


# ---------------------------------------------------------------- Whalefall


@override_settings(DICE_SYSTEM="whalefall")
class TestWhalefall(ContestOddsTest):
    def test_there_is_no_contest(self):
        self.refused("/contest 4 vs 3", "Whalefall has no contests: every check is against a target number, like "
                     "+odds athletics vs (5,2).", "+odds <skill>[+/-<n>] [d<sides>] vs (<face>,<count>)")
