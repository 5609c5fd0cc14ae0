"""
End to end (over telnet): at Hunger 5 `+rouse` rolls no die and names the
hunger frenzy test; `+roll willpower vs 1` shows no Hunger dice; `+roll/surge dex+stealth vs 2`
makes a Rouse check and adds the Blood Potency dice.
"""

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]

ROLL_END = re.compile(r"\[code [A-Z0-9]+\]")


def flat(text):
    """Telnet lines wrapped at the client's width, joined again."""
    return re.sub(r"\s*\n\s+", " ", text)


def test_rouse_at_hunger_five_rolls_no_die_and_names_the_frenzy_test(superuser_client, new_player):
    admin = superuser_client
    player = new_player()
    admin.send(f"+hunger {player.name}=5")
    admin.read_until("5")
    player.read_available()

    player.send("+rouse")
    text = flat(player.read_until("+frenzy vs 4"))
    assert "no die" in text
    assert "cannot rouse" in text
    assert "hunger frenzy test (Difficulty 4)" in text
    player.send("+sheet")
    assert "Hunger 5" in player.read_until("Humanity")

    # Staff can run the hunger frenzy test for the character.
    admin.send(f"+frenzy {player.name} vs 4")
    seen = flat(admin.read_until(re.compile(r"make a frenzy test:.*?\[code [A-Z0-9]+\]", re.S)))
    assert f"has {player.name} make a frenzy test" in seen
    assert "no Hunger dice" in seen


def test_willpower_roll_shows_no_hunger_dice(new_player):
    player = new_player()
    player.send("+roll willpower vs 1")
    text = flat(player.read_until(ROLL_END))
    assert "Willpower 2 (2 dice), no Hunger dice: a rating roll, vs 1" in text
    line = text[text.index("[Roll]"):]
    assert "Dice: " in line and "Hunger:" not in line.split("rating roll", 1)[1]


def test_surge_makes_a_rouse_check_and_adds_the_blood_potency_dice(new_player):
    player = new_player()
    player.command("+stat dex=3", "Your Dexterity is now 3")
    player.command("+stat stealth=2", "Your Stealth is now 2")
    player.command("+stat blood potency=2", "Your Blood Potency is now 2")
    player.send("+roll/surge dex+stealth vs 2")
    text = flat(player.read_until(ROLL_END))
    found = re.search(r"Dexterity 3 \+ Stealth 2 = 5 \+ 2 Blood Surge \(7 dice\), Hunger ([12]), vs 2", text)
    assert found, text
    rouse = re.search(r"Blood Surge: Rouse die (\d+), Hunger (stays|rises to) ([12]); \+2 dice", text)
    assert rouse, text
    face, hunger = int(rouse.group(1)), int(rouse.group(3))
    # A new character has Hunger 1: a Rouse die of 6+ keeps it, 1-5 raises it to 2.
    assert hunger == (1 if face >= 6 else 2)
    assert int(found.group(1)) == hunger
    dice = re.search(r"Dice: ([\d ]+?)  Hunger: ([\d ]+?)  =>", text)
    assert len(dice.group(1).split()) + len(dice.group(2).split()) == 7
    assert len(dice.group(2).split()) == hunger
