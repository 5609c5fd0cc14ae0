"""+odds/contest (V5): exact contest chances, equal to rules.v5.contest_odds and to icepool."""

from fractions import Fraction

from evennia.utils.ansi import strip_ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds, percent
from storyteller_dice.commands.v5.contest_odds import format_contest
from storyteller_dice.rules.display import shares
from storyteller_dice.rules.v5.contest_odds import contest_odds
from storyteller_dice.rules.v5.system import SYSTEM


def split_cells(figures):
    return [f"{w}.{t}%" for w, t in (divmod(c, 10) for c in
                                     shares([figures["attacker_wins"], figures["tie"], figures["defender_wins"]]))]


class TestContestOdds(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("stealth", 2)
        self.char1.set_trait("hunger", 1)

    def test_dex_stealth_vs_6_hunger_2(self):
        out = strip_ansi(self.call(CmdOdds(), "/contest dex+stealth vs 6 hunger 2"))
        figures = contest_odds(5, 1, 6, 2)
        lines = out.split("\n")
        self.assertEqual(lines[0], "[Contest odds] you: Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 1")
        self.assertEqual(lines[1], "  vs 6 dice, Hunger 2")
        win, tie, lose = split_cells(figures)
        self.assertEqual(lines[2], f"  you win (more successes)   {win:>6}")
        self.assertEqual(lines[3], f"  tie (they take it)         {tie:>6}")
        self.assertEqual(lines[4], f"  they win (more successes)  {lose:>6}")
        for key, label in (("critical", "critical win"), ("messy_critical", "messy critical"),
                           ("bestial_failure", "bestial failure"), ("total_failure", "total failure")):
            self.assertIn(f"  {label:<15}  {percent(figures['attacker_' + key]):>8}  "
                          f"{percent(figures['defender_' + key]):>8}", out)
        self.assertEqual(figures["attacker_wins"] + figures["tie"] + figures["defender_wins"], 1)
        self.assertTrue(all(len(line) <= 80 for line in lines))
        print("\n" + out)

    def test_figures_against_icepool(self):
        import icepool

        def score(faces):
            tens = sum(1 for f in faces if f == 10)
            return sum(1 for f in faces if f >= 6) + 2 * (tens // 2)

        def dist(n):
            # An independent count: icepool's multisets of n d10, scored here.
            return icepool.Pool([icepool.d10] * n).expand().map(score)

        for a, d in ((1, 1), (2, 3), (5, 6), (4, 4), (3, 1)):
            da, dd = dist(a), dist(d)
            figures = contest_odds(a, 0, d, 0)
            self.assertEqual(figures["attacker_wins"], Fraction((da > dd).probability(True)))
            self.assertEqual(figures["tie"], Fraction((da == dd).probability(True)))
            self.assertEqual(figures["defender_wins"], Fraction((da < dd).probability(True)))

    def test_vs_character_staff_or_owner_only(self):
        from evennia.utils import create

        self.char2.set_trait("dexterity", 2)
        self.char2.set_trait("stealth", 4)
        self.char2.set_trait("hunger", 3)
        # A plain player may not read another player's character ...
        self.char1.permissions.remove("Developer")
        self.account.permissions.remove("Developer")
        self.call(CmdOdds(), f"/contest dex+stealth vs {self.char2.key}",
                  "Only staff may read another player's character for contest odds", caller=self.char1)
        # ... staff may: their dots and Hunger.
        staff = create.create_object(self.character_typeclass, key="Storyteller", location=self.room1,
                                     home=self.room1)
        staff.permissions.add("Builder")
        staff.set_trait("dexterity", 3)
        staff.set_trait("stealth", 2)
        out = strip_ansi(self.call(CmdOdds(), f"/contest dex+stealth vs {self.char2.key}", caller=staff))
        figures = contest_odds(5, 0, 6, 3)
        self.assertIn(f"  vs {self.char2.key}: Dexterity 2 + Stealth 4 = 6 (6 dice), Hunger 3\n", out)
        self.assertIn(f"  you win (more successes)     {split_cells(figures)[0]:>6}", out)
        out = strip_ansi(self.call(CmdOdds(), f"/contest 4 vs {self.char2.key} with dex", caller=staff))
        self.assertIn("Dexterity 2 (2 dice), Hunger 3", out)

    def test_refusals(self):
        self.call(CmdOdds(), "/contest 5", "Put your pool, 'vs', then the other pool or a character.")
        self.call(CmdOdds(), "/contest 51 vs 3", "That pool is 51 dice; pools are limited to 50.")

    def test_other_switches_refused(self):
        # As every system's +odds/contest says it, wrapped at 80 columns as the player sees it.
        usage = "\nUsage: +odds/contest <pool> [hunger <n>] vs <pool or character> [hunger <m>]"
        reroll = ("+odds/contest takes no other switch (/reroll): it counts the contest as +contest\n"
                  "  rolls it." + usage)
        self.assertEqual(strip_ansi(self.call(CmdOdds(), "/contest/reroll dex+stealth vs 6")), reroll)
        self.assertEqual(strip_ansi(self.call(CmdOdds(), "/reroll/contest dex+stealth vs 6")), reroll)
        self.assertEqual(strip_ansi(self.call(CmdOdds(), "/contest/willpower dex+stealth vs 6")),
                         "+odds/contest takes no other switch (/willpower): it counts the contest as\n"
                         "  +contest rolls it." + usage)

    def test_fifty_dice_is_fast(self):
        import time

        start = time.perf_counter()
        contest_odds(50, 5, 50, 5)
        self.assertLess(time.perf_counter() - start, 2.0)
