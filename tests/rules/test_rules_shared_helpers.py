"""
The pieces several systems share instead of each writing them: the Specialty lookup and name
check (rules.pools), the whole-number reader (rules.engine), V5's scored outcome (rules.v5), and
the contract name `rules.<...>` standing for the package's own modules, subpackages included.
"""

import dataclasses
import importlib
import sys

import pytest

from storyteller_dice.rules import v5
from storyteller_dice.rules.engine import read_whole
from storyteller_dice.rules.errors import DiceError, PoolError
from storyteller_dice.rules.pools import TraitTable, clean_specialty, owned_specialty, parse

TABLE = TraitTable(values={"brawl": 3, "dexterity": 2}, specialties={"brawl": ("Grappling", "Kindred")},
                   aliases={}, specialty_traits=frozenset({"brawl"}))


def test_owned_specialty_matches_as_trait_names_do():
    assert owned_specialty(TABLE, "brawl", "grap", "Brawl") == "Grappling"
    assert owned_specialty(TABLE, "brawl", "KINDRED", "Brawl") == "Kindred"


def test_owned_specialty_refusals_name_what_the_character_has():
    with pytest.raises(PoolError, match=r"^You have no Brawl Specialty 'Knives' \(yours: Grappling, Kindred\)\.$"):
        owned_specialty(TABLE, "brawl", "Knives", "Brawl")
    with pytest.raises(PoolError, match=r"^You have no Dexterity Specialty\.$"):
        owned_specialty(TABLE, "dexterity", "Fast", "Dexterity")


def test_clean_specialty_speaks_the_systems_words():
    focus = dict(word="Focus", words="Focuses", allowed=str.isalpha, allowed_text="use letters only")
    assert clean_specialty("  Cut   ", (), "Swords", 20, 2, **focus) == "Cut"
    refusals = [("", (), "Name the Focus."), ("x" * 21, (), "Focus names are at most 20 characters."),
                ("Cut2", (), "Focus names use letters only."), ("cut", ("Cut",), "Swords already has the Focus cut."),
                ("Thrust", ("Cut", "Parry"), "Swords already has 2 Focuses.")]
    for typed, owned, line in refusals:
        with pytest.raises(PoolError) as err:
            clean_specialty(typed, owned, "Swords", 20, 2, **focus)
        assert str(err.value) == line
    with pytest.raises(PoolError, match=r"^Specialty names use letters, digits, spaces, ' - and & only\.$"):
        clean_specialty("Knives!", (), "Brawl", 20, 2)


def test_parse_reads_signs_spaces_and_specialties_as_before():
    assert [(t.sign, t.name or t.number, t.specialty) for t in parse(" - 2 +dex -  brawl ( Grappling )")] == [
        (-1, 2, None), (1, "dex", None), (-1, "brawl", "Grappling")]
    for typed, line in [("dex +", "The pool expression ends with an operator; add a trait or a number after it."),
                        ("-", "The pool expression ends with an operator; add a trait or a number after it."),
                        ("dex 2", "Expected + or - before '2'."),
                        ("dex+(x)", "I can't read '(x)' in the pool: use traits, numbers, + and -."),
                        ("2(x)", "A Specialty in parentheses goes right after a Skill, like str+brawl(grappling)."),
                        ("brawl()", "The parentheses after 'brawl' are empty: name the Specialty.")]:
        with pytest.raises(PoolError) as err:
            parse(typed)
        assert str(err.value) == line


def test_read_whole_quotes_the_typed_text_as_asked():
    with pytest.raises(DiceError, match=r"^A number, not 'x{20}\.\.\.'\.$"):
        read_whole("x" * 30, "A number")
    with pytest.raises(DiceError, match=r"^A number, not '<\|\|x>'\.$"):
        read_whole("<|x>", "A number", shown=lambda typed: typed.replace("|", "||"))
    assert read_whole("0003", "A number") == 3


def test_v5_outcome_fields_are_declared_once():
    @dataclasses.dataclass(frozen=True)
    class Scored(v5.Outcome):
        who: str

    scored = Scored("Alice", difficulty=2, successes=3, win=True, margin=1, critical=False, messy_critical=False,
                    bestial_failure=False, total_failure=False)
    assert (scored.outcome, scored.outcome_label, scored.margin_label) == ("solid", "solid success", "solid success")
    result = v5.evaluate([10, 10], [1], 2)
    assert (result.regular, result.successes, result.outcome) == ((10, 10), 4, "critical")
