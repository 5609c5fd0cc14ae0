"""
The V5 character sheet: which traits exist, their ranges and defaults, and the values derived
from them. Pure data and checks; the typeclass stores the values.

Ranges (a value outside is refused with a message, never clamped on the way in):

- Attributes 1-5 (default 1); Skills 0-5 (default 0); Disciplines 0-5 (0 = not known).
- Hunger 0-5 (default 1, as a newly Embraced vampire), Humanity 0-10 (default 7),
  Stains 0-10, Blood Potency 0-10 (default 1).
- Stains fill the empty Humanity boxes (10 - Humanity). Stains beyond them are kept
  (docs/v5.md, V5 core): each Stain that does not fit (`overflow_stains`) is one Aggravated
  Willpower damage, dealt when the Stain is taken (`stain_changes`), and the character is
  Impaired (`impaired`: -2 to every pool, `impairment`) until the Remorse test clears the
  Stains. **Rulings**: the damage is dealt once, when a Stain that does not fit is added
  (lowering Stains heals nothing; raising Humanity over Stains already held deals none, it
  only makes the character Impaired); Aggravated damage that finds the track full of
  Superficial damage replaces Superficial boxes, and a full track of Aggravated damage takes
  no more (the Storyteller plays out the consequences). The -2 applies to every pool the
  character rolls (rating-only rolls and frenzy tests included) and a pool never drops
  below 1 die; the Remorse test is the way out, at its minimum of 1 die anyway.
- Willpower: maximum Composure + Resolve; Health: maximum Stamina + 3. Each has Superficial
  and Aggravated damage, together at most the maximum. When a lower Attribute shrinks a
  maximum, stored damage is read clamped to it (values are clamped to their ranges).
  **Ruling**: Aggravated damage is kept first (it is the worse), Superficial fills the rest.

A Specialty needs at least one dot in its Skill.
"""

from ..errors import DiceError
from ..pools import TraitTable, clean_specialty, match_name, normalize

ATTRIBUTES = {
    "physical": ("strength", "dexterity", "stamina"),
    "social": ("charisma", "manipulation", "composure"),
    "mental": ("intelligence", "wits", "resolve"),
}
SKILLS = {
    "physical": ("athletics", "brawl", "craft", "drive", "firearms", "larceny", "melee", "stealth", "survival"),
    "social": ("animal ken", "etiquette", "insight", "intimidation", "leadership", "performance",
               "persuasion", "streetwise", "subterfuge"),
    "mental": ("academics", "awareness", "finance", "investigation", "medicine", "occult", "politics",
               "science", "technology"),
}
DISCIPLINES = (
    "animalism", "auspex", "blood sorcery", "celerity", "dominate", "fortitude", "obfuscate",
    "oblivion", "potence", "presence", "protean", "thin blood alchemy",
)
ALL_ATTRIBUTES = tuple(name for group in ATTRIBUTES.values() for name in group)
ALL_SKILLS = tuple(name for group in SKILLS.values() for name in group)

# The abbreviations every V5 player types; they win over prefix matching (`int` would
# otherwise be ambiguous between Intelligence and Intimidation).
ALIASES = {
    "str": "strength", "dex": "dexterity", "sta": "stamina", "stam": "stamina",
    "cha": "charisma", "char": "charisma", "man": "manipulation", "manip": "manipulation",
    "com": "composure", "comp": "composure", "int": "intelligence", "wit": "wits",
    "res": "resolve", "bp": "blood potency", "wp": "willpower", "hum": "humanity",
    "tba": "thin blood alchemy", "bs": "blood sorcery",
}

# Single ratings a pool may use besides Attributes, Skills and Disciplines (frenzy, remorse).
RATINGS = ("humanity", "willpower", "blood potency")

# Trackers set with +stat besides the dotted traits; (minimum, maximum, default).
TRACKERS = {
    "hunger": (0, 5, 1),
    "humanity": (0, 10, 7),
    "stains": (0, 10, 0),
    "blood potency": (0, 10, 1),
    "willpower superficial": (0, None, 0),
    "willpower aggravated": (0, None, 0),
    "health superficial": (0, None, 0),
    "health aggravated": (0, None, 0),
}

MAX_SPECIALTY_LENGTH = 30
MAX_SPECIALTIES_PER_SKILL = 5


def kind_of(trait):
    """'attribute', 'skill', 'discipline' or 'tracker'."""
    if trait in ALL_ATTRIBUTES:
        return "attribute"
    if trait in ALL_SKILLS:
        return "skill"
    if trait in DISCIPLINES:
        return "discipline"
    if trait in TRACKERS:
        return "tracker"
    raise DiceError(f"There is no trait called '{trait}'.")


def default_value(trait):
    kind = kind_of(trait)
    if kind == "attribute":
        return 1
    if kind == "tracker":
        return TRACKERS[trait][2]
    return 0


def settable_traits():
    return ALL_ATTRIBUTES + ALL_SKILLS + DISCIPLINES + tuple(TRACKERS)


def match_settable(typed):
    """The settable trait meant by `typed` (full name, abbreviation or unique prefix)."""
    key = normalize(typed)
    if key in ("willpower", "wp", "health"):
        raise DiceError(
            f"{typed.strip().title()}'s maximum is derived ("
            + ("Composure + Resolve" if key != "health" else "Stamina + 3")
            + f"); set its damage with '{'willpower' if key != 'health' else 'health'} superficial' "
            "or '... aggravated'."
        )
    return match_name(typed, settable_traits(), ALIASES)


def willpower_max(values):
    return values["composure"] + values["resolve"]


def health_max(values):
    return values["stamina"] + 3


def limits(trait, values):
    """(minimum, maximum) of `trait` given the rest of the sheet."""
    kind = kind_of(trait)
    if kind == "attribute":
        return 1, 5
    if kind in ("skill", "discipline"):
        return 0, 5
    low, high, _ = TRACKERS[trait]
    if trait.startswith("willpower"):
        other = "willpower aggravated" if trait.endswith("superficial") else "willpower superficial"
        return 0, max(0, willpower_max(values) - values[other])
    if trait.startswith("health"):
        other = "health aggravated" if trait.endswith("superficial") else "health superficial"
        return 0, max(0, health_max(values) - values[other])
    return low, high


def check_value(trait, value, values):
    """Refuse a value outside the trait's range (with the range in the message)."""
    low, high = limits(trait, values)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        detail = ""
        if trait == "stains":
            detail = " (Stains beyond the empty Humanity boxes are Aggravated Willpower damage)"
        elif trait.startswith(("willpower", "health")):
            detail = " (Superficial and Aggravated together fit in the track)"
        raise DiceError(f"{trait.title()} must be from {low} to {high}{detail}.")
    return value


def clamp_all(values):
    """Values read back in range: damage and Stains shrink when their track shrinks."""
    values = dict(values)
    for trait in settable_traits():
        values.setdefault(trait, default_value(trait))
    for trait in ("stains", "willpower aggravated", "willpower superficial",
                  "health aggravated", "health superficial"):
        low, high = limits(trait, values)
        if trait.endswith("aggravated"):
            # Aggravated damage is kept first: it fits in the whole track, and Superficial
            # damage (clamped next) fills what is left.
            high = willpower_max(values) if trait.startswith("willpower") else health_max(values)
        values[trait] = min(max(values[trait], low), high)
    return values


IMPAIRED_PENALTY = 2
IMPAIRED_NOTE = f"Impaired (Stains beyond Humanity): -{IMPAIRED_PENALTY} dice until the Remorse test"


def empty_humanity_boxes(values):
    """Humanity boxes Stains can fill: 10 - Humanity."""
    return 10 - values["humanity"]


def overflow_stains(values):
    """Stains that do not fit in the empty Humanity boxes (0 when they all fit)."""
    return max(0, values["stains"] - empty_humanity_boxes(values))


def impaired(values):
    """True while Stains overflow Humanity (until the Remorse test)."""
    return overflow_stains(values) > 0


def impairment(values):
    """Dice to take off every pool: IMPAIRED_PENALTY when `impaired`, else 0."""
    return IMPAIRED_PENALTY if impaired(values) else 0


def impaired_dice(dice, values):
    """A pool's dice after impairment, never below 1 die."""
    return max(1, dice - impairment(values))


def stain_changes(values, stains):
    """
    The sheet changes of setting Stains to `stains` (0-10): {"stains": ...} plus, when more
    Stains now overflow than before, the Willpower damage they deal (one Aggravated each, see
    the module docstring's Rulings for a full track).

    Returns:
        dict: trait -> new value, in the order to apply them: "stains" always; when a Stain
        overflows, "willpower superficial" (only if it shrinks) and "willpower aggravated".
    """
    values = clamp_all(values)
    check_value("stains", stains, values)
    before = overflow_stains(values)
    after = overflow_stains(dict(values, stains=stains))
    changes = {"stains": stains}
    extra = after - before
    if extra <= 0:
        return changes
    maximum = willpower_max(values)
    aggravated = min(maximum, values["willpower aggravated"] + extra)
    superficial = min(values["willpower superficial"], maximum - aggravated)
    # Superficial first: applied in this order each value stays within the track.
    if superficial != values["willpower superficial"]:
        changes["willpower superficial"] = superficial
    changes["willpower aggravated"] = aggravated
    return changes


def check_specialty(skill, specialty, values, owned):
    """Refuse a Specialty that cannot be added; returns the cleaned name."""
    if kind_of(skill) != "skill":
        raise DiceError(f"Only Skills have Specialties; {skill.title()} is not a Skill.")
    if values.get(skill, 0) < 1:
        raise DiceError(f"A Specialty needs at least one dot in {skill.title()}.")
    return clean_specialty(specialty, owned, skill.title(), MAX_SPECIALTY_LENGTH, MAX_SPECIALTIES_PER_SKILL)


def trait_table(values, specialties):
    """What pool expressions can use from this sheet (see rules.pools)."""
    values = clamp_all(values)
    rollable = {name: values[name] for name in ALL_ATTRIBUTES + ALL_SKILLS + DISCIPLINES}
    rollable["humanity"] = values["humanity"]
    rollable["blood potency"] = values["blood potency"]
    # Willpower rolls use the undamaged boxes (as the frenzy test does), not the maximum.
    rollable["willpower"] = (willpower_max(values) - values["willpower superficial"]
                             - values["willpower aggravated"])
    return TraitTable(
        values=rollable,
        specialties={skill: tuple(specs) for skill, specs in specialties.items()},
        aliases=ALIASES,
        specialty_traits=frozenset(ALL_SKILLS),
    )
