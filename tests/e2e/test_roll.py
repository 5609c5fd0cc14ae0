"""End to end: a roll typed by one player over telnet is seen by another player in the room."""

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]


def test_second_player_sees_the_roll(new_player):
    alice = new_player()
    bob = new_player()

    alice.command("+stat dex=3", "Your Dexterity is now 3 (was 1).")
    alice.command("+stat stealth=2", "Your Stealth is now 2 (was 0).")
    alice.command("+sheet", "Hunger 1   Humanity 7 (Stains 0)")
    bob.read_available()

    alice.send("+roll dex+stealth vs 3 # up the fire escape")
    header = (
        f"[Roll] {alice.name} rolls Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 1, vs 3"
        " # up the fire escape"
    )
    body = re.compile(
        r"  Dice: (?:\d+ ){3}\d+  Hunger: \d+  =>  \d+ success(?:es)?: "
        r"(bare success|solid success|exceptional success|critical success|messy critical|"
        r"failure|total failure|bestial failure) \(margin [+-]\d+"
    )
    seen = bob.read_until(body, timeout=15)
    # The header is 86 characters: at 80 columns (this client sends no width) it wraps, the
    # rest indented; compared word by word.
    flat = " ".join(seen.split())
    assert " ".join(header.split()) in flat
    line = flat[flat.index(" ".join(header.split())):]
    dice = re.search(r"Dice: ([\d ]+?) Hunger: (\d+)", line)
    regular = [int(f) for f in dice.group(1).split()]
    hunger = [int(dice.group(2))]
    assert len(regular) == 4 and all(1 <= f <= 10 for f in regular + hunger)
    # The shown outcome agrees with the rules for the shown faces.
    from storyteller_dice.rules import v5

    result = v5.evaluate(regular, hunger, 3)
    assert f"=> {result.successes} success" in line
    assert result.outcome_label in line
    mine = alice.read_until(body, timeout=15)
    assert " ".join(header.split()) in " ".join(mine.split())


def test_bad_roll_gets_one_line_and_usage(new_player):
    carol = new_player()
    carol.send("+roll st+dex vs 3")
    out = carol.read_until("Usage: +roll")
    assert "'st' is ambiguous: it could be Stamina, Stealth, Streetwise, Strength." in out
    assert "Traceback" not in out
