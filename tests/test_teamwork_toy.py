"""
A new system gets teamwork and Willpower spending from the shared code alone: a toy system,
"Tug", defined here only, registered for the test (`rules.systems.register`) with a wing
(`commands.dice_base.register_wing`) that supplies nothing but its teamwork rules, and its
sheet says which trait is its Willpower. The shared `+teamwork` (`commands.teamwork`) opens,
joins, rolls, cancels and keeps the roll; `DiceCharacterMixin.spend_willpower` spends.

The toy: one trait, Strength 0-5 (d6s, 4+ is a success), and Grit 0-3, its Willpower (points
left: a spent point comes off). A team pull: everyone rolls their own Strength, the successes
add up; the leader spends 1 Grit on every pull (refused, nothing rolled, with none left).
"""

from dataclasses import dataclass
from pathlib import Path

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import dice_base, teamwork
from storyteller_dice.commands.pending import PENDING
from storyteller_dice.rules import systems
from storyteller_dice.rules.display import escape, format_dice
from storyteller_dice.rules.engine import (FAIL, SUCCESS, DiceGroup, Die, Outcome, RollRequest, RollView, Sheet,
                                           System, split_vs)
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import TraitTable, build_pool, match_name
from storyteller_dice.rules.randomness import FixedFaces, get_rng, roll_faces, seeded

KEY = "tug"
RANGES = {"strength": 5, "grit": 3}


class TugSheet(Sheet):
    willpower_trait = "grit"
    willpower_step = -1
    no_willpower = "You have {left} Grit left; a pull needs {need}."

    def defaults(self):
        return {"strength": 0, "grit": 2}

    def match(self, typed):
        return match_name(typed, tuple(RANGES))

    def check_value(self, trait, value, values):
        if not 0 <= value <= RANGES[trait]:
            raise DiceError(f"{trait.title()} runs from 0 to {RANGES[trait]}.")
        return value

    def traits(self, values, specialties):
        return TraitTable(values={"strength": values["strength"]}, specialties={}, aliases={},
                          specialty_traits=frozenset())

    def state(self, values):
        return {"willpower_left": values["grit"]}

    def layout(self, values, specialties, flags=frozenset()):
        return ()


@dataclass(frozen=True)
class Pull:
    pool: str
    faces: tuple

    @property
    def successes(self):
        return sum(1 for face in self.faces if face >= 4)


class TugSystem(System):
    key = KEY
    title = "Tug"
    help = "Pull: d6s, 4+ succeeds."
    sheet = TugSheet()

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        pool_text, _ = split_vs(text)
        pool = build_pool(pool_text, None if numbers_only or roller is None else roller.traits)
        return RollRequest(system=self.key, text=text, pool=pool, dice=pool.dice)

    def roll(self, request, roller=None, rng=None):
        return Pull(request.pool.describe(), roll_faces(request.dice, rng, sides=6))

    def view(self, result, request=None):
        dice = tuple(Die(face, frozenset({SUCCESS if face >= 4 else FAIL})) for face in result.faces)
        won = result.successes > 0
        return RollView(system=self.key, pool=result.pool, target="", groups=(DiceGroup("Dice", dice, sides=6),),
                        score=result.successes, noun=("success", "successes"),
                        outcome=Outcome("success", "success", "good") if won else Outcome("failure", "failure", "bad"))

    def odds(self, request, roller=None):
        raise DiceError("No odds for a pull.")


class TugTeamwork(teamwork.TeamworkRules):
    usage = "+teamwork <pool>"

    def open(self, cmd, text):
        return {"pool": build_pool(text, cmd.caller.trait_table())}, ""

    def describe(self, team):
        return escape(team.terms["pool"].describe())

    def describe_help(self, team, part):
        return escape(part.describe())

    def join(self, cmd, team, given, already):
        pool = build_pool(given or "", cmd.caller.trait_table())
        return pool, f"{self.prefix} {escape(cmd.caller.key)} pulls with {escape(pool.describe())}."

    def before_roll(self, cmd, team, present):
        if cmd.caller.willpower_left() < 1:
            raise DiceError(cmd.caller.sheet.no_willpower.format(left=0, need=1))

    def roll(self, cmd, team, present, absent):
        cmd.caller.spend_willpower()
        system = systems.get_system(KEY)
        everyone = [(cmd.caller, team.terms["pool"])] + list(present)
        lines, total = [f"{self.prefix} {escape(cmd.caller.key)}'s team pull"], 0
        for member, pool in everyone:
            result = system.roll(RollRequest(KEY, pool.describe(), pool, pool.dice), rng=get_rng())
            view = system.view(result)
            total += result.successes
            lines.append(f"  {escape(member.key)}: {format_dice(view)}  =>  {view.score_text}")
        lines += [f"  ({escape(name)} is not here.)" for name in absent] + [f"  => Total {total}"]
        dice_base.announce(cmd.caller, "\n".join(lines))


class TugWing(dice_base.Wing):
    teamwork = TugTeamwork()

    def pending_lines(self, character):
        return teamwork.pending_lines(character, self.teamwork)


@override_settings(DICE_SYSTEM=KEY)
class TestToyTeamwork(EvenniaCommandTest):
    def setUp(self):
        systems.register(TugSystem())
        dice_base.register_wing(TugWing(KEY))
        self.addCleanup(systems.unregister, KEY)
        self.addCleanup(dice_base.unregister_wing, KEY)
        super().setUp()
        self.char1.set_trait("strength", 2)
        self.char2.set_trait("strength", 3)

    def do(self, args, faces=(), expected=None, caller=None):
        with seeded(FixedFaces(faces)) as source:
            out = self.call(teamwork.CmdTeamwork(), args, expected, caller=caller or self.char1)
        self.assertEqual(source.remaining, [])
        return out

    def test_open_join_roll_spends_the_leaders_willpower(self):
        self.do("strength", [], {self.char2: "[Teamwork] Char leads a teamwork roll: Strength 2"})
        self.do("/join Char=strength", [], {self.char1: "[Teamwork] Char2 pulls with Strength 3."},
                caller=self.char2)
        self.do("", [], "[Teamwork] Char leads: Strength 2\n  Char2 helps: Strength 3")
        expected = "[Teamwork] Char's team pull\n  Char: Dice (d6): 4 1  =>  1 success\n" \
                   "  Char2: Dice (d6): 6 5 2  =>  2 successes\n  => Total 3"
        self.do("/roll", [4, 1, 6, 5, 2], {self.char1: expected, self.char2: expected})
        self.assertEqual(self.char1.trait("grit"), 1)
        self.assertIsNone(teamwork.load_team(self.char1))
        self.assertIsNone(teamwork.helping(self.char2))

    def test_no_willpower_left_refuses_and_keeps_the_roll(self):
        self.char1.set_trait("grit", 0)
        self.do("strength")
        self.do("/roll", [], "You have 0 Grit left; a pull needs 1.")
        self.assertIsNotNone(teamwork.load_team(self.char1))
        with self.assertRaisesRegex(DiceError, "You have 0 Grit left; a pull needs 1."):
            self.char1.spend_willpower()
        self.assertEqual(self.char1.trait("grit"), 0)

    def test_the_roll_is_kept_in_the_database_and_told_on_connecting(self):
        self.do("strength")
        self.do("/join Char=strength", caller=self.char2)
        stored = self.char1.attributes.get(teamwork.TEAM, category=PENDING)
        self.assertEqual(stored["helpers"][0][0], self.char2)
        self.assertEqual(dice_base.dice_wing().pending_lines(self.char2), [
            "|w[Teamwork]|n You still help Char's teamwork roll with Strength 3 (+teamwork/leave to stop)."])
        self.assertEqual(dice_base.dice_wing().pending_lines(self.char1), [
            "|w[Teamwork]|n Your teamwork roll is still open: Strength 2; 1 helper. "
            "+teamwork/roll or +teamwork/cancel it."])
        self.do("/cancel", [], {self.char2: "[Teamwork] Char cancels the teamwork roll."})
        self.assertIsNone(teamwork.load_team(self.char1))

    def test_one_at_a_time_is_the_shared_flows(self):
        self.do("strength")
        self.do("/join Char=strength", caller=self.char2)
        self.do("strength", [], "You help Char's teamwork roll: one at a time; +teamwork/leave it first.",
                caller=self.char2)
        self.do("/leave", [], "[Teamwork] Char2 stops helping Char's teamwork roll.", caller=self.char2)

    def test_no_shared_file_names_the_toy(self):
        root = Path(teamwork.__file__).resolve().parents[1]
        words = ("TugSystem", "TugTeamwork", '"tug"')
        named = [str(path.relative_to(root)) for folder in ("commands", "rules", "typeclasses", "rolllog")
                 for path in (root / folder).rglob("*.py") if any(word in path.read_text() for word in words)]
        self.assertEqual(named, [])
