"""
Pending state stored before an upgrade still reads: a class is stored by its module's name, and
names from before the package (`rules.v5_dice`) and before each system's rules were one
subpackage (`storyteller_dice.rules.v5_dice`) are read as the modules they are now.
"""

import pytest

from storyteller_dice.commands import pending
from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import dice


@pytest.mark.parametrize("stored, now", [
    ("rules.v5_dice", "storyteller_dice.rules.v5.dice"),
    ("storyteller_dice.rules.v5_dice", "storyteller_dice.rules.v5.dice"),
    ("storyteller_dice.rules.v5_odds", "storyteller_dice.rules.v5.exact_odds"),
    ("rules.v20_health", "storyteller_dice.rules.v20.health"),
    ("storyteller_dice.rules.dicecheck_system", "storyteller_dice.rules.dicecheck.system"),
    ("storyteller_dice.rules.v5", "storyteller_dice.rules.v5"),
    ("storyteller_dice.rules.v5.dice", "storyteller_dice.rules.v5.dice"),
    ("storyteller_dice.rules.pools", "storyteller_dice.rules.pools"),
])
def test_stored_module_names_read_as_they_are_now(stored, now):
    assert pending.upgraded_module(stored) == now


def test_a_result_stored_under_the_flat_name_is_rebuilt():
    result = v5.evaluate([6, 10, 3], [10], 2)
    plain = pending.to_plain(result)
    assert plain["__dataclass__"] == "storyteller_dice.rules.v5.dice:V5Result"
    plain["__dataclass__"] = "storyteller_dice.rules.v5_dice:V5Result"
    assert pending.from_plain(plain) == result
    assert type(pending.from_plain(plain)) is dice.V5Result
