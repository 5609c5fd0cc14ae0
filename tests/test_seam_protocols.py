"""
The seam as code (`rules.seam`, `commands.seam`): the protocols say what the base classes
offer, name for name and parameter for parameter, and the five systems and the toy system
(tests/toy_system/) satisfy them, every shared feature's rules reached from the System by
`commands.seam.features_of`. The shared `Wing` holds only hooks more than one system uses; a
hook of one system is an optional one (`commands.wing_features`), offered by that wing alone.
"""

import inspect

import pytest

from storyteller_dice.rules import engine, extended, seam, systems

SYSTEM_KEYS = ("v5", "v20", "seyruun", "whalefall", "dicecheck")
PROTOCOL_MODULES = (seam.__name__, "storyteller_dice.commands.seam", "storyteller_dice.commands.wing_features")


def members(protocol):
    """{name: callable} of what a protocol declares as methods (properties aside)."""
    found = {}
    for klass in protocol.__mro__:
        if klass.__module__ not in PROTOCOL_MODULES:
            continue
        for name, value in vars(klass).items():
            if not name.startswith("_") and callable(value):
                found.setdefault(name, value)
    return found


def public_methods(cls, stop=object):
    """{name: function} of the public methods `cls` defines itself or inherits below `stop`."""
    found = {}
    for klass in cls.__mro__:
        if klass is stop or klass is object:
            break
        for name, value in vars(klass).items():
            if not name.startswith("_") and inspect.isfunction(value):
                found.setdefault(name, value)
    return found


def parameters(function):
    return [(p.name, p.default) for p in inspect.signature(function).parameters.values()]


def same_signatures(protocol, base, every=True):
    """The protocol's methods against the base class's: the same parameters and defaults (and,
    with `every`, the same set of methods)."""
    declared, offered = members(protocol), public_methods(base)
    if every:
        assert set(declared) == set(offered), (protocol.__name__, set(declared) ^ set(offered))
    for name, function in declared.items():
        assert parameters(function) == parameters(offered[name]), (protocol.__name__, name)


@pytest.mark.parametrize("protocol, base", [
    (seam.SystemProtocol, engine.System),
    (seam.SheetProtocol, engine.Sheet),
    (seam.ExtendedRulesProtocol, extended.ExtendedRules),
])
def test_the_pure_protocols_are_the_base_classes(protocol, base):
    same_signatures(protocol, base)
    assert isinstance(base(), protocol)


def test_the_system_protocol_has_every_attribute_of_the_base():
    attributes = {name for name, value in vars(engine.System).items()
                  if not name.startswith("_") and not callable(value) and not isinstance(value, property)}
    assert attributes <= set(seam.SystemProtocol.__annotations__), attributes - set(seam.SystemProtocol.__annotations__)


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_each_system_is_a_system_with_a_sheet(key):
    system = systems.get_system(key)
    assert isinstance(system, seam.SystemProtocol)
    assert isinstance(system.sheet, seam.SheetProtocol)
    assert system.extended is None or isinstance(system.extended, seam.ExtendedRulesProtocol)
    assert seam.extended_rules(system) is system.extended
    willpower = seam.willpower_rules(system)
    assert willpower is None or willpower.willpower_trait in system.sheet.defaults()


def test_whalefall_has_no_willpower_and_v5_has():
    assert seam.willpower_rules(systems.get_system("whalefall")) is None
    assert seam.willpower_rules(systems.get_system("v5")).willpower_trait == "willpower superficial"


def test_the_command_protocols_are_the_base_classes(db):
    from storyteller_dice.commands import seam as commands_seam
    from storyteller_dice.commands.contest import ContestCommand
    from storyteller_dice.commands.dice_base import Wing
    from storyteller_dice.commands.teamwork import TeamworkRules

    same_signatures(commands_seam.WingProtocol, Wing)
    same_signatures(commands_seam.TeamworkRulesProtocol, TeamworkRules)
    # A contest command is a whole command; the protocol is the part a system supplies.
    same_signatures(commands_seam.ContestRulesProtocol, ContestCommand, every=False)
    assert isinstance(Wing("x"), commands_seam.WingProtocol)


@pytest.mark.parametrize("key, teamwork, contests, contest_odds", [
    ("v5", True, ["CmdContest"], False),  # V5's +odds/contest is its handle_odds
    ("v20", False, ["CmdContest"], True),
    ("seyruun", True, ["CmdContest", "CmdResist"], True),
    ("whalefall", False, [], False),
    ("dicecheck", False, [], True),  # its checks against a character ride on +roll
    ("coin", True, ["CmdContest"], False),  # its +odds/contest is its handle_odds
])
def test_every_feature_is_reached_from_the_system(db, key, teamwork, contests, contest_odds):
    from storyteller_dice.commands import seam as commands_seam
    from tests import toy_system

    uninstall = toy_system.install()
    try:
        system = systems.get_system(key)
        found = commands_seam.features_of(system)
        assert isinstance(found.wing, commands_seam.WingProtocol)
        assert found.wing.key == key
        assert (found.teamwork is not None) == teamwork
        assert found.teamwork is None or isinstance(found.teamwork, commands_seam.TeamworkRulesProtocol)
        assert sorted(cls.__name__ for cls in found.contests) == contests
        assert all(isinstance(cls(), commands_seam.ContestRulesProtocol) for cls in found.contests)
        assert (found.contest_odds is not None) == contest_odds
        assert (found.sheet, found.extended) == (system.sheet, system.extended)
    finally:
        uninstall()


# What each system's wing offers beyond the shared `Wing` (`commands.wing_features`).
OFFERS = {
    "v5": {"OddsPreparer", "OddsChecker", "RollKeeper", "ExtendedKeeper", "SheetFlagger", "PanelActions",
           "PanelTools"},
    "v20": {"RollPreparer"},
    "seyruun": set(),
    "whalefall": set(),
    "dicecheck": set(),
    "coin": set(),
}


def wings_by_key():
    """{key: wing} of the five systems and the toy system (the contract's sixth)."""
    from storyteller_dice.commands.dice_base import dice_wing
    from tests import toy_system

    uninstall = toy_system.install()
    try:
        return {key: dice_wing(systems.get_system(key)) for key in OFFERS}
    finally:
        uninstall()


def test_each_wing_offers_its_own_hooks_and_no_other(db):
    from storyteller_dice.commands import seam as commands_seam
    from tests import toy_system

    uninstall = toy_system.install()
    try:
        for key, expected in OFFERS.items():
            offers = commands_seam.features_of(systems.get_system(key)).offers
            assert {feature.__name__ for feature in offers} == expected, key
    finally:
        uninstall()


def test_an_offered_hook_has_the_protocols_signature(db):
    from storyteller_dice.commands import wing_features

    for key, wing in wings_by_key().items():
        for feature in wing_features.offered_by(wing):
            (name, declared), = members(feature).items()  # one hook each
            assert parameters(declared) == parameters(getattr(type(wing), name)), (key, name)


def test_every_hook_of_the_shared_wing_serves_more_than_one_system(db):
    # A hook one system alone needs lives in its wing (`commands.wing_features`); the toy counts,
    # as the contract's sixth system (docs/contract.md).
    from storyteller_dice.commands.dice_base import Wing

    wings = wings_by_key()
    for name in public_methods(Wing):
        users = [key for key, wing in wings.items() if getattr(type(wing), name) is not getattr(Wing, name)]
        assert len(users) > 1, (name, users)


def test_an_optional_hook_is_not_on_the_shared_wing_and_serves_one_system_at_most(db):
    from storyteller_dice.commands import wing_features
    from storyteller_dice.commands.dice_base import Wing

    wings = wings_by_key()
    for feature in wing_features.OPTIONAL_HOOKS:
        (name, _), = members(feature).items()
        assert not hasattr(Wing, name), name
        assert not isinstance(Wing("x"), feature), name
        assert len([key for key, wing in wings.items() if isinstance(wing, feature)]) <= 1, name
