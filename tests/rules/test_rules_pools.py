"""Pool expressions (rules.pools) and the V5 sheet's trait table (rules.v5.sheet)."""

import pytest

from storyteller_dice.rules.v5 import sheet as v5_sheet
from storyteller_dice.rules.errors import DiceError, PoolError, PoolTooLarge
from storyteller_dice.rules.pools import MAX_POOL, Term, build_pool, parse


def sheet(**values):
    base = {name.replace("_", " "): value for name, value in values.items()}
    return v5_sheet.trait_table(base, {"brawl": ("Grappling", "Kindred")})


TABLE = sheet(dexterity=3, stealth=2, strength=4, brawl=3, intelligence=2, intimidation=1,
              animal_ken=2, auspex=2)


def test_parse_terms():
    assert parse("dex + stealth + 2 - 1") == (
        Term(1, name="dex"), Term(1, name="stealth"), Term(1, number=2), Term(-1, number=1)
    )
    assert parse("str+brawl (grappling)")[1] == Term(1, name="brawl", specialty="grappling")
    assert parse("str+brawl(grappling)")[1] == Term(1, name="brawl", specialty="grappling")
    assert parse("7") == (Term(1, number=7),)


@pytest.mark.parametrize(
    "expression, total, described",
    [
        ("dexterity+stealth", 5, "Dexterity 3 + Stealth 2 = 5"),
        ("dex + stealth + 2 - 1", 6, "Dexterity 3 + Stealth 2 + 2 - 1 = 6"),
        ("DEX+STEALTH", 5, "Dexterity 3 + Stealth 2 = 5"),
        ("str+brawl(grappling)", 8, "Strength 4 + Brawl 3 + Grappling specialty 1 = 8"),
        ("str+brawl (grap)", 8, "Strength 4 + Brawl 3 + Grappling specialty 1 = 8"),
        ("7", 7, "7"),
        ("int+intim", 3, "Intelligence 2 + Intimidation 1 = 3"),
        ("wits+animal ken", 3, "Wits 1 + Animal Ken 2 = 3"),
        ("wits+animalken", 3, "Wits 1 + Animal Ken 2 = 3"),
        ("res+ausp", 3, "Resolve 1 + Auspex 2 = 3"),
    ],
)
def test_resolve(expression, total, described):
    pool = build_pool(expression, TABLE)
    assert pool.total == total and pool.dice == total
    assert pool.describe() == described


def test_describe_shows_each_value():
    pool = build_pool("dex+stealth+2-1", TABLE)
    assert [(p.label, p.contribution) for p in pool.parts] == [
        ("Dexterity", 3), ("Stealth", 2), ("2", 2), ("1", -1)
    ]


def test_ambiguous_prefix_lists_candidates():
    with pytest.raises(PoolError) as err:
        build_pool("st+dex", TABLE)
    message = str(err.value)
    assert "'st' is ambiguous" in message
    for name in ("Stamina", "Stealth", "Streetwise", "Strength"):
        assert name in message


def test_unknown_name_refused_by_name():
    with pytest.raises(PoolError, match="no trait called 'sneaking'"):
        build_pool("dex+sneaking", TABLE)


def test_specialty_must_be_owned():
    with pytest.raises(PoolError, match="no Brawl Specialty 'boxing'"):
        build_pool("str+brawl(boxing)", TABLE)
    with pytest.raises(PoolError, match="no Stealth Specialty"):
        build_pool("dex+stealth(urban)", TABLE)
    with pytest.raises(PoolError, match="not a Skill"):
        build_pool("str(big)+brawl", TABLE)
    with pytest.raises(PoolError, match="Only one Specialty"):
        build_pool("str+brawl(grappling)+brawl(kindred)", TABLE)


def test_pool_bounds():
    assert build_pool("dex-5", TABLE).dice == 1  # never below one die
    assert build_pool(str(MAX_POOL)).dice == MAX_POOL
    with pytest.raises(PoolTooLarge, match="51 dice"):
        build_pool(f"{MAX_POOL}+1")
    with pytest.raises(PoolError):
        build_pool("99999999")


@pytest.mark.parametrize(
    "expression",
    ["", "dex+", "dex stealth", "dex++stealth", "dex+stealth)", "dex+(x)", "str+brawl()",
     "dex*2", "dex+" * 30 + "1", "x" * 300],
)
def test_malformed_expressions_refused(expression):
    with pytest.raises(PoolError):
        build_pool(expression, TABLE)


def test_numbers_only_without_a_sheet():
    assert build_pool("5+2").dice == 7
    with pytest.raises(PoolError, match="only numbers"):
        build_pool("dex+2")


def test_sheet_ranges_refuse_never_clamp():
    values = v5_sheet.clamp_all({})
    assert values["strength"] == 1 and values["stealth"] == 0 and values["hunger"] == 1
    assert values["humanity"] == 7 and values["blood potency"] == 1
    for trait, bad in (("strength", 0), ("strength", 6), ("stealth", -1), ("hunger", 6),
                       ("humanity", 11), ("blood potency", 11), ("stains", 11)):
        with pytest.raises(DiceError):
            v5_sheet.check_value(trait, bad, values)
    assert v5_sheet.check_value("stains", 4, values) == 4  # beyond 10 - Humanity 7: kept


def test_damage_fits_the_track():
    values = v5_sheet.clamp_all({"composure": 2, "resolve": 3, "willpower superficial": 2})
    assert v5_sheet.limits("willpower aggravated", values) == (0, 3)
    with pytest.raises(DiceError):
        v5_sheet.check_value("willpower aggravated", 4, values)
    # A smaller track clamps stored damage on reading.
    shrunk = v5_sheet.clamp_all({"composure": 1, "resolve": 1, "willpower superficial": 5})
    assert shrunk["willpower superficial"] == 2


def test_derived_maxima_in_pools():
    table = v5_sheet.trait_table({"composure": 3, "resolve": 2, "humanity": 6}, {})
    assert build_pool("willpower", table).total == 5
    hurt = v5_sheet.trait_table({"composure": 3, "resolve": 2, "willpower superficial": 1,
                                 "willpower aggravated": 1}, {})
    assert build_pool("willpower", hurt).total == 3  # the undamaged boxes
    assert build_pool("humanity", table).total == 6


def test_match_settable():
    assert v5_sheet.match_settable("bp") == "blood potency"
    assert v5_sheet.match_settable("willpower sup") == "willpower superficial"
    with pytest.raises(DiceError, match="Composure \\+ Resolve"):
        v5_sheet.match_settable("willpower")
