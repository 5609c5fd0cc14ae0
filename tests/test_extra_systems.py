"""
`DICE_EXTRA_SYSTEMS`: a system from outside the package registered by a setting, read when
Django starts (`typeclasses.system.register_extra_systems`, the first of the app's start checks:
`rolllog.apps.start_problem`), so that `DICE_SYSTEM` may name it. A bad entry is one line naming
the setting and the entry, the line `ready()` prints before `SystemExit(1)`.
"""

import pytest
from django.test import override_settings

from storyteller_dice.rolllog.apps import start_problem
from storyteller_dice.rules import systems
from storyteller_dice.typeclasses import system as configured

TOY = "tests.toy_system.system.SYSTEM"


@pytest.fixture(autouse=True)
def no_toy_left():
    yield
    systems.unregister("coin")
    systems.unregister("dice")
    systems.reset()


class NotASystem:
    key = "dice"
    title = "Dice"


NOT_A_SYSTEM = NotASystem()


def toy_under(key):
    """The toy system under another key (a host's system clashing with ours)."""
    from tests.toy_system.system import CoinSystem

    return type("Renamed", (CoinSystem,), {"key": key})()


V5_AGAIN = toy_under("v5")
UPPER = toy_under("Coin")


def test_the_setting_registers_the_toy_before_dice_system_is_checked():
    with override_settings(DICE_EXTRA_SYSTEMS=[TOY], DICE_SYSTEM="coin"):
        assert "coin" not in systems.available()
        assert start_problem() is None  # the app's start: registered, then DICE_SYSTEM checked
        assert "coin" in systems.available()
        system = configured.dice_system()
        assert (system.key, system.title) == ("coin", "Coin")


def test_the_registration_function_alone():
    with override_settings(DICE_EXTRA_SYSTEMS=(TOY,), DICE_SYSTEM="coin"):
        assert configured.register_extra_systems() is None
        assert configured.register_extra_systems() is None  # again: harmless
        assert configured.settings_problem() is None


def test_without_the_setting_coin_is_unknown():
    with override_settings(DICE_SYSTEM="coin"):
        assert configured.register_extra_systems() is None
        assert start_problem().startswith("DICE_SYSTEM='coin' cannot be used: Unknown dice system 'coin'")


@pytest.mark.parametrize("value, line", [
    ("tests.toy_system.system.SYSTEM",
     'DICE_EXTRA_SYSTEMS must be a list of dotted paths to dice systems ("my_game.dice.SYSTEM"), not str.'),
    ([42],
     'DICE_EXTRA_SYSTEMS[0] must be a dotted path to a dice system ("my_game.dice.SYSTEM"), not int.'),
    (["nowhere_at_all.SYSTEM"],
     'DICE_EXTRA_SYSTEMS[0] "nowhere_at_all.SYSTEM" cannot be imported (No module named \'nowhere_at_all\').'),
    (["tests.toy_system.system.NO_SUCH"],
     'DICE_EXTRA_SYSTEMS[0] "tests.toy_system.system.NO_SUCH" cannot be imported (Module '
     '"tests.toy_system.system" does not define a "NO_SUCH" attribute/class).'),
    (["tests.test_extra_systems.NOT_A_SYSTEM"],
     'DICE_EXTRA_SYSTEMS[0] "tests.test_extra_systems.NOT_A_SYSTEM" is not a dice system (a '
     'rules.engine.System with a key and a title): it is NotASystem.'),
    (["tests.toy_system.system.CoinSystem"],
     'DICE_EXTRA_SYSTEMS[0] "tests.toy_system.system.CoinSystem" is the class CoinSystem: name an instance '
     'of it (a System object).'),
    (["tests.test_extra_systems.V5_AGAIN"],
     'DICE_EXTRA_SYSTEMS[0] "tests.test_extra_systems.V5_AGAIN" has the key "v5" of the package\'s own '
     'system; give it a key of its own.'),
    (["tests.test_extra_systems.UPPER"],
     'DICE_EXTRA_SYSTEMS[0] "tests.test_extra_systems.UPPER" has the key "Coin": a key is lower-case '
     'letters, digits and _, starting with a letter, as DICE_SYSTEM names it.'),
    ([TOY, TOY],
     'DICE_EXTRA_SYSTEMS[1] "tests.toy_system.system.SYSTEM" has the key "coin" of DICE_EXTRA_SYSTEMS[0] too.'),
])
def test_each_bad_value_is_one_line_and_registers_nothing(value, line):
    with override_settings(DICE_EXTRA_SYSTEMS=value):
        assert configured.register_extra_systems() == line
        assert start_problem() == line  # the line `ready()` prints before SystemExit(1)
    assert "coin" not in systems.available()


def test_ready_prints_the_line_and_stops(capsys):
    from django.apps import apps

    with override_settings(DICE_EXTRA_SYSTEMS=["nowhere_at_all.SYSTEM"]), pytest.raises(SystemExit) as stop:
        apps.get_app_config("rolllog").ready()
    assert stop.value.code == 1
    assert capsys.readouterr().err == (
        'DICE_EXTRA_SYSTEMS[0] "nowhere_at_all.SYSTEM" cannot be imported (No module named \'nowhere_at_all\').\n')
