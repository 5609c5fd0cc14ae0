"""
The 50-dice limit is counted on the pool after every modifier, in every system: a pool typed
above 50 that wounds, Impairment or a subtracted number bring to 50 or fewer is rolled; one
still above 50 is refused, naming the final count.
"""

import pytest

from storyteller_dice.rules.engine import Roller
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.systems import get_system

ACCEPTED = [
    # system, typed, switches, roller state, the dice rolled
    ("v20", "52", (), {"wound_penalty": -2, "health_level": "Wounded"}, 50),
    ("v20", "52-2", (), {}, 50),
    ("v5", "52", (), {"impaired": True}, 50),
    ("v5", "52-2", (), {}, 50),
    ("seyruun", "52", (), {"wound": "moderate"}, 50),
    ("seyruun", "48/willpower", (), {"wound": "moderate", "willpower_left": 1}, 49),
    ("whalefall", "52-2 vs (5,2)", (), {}, 50),
    ("dicecheck", "52d(6+)-5:3", (), {}, 47),
    ("dicecheck", "48d(6+)+2:3", (), {}, 50),
]

REFUSED = [
    ("v20", "53", (), {"wound_penalty": -2, "health_level": "Wounded"}, 51),
    ("v20", "52", ("ignorepain",), {"wound_penalty": -2, "health_level": "Wounded", "willpower_left": 1}, 52),
    ("v5", "53", (), {"impaired": True}, 51),
    ("seyruun", "50/willpower", (), {"wound": "light", "willpower_left": 1}, 52),
    ("whalefall", "51 vs (5,2)", (), {}, 51),
    ("dicecheck", "52d(6+)-1:3", (), {}, 51),
    ("dicecheck", "50d(6+)+2:3", (), {}, 52),
]


@pytest.mark.parametrize("key, typed, switches, state, dice", ACCEPTED)
def test_the_limit_counts_the_pool_after_its_modifiers(key, typed, switches, state, dice):
    request = get_system(key).parse(typed, frozenset(switches), Roller(state=state), numbers_only=True)
    assert request.dice == dice


@pytest.mark.parametrize("key, typed, switches, state, dice", REFUSED)
def test_over_the_limit_after_modifiers_is_refused_with_the_final_count(key, typed, switches, state, dice):
    with pytest.raises(DiceError) as refused:
        get_system(key).parse(typed, frozenset(switches), Roller(state=state), numbers_only=True)
    assert str(refused.value) == f"That pool is {dice} dice; pools are limited to 50."
