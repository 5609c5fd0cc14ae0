"""
Pending state stored before an upgrade still reads: a class is stored by its module's name, and
names from before the package (`rules.v5_dice`) and before each system's rules were one
subpackage (`storyteller_dice.rules.v5_dice`) are read as the modules they are now.
"""

import dataclasses
import time

import pytest

from storyteller_dice.commands import pending
from storyteller_dice.commands.last_roll import LastRoll
from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import dice

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


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


# Every dataclass the rules modules defined before each system's rules were one subpackage,
# as `to_plain` named it then, with its fields then: pending state may hold any of them (a
# V5 roll kept for +willpower, a contest side's pool, a teamwork part, a Seyruun roll). The
# extended-roll states of then (`v5_extended:ExtendedState`, `v20:ExtendedState`,
# `seyruun:Extended`) are gone: `commands.extended_upgrade` reads them as plain data.
OLD_DATACLASSES = [
    ('storyteller_dice.rules.dicecheck:CheckResult', ('dice', 'threshold', 'tn', 'hits', 'success', 'effect', 'botch_margin', 'big_botch', 'dos', 'damage')),
    ('storyteller_dice.rules.dicecheck:OpposedResult', ('active', 'other')),
    ('storyteller_dice.rules.dicecheck:Side', ('kind', 'name', 'focus', 'dice', 'threshold', 'value')),
    ('storyteller_dice.rules.dicecheck:CheckRequest', ('left', 'right')),
    ('storyteller_dice.rules.dicecheck_system:CheckPool', ('dice', 'threshold', 'text')),
    ('storyteller_dice.rules.dicecheck_system:DiceCheckRoll', ('check', 'pool_text', 'target_text', 'other', 'other_name')),
    ('storyteller_dice.rules.engine:Die', ('face', 'marks')),
    ('storyteller_dice.rules.engine:DiceGroup', ('label', 'dice', 'sides')),
    ('storyteller_dice.rules.engine:Outcome', ('key', 'label', 'tone')),
    ('storyteller_dice.rules.engine:RollView', ('system', 'pool', 'target', 'groups', 'score', 'noun', 'outcome', 'notes')),
    ('storyteller_dice.rules.engine:Chance', ('key', 'label', 'probability', 'tone', 'scores')),
    ('storyteller_dice.rules.engine:OddsView', ('system', 'pool', 'target', 'chances', 'distribution', 'noun', 'notes', 'breakdown')),
    ('storyteller_dice.rules.engine:OddsInput', ('name', 'label', 'kind', 'low', 'high', 'default', 'choices', 'switch', 'state', 'hint')),
    ('storyteller_dice.rules.engine:Roller', ('name', 'traits', 'state')),
    ('storyteller_dice.rules.engine:RollRequest', ('system', 'text', 'pool', 'dice', 'target', 'target_given', 'options', 'extra')),
    ('storyteller_dice.rules.engine:SheetSection', ('kind', 'title', 'rows', 'text', 'boxes')),
    ('storyteller_dice.rules.fairness:FaceTest', ('sides', 'label', 'observed', 'statistic', 'p_value', 'verdict_key')),
    ('storyteller_dice.rules.pools:Term', ('sign', 'number', 'name', 'specialty')),
    ('storyteller_dice.rules.pools:PoolPart', ('label', 'value', 'sign', 'trait', 'specialty')),
    ('storyteller_dice.rules.pools:Pool', ('parts', 'total')),
    ('storyteller_dice.rules.pools:TraitTable', ('values', 'specialties', 'aliases', 'specialty_traits')),
    ('storyteller_dice.rules.seyruun:SeyruunResult', ('dice', 'difficulty', 'successes', 'win', 'botch', 'enhanced_critical', 'chance', 'overflow', 'pool', 'rerolled')),
    ('storyteller_dice.rules.seyruun:Pool', ('attribute', 'skill', 'bonuses', 'penalties', 'wound', 'willpower', 'extra_actions', 'assistants', 'base', 'bonus', 'bonus_cut', 'penalty', 'total')),
    ('storyteller_dice.rules.seyruun:ContestResult', ('attacker', 'defender', 'winner', 'tie', 'decided_by', 'margin')),
    ('storyteller_dice.rules.seyruun:ResistedResult', ('power', 'resistance', 'takes_effect', 'net')),
    ('storyteller_dice.rules.seyruun_system:SeyruunPool', ('parts', 'total', 'attribute', 'untrained', 'bonus', 'bonus_cut', 'willpower', 'wound', 'wound_penalty', 'actions', 'kind')),
    ('storyteller_dice.rules.seyruun_system:SeyruunRoll', ('result', 'pool', 'target_given')),
    ('storyteller_dice.rules.v20:V20Result', ('dice', 'difficulty', 'specialty', 'willpower', 'raw_successes', 'ones', 'successes', 'botch', 'level', 'marks', 'automatic')),
    ('storyteller_dice.rules.v20:Defaulted', ('pool', 'difficulty', 'defaulted', 'category')),
    ('storyteller_dice.rules.v20:Resisted', ('first', 'second', 'winner', 'margin')),
    ('storyteller_dice.rules.v20_health:HealthTrack', ('bashing', 'lethal', 'aggravated')),
    ('storyteller_dice.rules.v20_health:Damaged', ('track', 'upgraded', 'lost')),
    ('storyteller_dice.rules.v20_health:HealingCost', ('blood', 'willpower', 'days', 'turns')),
    ('storyteller_dice.rules.v5_contest:ContestResult', ('attacker', 'defender', 'winner', 'margin', 'tie')),
    ('storyteller_dice.rules.v5_contest:TeamworkResult', ('leader', 'helpers', 'difficulty', 'successes', 'win', 'margin', 'critical', 'messy_critical', 'bestial_failure', 'total_failure')),
    ('storyteller_dice.rules.v5_dice:V5Result', ('regular', 'hunger', 'difficulty', 'successes', 'win', 'margin', 'critical', 'messy_critical', 'bestial_failure', 'total_failure', 'bestial_rule', 'rerolled', 'hunger_rating', 'rating_only')),
    ('storyteller_dice.rules.v5_dice:WillpowerDecision', ('reroll', 'indexes', 'reason')),
    ('storyteller_dice.rules.v5_humanity:RemorseResult', ('roll', 'humanity_before', 'stains_before', 'humanity_after', 'stains_after')),
    ('storyteller_dice.rules.v5_humanity:FrenzyResult', ('roll', 'willpower', 'humanity', 'difficulty_given', 'penalty')),
    ('storyteller_dice.rules.v5_rouse:RouseCheck', ('face', 'reroll', 'passed', 'hunger_before', 'hunger_after')),
    ('storyteller_dice.rules.v5_rouse:RouseResult', ('checks', 'hunger_before', 'hunger_after', 'blood_potency', 'level', 'reroll_level')),
    ('storyteller_dice.rules.v5_rouse:SurgeResult', ('rouse', 'dice')),
    ('storyteller_dice.rules.whalefall:WhalefallResult', ('dice', 'target', 'needed', 'sides', 'meeting', 'success', 'partial', 'automatic')),
    ('storyteller_dice.rules.whalefall_system:WhalefallRoll', ('check', 'pool', 'pool_text')),
]


@pytest.mark.parametrize("stored, fields", OLD_DATACLASSES, ids=[path for path, _fields in OLD_DATACLASSES])
def test_every_class_stored_before_still_rebuilds_from_its_fields(stored, fields):
    cls = pending._dataclass(stored)
    now = {item.name for item in dataclasses.fields(cls)}
    required = {item.name for item in dataclasses.fields(cls) if item.init and item.default is dataclasses.MISSING
                and item.default_factory is dataclasses.MISSING}
    assert set(fields) <= now and required <= set(fields)
    assert pending._dataclass("rules." + stored.removeprefix("storyteller_dice.rules.")) is cls  # before the package


@pytest.mark.parametrize("stored", [
    "storyteller_dice.commands.v5.willpower:LastRoll", "storyteller_dice.commands.v5.willpower:NotRerollable",
    "storyteller_dice.commands.v5.rolls:ExtendedLastRoll", "storyteller_dice.commands.v5.contest:ContestLastRoll",
    "storyteller_dice.commands.v5.teamwork:TeamLastRoll", "commands.willpower:LastRoll",
])
def test_every_kept_roll_class_stored_before_still_rebuilds(stored):
    kept = LastRoll.from_data({"class": stored, "fields": {
        "result": None, "summary": "dex", "difficulty_given": True, "private": False, "receivers": [],
        "entry": None, "time": time.time()}})
    assert isinstance(kept, LastRoll) and type(kept).__name__ == stored.rpartition(":")[2]
    assert kept.summary == "dex"
