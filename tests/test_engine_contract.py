"""
The engine contract, for every registered system (`rules.systems`), through the real shared
commands: parse -> roll with a seeded source -> view -> record -> `+roll/verify <code>` shows
the stored roll, and `+odds <same request>` says exactly the system's odds
(`rules.display.format_odds(system.odds(request, roller))`).

Each system is played with a typical request of its own syntax. The expected text is
built from the system object with the same seed the command used, so the test checks that the
commands add nothing, lose nothing and store what the room saw, whatever the dice.
"""

import json
import random
from collections.abc import Mapping

import pytest
from django.test import override_settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdStat
from storyteller_dice.rules import systems
from storyteller_dice.rules.display import append_code, format_odds, format_roll
from storyteller_dice.rules.engine import OddsView, RollRequest, RollView, System
from storyteller_dice.rules.randomness import seeded

class Typical(Mapping):
    """
    key -> (command, what is typed, traits set by +stat, traits set directly): each installed
    system's typical request, as it declares it (`System.example`), so a system added to the
    registry is played here with nothing added to this file.
    """

    def __getitem__(self, key):
        example = systems.get_system(key).example
        return (CmdCheck if example.command == "+check" else CmdRoll, example.typed, dict(example.stats),
                dict(example.state))

    def __iter__(self):
        return iter(systems.installed())

    def __len__(self):
        return len(systems.installed())


TYPICAL = Typical()
SEEDS = (1, 2, 3)


def plain(markup):
    """What a test client shows of our markup (as `EvenniaCommandTest.call` strips it)."""
    return ansi.parse_ansi(markup, strip_ansi=True).strip()


def sent(test, cmd, args, receivers, caller=None):
    """
    Run a command through `EvenniaCommandTest.call`; return each receiver's messages as sent
    (markup, one item a `msg()` call), so a test sees what each message was, not a join.
    """
    from unittest.mock import Mock

    for obj in receivers:
        obj.msg = Mock()
    try:
        # `call` mocks its own receiver: an object outside the test's audience
        test.call(cmd, args, caller=caller or test.char1, receiver=test.exit)
        got = {}
        for obj in receivers:
            texts = []
            for _name, c_args, c_kwargs in obj.msg.mock_calls:
                text = c_args[0] if c_args else c_kwargs.get("text")
                if text is None:
                    continue  # out-of-band data only (e.g. the sheet's vitals for the client)
                texts.append(str(text[0] if isinstance(text, tuple) else text))
            got[obj] = texts
        return got
    finally:
        for obj in receivers:
            del obj.msg


def test_every_registered_system_declares_a_typical_request():
    # A system without one of its own would be played with the engine's default only.
    assert set(systems.available()) == set(systems.installed()) == set(TYPICAL)
    for key in TYPICAL:
        assert type(systems.get_system(key)).example is not System.example, key


@pytest.mark.django_db
class TestContract(EvenniaCommandTest):
    def play(self, key, seed):
        from storyteller_dice.rolllog.models import RollEntry

        cmd, typed, by_stat, direct = TYPICAL[key]
        with override_settings(DICE_SYSTEM=key):
            system = systems.get_system(key)
            self.assertIsInstance(system, System)
            for trait, value in by_stat.items():
                out = sent(self, CmdStat(), f"{trait}={value}", [self.char1])[self.char1]
                self.assertEqual(len(out), 1, out)
                self.assertRegex(out[0], rf"^Your [A-Z][\w -]* is now {value} \(was \d+\)\.$")
            for trait, value in direct.items():
                self.char1.set_trait(trait, value)

            # parse: the same request the command makes, by the configured system
            configured = self.char1.dice_system()
            self.assertEqual(configured.key, key)
            roller = self.char1.roller()
            request = configured.parse(typed, frozenset(), roller=roller, numbers_only=cmd is CmdCheck)
            self.assertIsInstance(request, RollRequest)
            self.assertEqual(request.system, key)

            # roll with a seeded source, then view: what the room must see
            result = configured.roll(request, roller, rng=random.Random(seed))
            again = configured.roll(request, roller, rng=random.Random(seed))
            view = configured.view(result, request)
            self.assertEqual(view, configured.view(again, request))  # the seed decides everything
            self.assertIsInstance(view, RollView)
            self.assertEqual(view.system, key)
            self.assertEqual(RollView.from_dict(view.to_dict()), view)
            self.assertEqual(json.loads(json.dumps(view.to_dict())), view.to_dict())

            with seeded(seed):
                outs = sent(self, cmd(), typed, [self.char1, self.char2])
            entry = RollEntry.objects.order_by("-id").first()
            self.assertIsNotNone(entry)
            verb = "checks" if cmd is CmdCheck else "rolls"
            rendered = format_roll(view, "Char", verb=verb, width=80)
            shown = append_code(rendered, entry.code, width=80)
            # the roll is one message, exactly the view drawn at 80 columns with the code (a
            # wing may say more after it, e.g. Whalefall's +partial hint to the GM)
            self.assertEqual(outs[self.char1][0], shown)
            self.assertEqual(outs[self.char2][0], shown)  # the other player sees the same roll

            # record: what the log keeps is the system's record of that roll, and the view
            self.assertEqual(entry.system, key)
            self.assertEqual(entry.kind, cmd.key.lstrip("+"))
            self.assertEqual(entry.view, view.to_dict())
            self.assertEqual(entry.data, json.loads(json.dumps(configured.record(result, request))))
            self.assertEqual(entry.text, shown)  # exactly what an 80-column receiver saw
            self.assertEqual(entry.score, view.score)
            self.assertEqual(entry.outcome, view.outcome.key)

            # verify: the stored roll, as the room saw it
            out = self.call(CmdRoll(), f"/verify {entry.code.lower()}", caller=self.char2)
            lines = out.split("\n")
            self.assertTrue(lines[0].startswith(f"[Verify] Roll {entry.code} ({entry.kind}, public)"), out)
            self.assertIn(f"  System: {key}", lines)
            self.assertIn(f"  Typed: {cmd.key} {typed}", lines)
            self.assertIn(plain(shown), out)

            # odds: the same request, exactly the system's odds
            odds = configured.odds(request, roller)
            self.assertIsInstance(odds, OddsView)
            self.assertEqual(odds.system, key)
            self.assertEqual(sum(c.probability for c in odds.chances), 1)
            out = self.call(CmdOdds(), typed)
            self.assertEqual(out, plain(format_odds(odds, width=80)))
            return view, odds

    def test_v5(self):
        for seed in SEEDS:
            self.play("v5", seed)

    def test_v20(self):
        for seed in SEEDS:
            self.play("v20", seed)

    def test_seyruun(self):
        for seed in SEEDS:
            self.play("seyruun", seed)

    def test_whalefall(self):
        for seed in SEEDS:
            self.play("whalefall", seed)

    def test_dicecheck(self):
        for seed in SEEDS:
            self.play("dicecheck", seed)

    def test_stored_text_is_what_the_room_saw_when_the_outcome_wraps(self):
        # the outcome wraps onto a hanging line, the code after it: stored exactly as it was sent
        from storyteller_dice.rolllog.models import RollEntry
        from storyteller_dice.rules.randomness import FixedFaces

        with override_settings(DICE_SYSTEM="v5"):
            self.char1.set_trait("dexterity", 3)
            self.char1.set_trait("stealth", 2)
            with seeded(FixedFaces([2, 6, 10, 1, 10])):
                got = sent(self, CmdRoll(), "dex+stealth vs 3", [self.char1])
            entry = RollEntry.objects.get()
            self.assertEqual(got[self.char1], [entry.text])
            self.assertEqual(plain(entry.text).split("\n")[-2:], [
                "  Dice: 2 6 10 1  Hunger: 10  =>  5 successes: messy critical (margin +2, solid",
                f"    success) [code {entry.code}]"])

    def test_odds_agree_with_the_rolls_outcomes(self):
        # Every outcome a roll can show is one +odds counts (same keys in view and odds), for
        # the systems whose docstrings promise it.
        for key in ("whalefall", "dicecheck", "v20"):
            keys = set()
            odds = None
            for seed in range(1, 40):
                view, odds = self.play(key, seed) if seed <= 1 else (self._view(key, seed), odds)
                keys.add(view.outcome.key)
            chance_keys = {c.key for c in odds.chances}
            self.assertLessEqual(keys, chance_keys, key)

    def _view(self, key, seed):
        cmd, typed, _, _ = TYPICAL[key]
        with override_settings(DICE_SYSTEM=key):
            system = self.char1.dice_system()
            roller = self.char1.roller()
            request = system.parse(typed, frozenset(), roller=roller, numbers_only=cmd is CmdCheck)
            return system.view(system.roll(request, roller, rng=random.Random(seed)), request)
