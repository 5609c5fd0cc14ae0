"""
Classic Storyteller (V20, docs/v20.md) behind the seam (`rules.engine`): the sheet
and the `System` object the shared commands, the display and the roll log use. The counting
lives in `rules.v20`, the health track in `rules.v20.health`; this module reads what players
type, applies what the sheet says (defaulting, wound penalties, Specialties) and translates
results into the system-neutral shapes.

Syntax: `+roll <pool> [vs <difficulty>]`, `+check <number> [vs <difficulty>]`. The difficulty
is the face each die needs, 2 to 10, default 6; a typed difficulty outside 2..10 is refused
("vs 11" is an error, not a silent 10). Switches (`roll_switches`):

- `/spec`: 10s count two successes. Automatic when the pool names a Specialty the character
  has, after the trait it belongs to: `dex+brawl(grappling)`. A Specialty adds no die in V20.
- `/willpower`: one success that 1s cannot cancel, and no botch. The option is on the
  request; the command layer spends the point: `costs(request)` says what to take off the
  sheet (`{"willpower temporary": 1}`), and `parse` refuses when the roller has too little.
- `/ignorepain`: 1 Willpower to ignore the wound penalty for this roll (one turn).
  **Ruling**: `/willpower` and `/ignorepain` together are refused: a character spends at most
  one Willpower point on an action (and the book's one a turn), and the pair would spend two.
  Ignoring the pain for the turn and buying the success are two uses of that one point: the
  player picks one.
- `/auto`: one marginal success without rolling, only when the pool (after the wound
  penalty) is at least the difficulty; refused otherwise and refused with `/willpower`.
- `/retry`: +1 difficulty per earlier failed attempt at the same action. The count is the
  command layer's (per character and action, `action_key(request)`): it puts it in the
  roller's state as `retry_failures`; `failures_after(count, result)` is the next count.

Around every roll: an Ability at 0 defaults (a Talent rolls the Attribute alone, a Skill the
Attribute at +1 difficulty, a Knowledge is refused: `rules.v20.default_pool`); the wound
penalty in the roller's state (`wound_penalty`, from the health track) comes off the pool and
is shown ("Injured: -1 die"); an Incapacitated character cannot roll; Humanity/Path, Willpower
and the Virtues are rating-only pools: no other trait may be added to them (numbers may: the
Storyteller's bonus or penalty dice).

Looks. Dice carry marks from `rules.v20`'s per-die marks: a standing success "success"; a
Specialty 10 "success" + "double"; a Specialty 10 that lost one of its two successes
"success" + "double" + "cancelled" (it still counts one); a cancelled success "cancelled"
(+ "double" for a Specialty 10): no "success", it counts nothing; a 1 that cancelled a success
"cancels"; a 1 left over "one" (it makes the botch); anything else "fail". The score is the net
successes (noun "success"/"successes"); a note says in plain words which 1s cancelled what
("two 1s cancelled 2 successes"). Outcome keys are the level names (failure, marginal,
moderate, complete, exceptional, phenomenal) and "botch".

The sheet: 9 Attributes (1-5, default 1); Talents, Skills and Knowledges (0-5, the V20 core
lists; each Ability knows its category); Specialties; the V20 Disciplines (0-5); the Virtues
Conscience, Self-Control and Courage (1-5, default 1); Humanity/Path (0-10, default 7);
Willpower permanent (1-10, default 1) and temporary (0 to permanent, default: permanent);
Generation (4-15, default 13) and the Blood Pool (0 to the Generation's maximum, default: full);
Bashing, Lethal and Aggravated health levels (together at most 7). On `+sheet` the health
track is seven boxes, Aggravated `*`, Lethal `X`, Bashing `/`, empty `.` (the V20 book's
marks), marked Aggravated first; Willpower is one box per permanent point, `X` for each
temporary point left, `.` for each spent.

**Rulings** (the rules are silent):

- Defaulting applies once per roll: any untrained Skill in the pool gives +1 difficulty (not
  +1 each); any untrained Knowledge refuses the roll. A subtracted Ability never defaults.
- `/spec` without a named Specialty is the player's claim (as the Storyteller allows); a named
  Specialty must be on the sheet. Attributes and Abilities may carry Specialties once they
  have a dot (V20's "4 dots" guideline, and the Abilities that need one from the first dot,
  are the Storyteller's to check at approval).
- Difficulty modifiers (defaulting, retry) add up and stop at 2 and 10, and the roll says so.
- The wound penalty applies to every pool, rating-only ones and `+check` included; a pool it
  brings to 0 dice cannot be rolled.
- Willpower rolls use the permanent rating (V20); temporary Willpower is what is spent.
- Health damage is staff-only on `+stat` (it changes through `+damage` and `+heal`).
- Generation sets the Blood Pool's maximum and the blood points a turn (V20 table); trait
  ratings stay 1-5 (0-5) whatever the Generation.
- The Path's name is not on the sheet (sheet values are numbers): "path" is Humanity's alias.

The odds without a sheet (`odds_inputs`, the website's odds page): dice, difficulty, the
switches that change the odds (/spec, /willpower, /ignorepain, /auto) and the health level,
whose wound penalty comes off the pool as the sheet's would. **Rulings**: the page assumes the
Willpower a switch needs is there (odds spend nothing; in the game +odds refuses a switch the
sheet cannot pay); /retry is not offered, since +odds counts no earlier attempts (raise the
difficulty instead).
"""

from dataclasses import replace
from fractions import Fraction

from .. import v20
from . import health as v20_health
from ..display import DIRE_CSS, DIRE_STYLE
from ..engine import Example, MarkLook
from ..engine import (CANCELLED, CANCELS, CHOICE, DOUBLE, FAIL, FLAG, ONE, SUCCESS, Chance, DiceGroup, Die,
                     OddsInput, OddsView, Outcome, Roller, RollRequest, RollView, Sheet, SheetSection, System,
                     plural, read_whole, split_vs)
from ..errors import DiceError, PoolError
from ..pools import Pool, TraitTable, clean_specialty, match_name, normalize, parse
from ..pools import owned_specialty, term_part

# ---------------------------------------------------------------- the sheet's traits

ATTRIBUTES = {
    "physical": ("strength", "dexterity", "stamina"),
    "social": ("charisma", "manipulation", "appearance"),
    "mental": ("perception", "intelligence", "wits"),
}
ABILITIES = {
    "talent": ("alertness", "athletics", "awareness", "brawl", "empathy", "expression", "intimidation",
               "leadership", "streetwise", "subterfuge"),
    "skill": ("animal ken", "crafts", "drive", "etiquette", "firearms", "larceny", "melee", "performance",
              "stealth", "survival"),
    "knowledge": ("academics", "computer", "finance", "investigation", "law", "medicine", "occult", "politics",
                  "science", "technology"),
}
DISCIPLINES = (
    "animalism", "auspex", "celerity", "chimerstry", "dementation", "dominate", "fortitude", "necromancy",
    "obfuscate", "obtenebration", "potence", "presence", "protean", "quietus", "serpentis", "thaumaturgy",
    "vicissitude",
)
VIRTUES = ("conscience", "self control", "courage")
ALL_ATTRIBUTES = tuple(name for group in ATTRIBUTES.values() for name in group)
ALL_ABILITIES = tuple(name for group in ABILITIES.values() for name in group)
CATEGORY = {name: category for category, names in ABILITIES.items() for name in names}

WILLPOWER = "willpower"  # permanent
WILLPOWER_LEFT = "willpower temporary"
HUMANITY = "humanity"
GENERATION = "generation"
BLOOD = "blood pool"
HEALTH = {v20_health.BASHING: "health bashing", v20_health.LETHAL: "health lethal",
          v20_health.AGGRAVATED: "health aggravated"}
RATING_ONLY = (HUMANITY, WILLPOWER) + VIRTUES

# (minimum, maximum, default) of the single ratings; the derived maximums are in `limits`.
TRACKERS = {
    HUMANITY: (0, 10, 7),
    WILLPOWER: (1, 10, 1),
    WILLPOWER_LEFT: (0, 10, 1),
    GENERATION: (4, 15, 13),
    BLOOD: (0, 50, 10),
    HEALTH[v20_health.BASHING]: (0, v20_health.BOXES, 0),
    HEALTH[v20_health.LETHAL]: (0, v20_health.BOXES, 0),
    HEALTH[v20_health.AGGRAVATED]: (0, v20_health.BOXES, 0),
}

# Generation -> (Blood Pool maximum, blood points a turn), V20 core.
GENERATIONS = {4: (50, 10), 5: (40, 8), 6: (30, 6), 7: (20, 4), 8: (15, 3), 9: (14, 2), 10: (13, 1),
               11: (12, 1), 12: (11, 1), 13: (10, 1), 14: (10, 1), 15: (10, 1)}

TITLES = {"self control": "Self-Control"}

# The abbreviations V20 players type; an alias beats a prefix (`int` is Intelligence, not
# ambiguous with Intimidation; `per` is Perception, not Performance).
ALIASES = {
    "str": "strength", "dex": "dexterity", "sta": "stamina", "stam": "stamina",
    "cha": "charisma", "char": "charisma", "man": "manipulation", "manip": "manipulation",
    "app": "appearance", "per": "perception", "perc": "perception", "int": "intelligence",
    "wit": "wits", "ak": "animal ken", "wp": WILLPOWER, "hum": HUMANITY, "path": HUMANITY,
    "sc": "self control", "con": "conscience", "cou": "courage",
    "twp": WILLPOWER_LEFT, "wpt": WILLPOWER_LEFT, "temporarywillpower": WILLPOWER_LEFT,
    "gen": GENERATION, "bp": BLOOD, "blood": BLOOD,
    "bashing": HEALTH["bashing"], "lethal": HEALTH["lethal"], "aggravated": HEALTH["aggravated"],
    "agg": HEALTH["aggravated"],
}

MAX_SPECIALTY_LENGTH = 30
MAX_SPECIALTIES_PER_TRAIT = 5

LEVEL_TONES = {
    "botch": "disaster",
    "failure": "bad",
    "marginal": "good",
    "moderate": "good",
    "complete": "good",
    "exceptional": "triumph",
    "phenomenal": "triumph",
}

# rules.v20's per-die marks -> the engine's (see the module docstring).
DIE_MARKS = {
    v20.SUCCESS: frozenset({SUCCESS}),
    v20.DOUBLE: frozenset({SUCCESS, DOUBLE}),
    v20.HALF: frozenset({SUCCESS, DOUBLE, CANCELLED}),
    v20.CANCELLED: frozenset({CANCELLED}),
    v20.CANCELS: frozenset({CANCELS}),
    v20.ONE: frozenset({ONE}),
    v20.FAIL: frozenset({FAIL}),
}

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def title(trait):
    return TITLES.get(trait, trait.title())


def _count(number):
    return _WORDS[number] if number < len(_WORDS) else str(number)


def ones_text(number):
    """`one 1`, `two 1s`: the face 1, counted in words so that it does not read as a sum."""
    return f"{_count(number)} 1{'' if number == 1 else 's'}"


def kind_of(trait):
    if trait in ALL_ATTRIBUTES:
        return "attribute"
    if trait in CATEGORY:
        return CATEGORY[trait]
    if trait in DISCIPLINES:
        return "discipline"
    if trait in VIRTUES:
        return "virtue"
    if trait in TRACKERS:
        return "tracker"
    raise DiceError(f"There is no trait called '{trait}'.")


def settable_traits():
    return ALL_ATTRIBUTES + ALL_ABILITIES + DISCIPLINES + VIRTUES + tuple(TRACKERS)


def blood_max(values):
    return GENERATIONS[values[GENERATION]][0]


def blood_per_turn(values):
    return GENERATIONS[values[GENERATION]][1]


def health_track(values):
    return v20_health.HealthTrack(bashing=values[HEALTH["bashing"]], lethal=values[HEALTH["lethal"]],
                                  aggravated=values[HEALTH["aggravated"]])


HEALTH_MARKS = {v20_health.AGGRAVATED: "*", v20_health.LETHAL: "X", v20_health.BASHING: "/", None: "."}


def health_boxes(track):
    """The seven boxes as the sheet draws them: `*` Aggravated, `X` Lethal, `/` Bashing, `.` empty."""
    return "".join(HEALTH_MARKS[box] for box in track.boxes)


def health_state(track):
    """The track in words: "Healthy", "Injured: -1 die", "Incapacitated: cannot act" ..."""
    if track.incapacitated:
        return "Incapacitated: cannot act"
    if track.penalty:
        return f"{track.level}: {track.penalty} {'die' if track.penalty == -1 else 'dice'}"
    if track.marked:
        return f"{track.level}: no penalty"
    return "Healthy"


def limits(trait, values):
    """(minimum, maximum) of `trait` given the rest of the sheet."""
    kind = kind_of(trait)
    if kind in ("attribute", "virtue"):
        return 1, 5
    if kind != "tracker":
        return 0, 5
    low, high, _ = TRACKERS[trait]
    if trait == WILLPOWER_LEFT:
        return 0, values[WILLPOWER]
    if trait == BLOOD:
        return 0, blood_max(values)
    if trait in HEALTH.values():
        others = sum(values[other] for other in HEALTH.values() if other != trait)
        return 0, max(0, v20_health.BOXES - others)
    return low, high


class V20Sheet(Sheet):
    staff_only = frozenset(HEALTH.values())
    # A spent point comes off the temporary Willpower (the permanent rating stays).
    willpower_trait = WILLPOWER_LEFT
    willpower_step = -1
    no_willpower = "That needs {need} temporary Willpower and you have {left} left."

    def defaults(self):
        values = {}
        for trait in settable_traits():
            kind = kind_of(trait)
            values[trait] = TRACKERS[trait][2] if kind == "tracker" else 1 if kind in ("attribute", "virtue") else 0
        return values

    def clamp(self, values):
        given = dict(values)
        merged = self.defaults()
        merged.update({key: value for key, value in given.items() if key in merged})
        # Unset pools start full: temporary Willpower at the permanent rating, blood at the maximum.
        for trait in settable_traits():
            if trait in TRACKERS and trait not in (WILLPOWER_LEFT, BLOOD) + tuple(HEALTH.values()):
                low, high = limits(trait, merged)
                merged[trait] = min(max(merged[trait], low), high)
            elif trait not in TRACKERS:
                low, high = limits(trait, merged)
                merged[trait] = min(max(merged[trait], low), high)
        if WILLPOWER_LEFT not in given:
            merged[WILLPOWER_LEFT] = merged[WILLPOWER]
        if BLOOD not in given:
            merged[BLOOD] = blood_max(merged)
        merged[WILLPOWER_LEFT] = min(max(merged[WILLPOWER_LEFT], 0), merged[WILLPOWER])
        merged[BLOOD] = min(max(merged[BLOOD], 0), blood_max(merged))
        # Aggravated is kept first, then Lethal, then Bashing: the worse wounds stay on the track.
        room = v20_health.BOXES
        for kind in (v20_health.AGGRAVATED, v20_health.LETHAL, v20_health.BASHING):
            merged[HEALTH[kind]] = min(max(merged[HEALTH[kind]], 0), room)
            room -= merged[HEALTH[kind]]
        return merged

    def match(self, typed):
        if normalize(typed) == "health":
            raise DiceError("Health is a track: set its damage with 'health bashing', 'health lethal' or "
                            "'health aggravated'.")
        return match_name(typed, settable_traits(), ALIASES)

    def check_value(self, trait, value, values):
        values = self.clamp(values)
        low, high = limits(trait, values)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            detail = ""
            if trait == WILLPOWER_LEFT:
                detail = " (temporary Willpower is at most the permanent rating)"
            elif trait == BLOOD:
                detail = f" (the Blood Pool of Generation {values[GENERATION]})"
            elif trait in HEALTH.values():
                detail = " (the three kinds of damage together fit in 7 health levels)"
            raise DiceError(f"{title(trait)} must be from {low} to {high}{detail}.")
        return value

    def check_specialty(self, skill, specialty, values, owned):
        if skill not in ALL_ATTRIBUTES + ALL_ABILITIES:
            raise DiceError(f"Only Attributes and Abilities have Specialties; {title(skill)} is neither.")
        if self.clamp(values)[skill] < 1:
            raise DiceError(f"A Specialty needs at least one dot in {title(skill)}.")
        return clean_specialty(specialty, owned, title(skill), MAX_SPECIALTY_LENGTH, MAX_SPECIALTIES_PER_TRAIT)

    def traits(self, values, specialties):
        values = self.clamp(values)
        rollable = {name: values[name] for name in ALL_ATTRIBUTES + ALL_ABILITIES + DISCIPLINES + RATING_ONLY}
        return TraitTable(
            values=rollable,
            specialties={trait: tuple(names) for trait, names in specialties.items()},
            aliases=ALIASES,
            specialty_traits=frozenset(ALL_ATTRIBUTES + ALL_ABILITIES),
        )

    def state(self, values):
        values = self.clamp(values)
        track = health_track(values)
        return {
            "wound_penalty": track.penalty or 0,
            "incapacitated": track.incapacitated,
            "health_level": track.level,
            "health": {kind: track.count(kind) for kind in v20_health.DAMAGE_TYPES},
            "willpower_left": values[WILLPOWER_LEFT],
            "willpower_max": values[WILLPOWER],
            "blood_pool": values[BLOOD],
            "blood_pool_max": blood_max(values),
            "blood_per_turn": blood_per_turn(values),
            "humanity": values[HUMANITY],
            "generation": values[GENERATION],
        }

    def vitals(self, values):
        """
        Willpower (temporary of permanent), the Blood Pool, the health track (boxes left, the
        level's name and its dice penalty: null when Incapacitated, no action) and Humanity.
        """
        values = self.clamp(values)
        track = health_track(values)
        return {
            "willpower": {"current": values[WILLPOWER_LEFT], "max": values[WILLPOWER]},
            "blood": {"current": values[BLOOD], "max": blood_max(values), "per_turn": blood_per_turn(values)},
            "health": {"current": v20_health.BOXES - track.marked, "max": v20_health.BOXES,
                       "level": track.level, "penalty": track.penalty,
                       **{kind: track.count(kind) for kind in v20_health.DAMAGE_TYPES}},
            "humanity": values[HUMANITY],
        }

    def layout(self, values, specialties, flags=frozenset()):
        values = self.clamp(values)
        sections = [
            SheetSection("columns", "Attributes", rows=tuple(
                (group.title(), tuple((title(name), values[name]) for name in names))
                for group, names in ATTRIBUTES.items())),
            SheetSection("columns", "Abilities", rows=tuple(
                (category.title() + "s", tuple((title(name), values[name]) for name in names))
                for category, names in ABILITIES.items())),
        ]
        listed = [f"{title(trait)} ({name})" for trait in ALL_ATTRIBUTES + ALL_ABILITIES
                  for name in specialties.get(trait, ())]
        if listed:
            sections.append(SheetSection("line", "Specialties", text=", ".join(listed)))
        known = [f"{title(name)} {values[name]}" for name in DISCIPLINES if values[name]]
        sections.append(SheetSection("line", "Disciplines", text=", ".join(known) or "none"))
        sections.append(SheetSection("line", "Virtues", text="   ".join(
            f"{title(name)} {values[name]}" for name in VIRTUES)))
        sections.append(SheetSection("line", "Humanity", text=f"{values[HUMANITY]}   Generation "
                                                              f"{values[GENERATION]}"))
        sections.append(SheetSection("line", "Blood Pool", text=(
            f"{values[BLOOD]}/{blood_max(values)} (up to {blood_per_turn(values)} a turn)")))
        permanent, left = values[WILLPOWER], values[WILLPOWER_LEFT]
        sections.append(SheetSection("track", "Willpower", boxes="X" * left + "." * (permanent - left),
                                     text=f"{left}/{permanent} left"))
        track = health_track(values)
        sections.append(SheetSection("track", "Health", boxes=health_boxes(track),
                                     text=(f"{health_state(track)} (Aggravated {track.aggravated}, Lethal {track.lethal}, "
                                           f"Bashing {track.bashing})")))
        return tuple(sections)

    def help(self):
        return """\
V20 traits: Attributes 1-5 (str dex sta cha man app per int wit);
Talents, Skills and Knowledges 0-5; Disciplines 0-5; Conscience,
Self-Control, Courage 1-5; Humanity (or Path) 0-10; Willpower 1-10
and 'willpower temporary' 0 to it; Generation 4-15 and 'blood pool' 0
to its maximum. Specialties: +stat spec <trait>=<name> (one dot
needed). Health damage is set by staff ('health bashing', 'health
lethal', 'health aggravated', 7 levels together)."""


# ---------------------------------------------------------------- reading a pool


def resolve_pool(text, table):
    """
    A `rules.pools.Pool` from a pool expression, V20 style: a Specialty named in parentheses
    is recorded on its trait's part (it makes 10s count double) and adds no die; the total
    is not floored (a pool of 0 is refused later, not rolled as 1 die).
    """
    parts = []
    for term in parse(text):
        part = term_part(term, table, title)
        trait, specialty = part.trait, None
        if term.specialty is not None:
            if trait not in table.specialty_traits:
                raise PoolError(f"{title(trait)} has no Specialties: only Attributes and Abilities do.")
            if term.sign < 0:
                raise PoolError("A Specialty cannot be subtracted.")
            specialty = owned_specialty(table, trait, term.specialty, title(trait))
        parts.append(replace(part, specialty=specialty))
    rated = [part.trait for part in parts if part.trait in RATING_ONLY]
    others = [part.trait for part in parts if part.trait]
    if rated and len(others) > 1:
        raise PoolError(f"A {title(rated[0])} roll uses the rating alone: add no other trait to it.")
    # The 50-dice limit is the caller's, on the pool after the wound penalty (`rules.v20.check_pool`).
    return Pool(parts=tuple(parts), total=sum(part.contribution for part in parts))


def _specialty_option(pool, options, notes):
    """A Specialty named in the pool turns /spec on (10s count twice); the Specialty or None."""
    specialty = next((part.specialty for part in pool.parts if part.specialty), None)
    if specialty:
        options.add("spec")
        notes.append(f"Specialty ({specialty}): 10s count twice")
    elif "spec" in options:
        notes.append("Specialty: 10s count twice")
    return specialty


def _untrained_modifier(pool, notes):
    """
    V20's untrained Abilities: a Knowledge at 0 cannot be rolled, a Talent is the Attribute alone,
    a Skill raises the difficulty by 1 (once, however many). The difficulty's modifier.
    """
    untrained = [part for part in pool.parts if part.trait in CATEGORY and part.value == 0 and part.sign > 0]
    for part in untrained:
        if CATEGORY[part.trait] == "knowledge":
            v20.default_pool(0, 0, "knowledge", name=title(part.trait))  # the rule's refusal
    for part in untrained:
        if CATEGORY[part.trait] == "talent":
            notes.append(f"untrained Talent {title(part.trait)}: the Attribute alone, no penalty")
    skills = [part for part in untrained if CATEGORY[part.trait] == "skill"]
    if skills:
        notes.append(f"untrained Skill {title(skills[0].trait)}: difficulty +1")
        return 1
    return 0


def _difficulty(base, pool, failures, notes):
    """The base difficulty raised for untrained Skills and failed retries, within V20's bounds."""
    modifier = _untrained_modifier(pool, notes)
    if failures:
        modifier += failures
        notes.append(f"retry after {plural(failures, 'failed attempt')}: difficulty +{failures}")
    difficulty = v20.clamp_difficulty(base, modifier)
    if modifier and difficulty != base + modifier:
        notes.append(f"difficulty stops at {difficulty}")
    return difficulty


def _wound_penalty(options, state, notes):
    """(dice off the pool, health level's name): the wound penalty, unless /ignorepain spends
    Willpower on it; /ignorepain with no penalty, or with /willpower, is refused."""
    if {"willpower", "ignorepain"} <= options:
        raise DiceError(ONE_WILLPOWER)
    penalty = state.get("wound_penalty", 0) or 0
    level = state.get("health_level", "Injured")
    if penalty and "ignorepain" in options:
        notes.append(f"{level}: {penalty} {'die' if penalty == -1 else 'dice'} ignored (1 Willpower)")
        penalty = 0
    elif penalty:
        notes.append(f"{level}: {penalty} {'die' if penalty == -1 else 'dice'}")
    elif "ignorepain" in options:
        raise DiceError("You have no wound penalty to ignore.")
    return penalty, level


def describe(pool, penalty=0, penalty_label="", dice=None):
    """`Dexterity 3 + Brawl 2 (Grappling) - 1 Injured = 4 dice`."""
    text = ""
    for index, part in enumerate(pool.parts):
        shown = part.label if part.trait is None else f"{part.label} {part.value}"
        if part.specialty:
            shown += f" ({part.specialty})"
        if index == 0:
            text = ("-" if part.sign < 0 else "") + shown
        else:
            text += f" {'-' if part.sign < 0 else '+'} {shown}"
    if penalty:
        text += f" - {-penalty} {penalty_label}"
    dice = pool.total + penalty if dice is None else dice
    if len(pool.parts) == 1 and pool.parts[0].trait is None and not penalty:
        return f"{dice} {'die' if dice == 1 else 'dice'}"
    return f"{text} = {dice} {'die' if dice == 1 else 'dice'}"


def action_key(request):
    """What counts as "the same action" for the retry penalty: the traits rolled, in order."""
    traits = request.get("traits", ())
    return "+".join(traits) if traits else f"{request.get('pool_total', request.dice)} dice"


def failures_after(earlier_failures, result):
    """The retry count after `result` (a success clears it)."""
    return v20.failures_after(earlier_failures, result)


# ---------------------------------------------------------------- the system


def _net_range(distribution, level):
    """
    The net successes a success level covers, as the display's `Chance.scores` (so its line
    and the chart's rows agree); None for a failure (the botch shares its 0 row) or a level
    no net reaches.
    """
    nets = [net for net in distribution if v20.level_for(net) == level]
    if level == "failure" or not nets:
        return None
    return min(nets), max(nets)

ONE_WILLPOWER = ("At most 1 Willpower can be spent on an action: use /willpower or /ignorepain, "
                 "not both.")


class V20System(System):
    key = v20.KEY
    title = v20.TITLE
    roll_switches = ("spec", "willpower", "ignorepain", "auto", "retry")
    roll_usage = "+roll <pool> [vs <difficulty>] [# <comment>]"
    check_usage = "+check <number> [vs <difficulty>] [# <comment>]"
    # What players read of this system (`System`: the help, the first room, the home page and
    # the connect screen), and the looks of its cancelled successes.
    short = "V20"
    blurb = ("Classic Storyteller (V20): each die against a difficulty, each 1 cancels a success, "
             "and only 1s left is a botch.")
    slogan = "Difficulties, botches and an honest record"
    example = Example("dex+brawl vs 6", stats={"dex": 3}, state={"brawl": 2})
    tags = ("Damage", "Heal", "Wounds")
    mark_looks = (
        MarkLook(frozenset({CANCELLED}), "|x", "text-decoration: line-through; color: #5c5c5c; font-weight: normal;"),
        MarkLook(frozenset({CANCELS}), DIRE_STYLE, DIRE_CSS),
    )
    sheet = V20Sheet()
    extended = v20.EXTENDED
    help = """\
V20: your pool is Attribute + Ability (dex+brawl); the difficulty is
the face each die needs, 2 to 10 (default 6). Each 1 cancels one
success; no successes left and a 1 left over is a botch. Net
successes: 1 marginal, 2 moderate, 3 complete, 4 exceptional, 5+
phenomenal. An Ability at 0: a Talent rolls the Attribute alone, a
Skill rolls at +1 difficulty, a Knowledge cannot be tried. Your wound
penalty comes off every pool; Incapacitated, you cannot roll.
  /spec: 10s count twice (automatic with your Specialty named:
  dex+brawl(grappling)).
  /willpower: spend 1 Willpower for 1 success no 1 can cancel.
  /ignorepain: spend 1 Willpower to ignore wound penalties (not with
  /willpower: at most 1 Willpower is spent on an action).
  /auto: 1 marginal success without rolling, if pool >= difficulty
  (not in combat).
  /retry: +1 difficulty per failed attempt at this action so far."""

    # Health levels by damage taken (0: Healthy), with the dice they take off.
    odds_inputs = (
        OddsInput("pool", "Dice", hint="e.g. 6"),
        OddsInput("target", "Difficulty", high=40, hint=f"the face each die needs, 2 to 10; blank: "
                                                         f"{v20.DEFAULT_DIFFICULTY}"),
        OddsInput("spec", "Specialty", kind=FLAG, switch="spec", hint="10s count twice"),
        OddsInput("willpower", "Willpower", kind=FLAG, switch="willpower", hint="+1 success no 1 cancels"),
        OddsInput("ignorepain", "Ignore pain", kind=FLAG, switch="ignorepain", hint="no wound penalty"),
        OddsInput("auto", "Automatic success", kind=FLAG, switch="auto", hint="pool at least the difficulty"),
        OddsInput("health", "Health", kind=CHOICE, default=0, choices=((0, v20_health.HEALTHY),) + tuple(
            (index, name if not penalty else f"{name} ({penalty})")
            for index, (name, penalty, _) in enumerate(v20_health.HEALTH_LEVELS, start=1))),
    )

    def odds_args(self, values):
        """The health level is damage on the track: its penalty and name, as the sheet's state has them."""
        text, switches, roller = super().odds_args(values)
        state = self.sheet.state({HEALTH[v20_health.BASHING]: roller.get("health", 0)})
        return text, switches, Roller(state={key: state[key] for key in ("wound_penalty", "incapacitated",
                                                                        "health_level")})

    # -- rolling

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        switches = {normalize(s) for s in switches}
        options = {name for name in self.roll_switches if name in switches}
        state = roller.state if roller is not None else {}
        if state.get("incapacitated"):
            raise DiceError("An Incapacitated character cannot act.")
        pool_text, target_text = split_vs(text)
        base = v20.DEFAULT_DIFFICULTY
        if target_text is not None:
            base = read_whole(target_text, "The difficulty is the face each die needs, 2 to 10",
                              v20.check_difficulty)
        table = None if numbers_only or roller is None else roller.traits
        pool = resolve_pool(pool_text, table)
        notes = []
        specialty = _specialty_option(pool, options, notes)
        failures = state.get("retry_failures", 0) if "retry" in options else 0
        difficulty = _difficulty(base, pool, failures, notes)
        penalty, level = _wound_penalty(options, state, notes)
        dice = pool.total + penalty
        if dice < 1 and penalty:
            raise DiceError(f"{describe(pool, penalty, level, dice)}: no dice are left to roll.")
        v20.check_pool(dice)

        if "auto" in options:
            if "willpower" in options:
                raise DiceError("An automatic success needs no Willpower: use /auto or /willpower, not both.")
            v20.automatic_success(dice, difficulty)  # refuses a pool below the difficulty
            options.discard("spec")
        request = RollRequest(
            system=self.key, text=text, pool=pool, dice=dice, target=difficulty,
            target_given=target_text is not None, options=frozenset(options),
            extra=(("base_difficulty", base), ("penalty", penalty), ("health_level", level),
                   ("specialty", specialty), ("retry_failures", failures),
                   ("traits", tuple(part.trait for part in pool.parts if part.trait)),
                   ("pool_total", pool.total), ("notes", tuple(notes))),
        )
        self._check_willpower_left(request, roller, state)
        return request

    def _check_willpower_left(self, request, roller, state):
        """A sheet that says how much Willpower is left refuses a roll that would spend more."""
        cost = self.costs(request).get(WILLPOWER_LEFT, 0)
        if roller is not None and cost and "willpower_left" in state and state["willpower_left"] < cost:
            have = state["willpower_left"]
            raise DiceError(f"That needs {cost} temporary Willpower and you have {have} left.")

    def costs(self, request):
        """What the command layer takes off the sheet for this roll: {trait: points}."""
        points = int(request.option("willpower")) + int(request.option("ignorepain"))
        return {WILLPOWER_LEFT: points} if points else {}

    def roll(self, request, roller=None, rng=None):
        if request.option("auto"):
            return v20.automatic_success(request.dice, request.target)
        return v20.roll(request.dice, request.target, specialty=request.option("spec"),
                        willpower=request.option("willpower"), rng=rng)

    def replay(self, data):
        """The result a record describes, evaluated again (for verification)."""
        if data.get("automatic"):
            return v20.automatic_success(max(1, int(data.get("pool", 1))), data["difficulty"])
        return v20.evaluate(data["dice"], data["difficulty"], specialty=bool(data["specialty"]),
                            willpower=bool(data["willpower"]))

    # -- looks

    def outcome(self, result):
        key = "botch" if result.botch else result.level
        return Outcome(key, result.label, LEVEL_TONES[key])

    def result_notes(self, result):
        if result.automatic:
            return ("automatic success: no dice rolled",)
        notes = []
        cancelled, left = result.cancelled, result.uncancelled_ones
        text = ""
        if cancelled:
            text = f"{ones_text(cancelled)} cancelled {plural(cancelled, 'success', 'successes')}"
        if left:
            if cancelled:
                text += f"; {ones_text(left)} left over"
            else:
                text = f"{ones_text(left)} and no successes to cancel"
            text += ": a botch" if result.botch else ", but Willpower's success stands: no botch"
        if text:
            notes.append(text)
        if result.willpower:
            notes.append("Willpower: +1 success that cannot be cancelled")
        return tuple(notes)

    def view(self, result, request=None):
        dice = tuple(Die(face, DIE_MARKS[mark]) for face, mark in zip(result.dice, result.marks))
        request_notes = request.get("notes", ()) if request is not None else ()
        if request is not None and request.pool is not None:
            pool = describe(request.pool, request.get("penalty", 0), request.get("health_level", ""), request.dice)
        else:
            pool = f"{result.pool} {'die' if result.pool == 1 else 'dice'}"
        return RollView(
            system=self.key,
            pool=pool,
            target=f"difficulty {result.difficulty}",
            groups=(DiceGroup("Dice", dice),) if dice else (),
            score=result.successes,
            noun=("success", "successes"),
            outcome=self.outcome(result),
            notes=tuple(request_notes) + self.result_notes(result),
        )

    def record(self, result, request=None):
        return {
            "system": self.key,
            "view": self.view(result, request).to_dict(),
            "dice": list(result.dice),
            "difficulty": result.difficulty,
            "base_difficulty": request.get("base_difficulty") if request is not None else result.difficulty,
            "pool": request.dice if request is not None else result.pool,
            "specialty": result.specialty,
            "willpower": result.willpower,
            "automatic": result.automatic,
            "ignore_pain": request.option("ignorepain") if request is not None else False,
            "wound_penalty": request.get("penalty", 0) if request is not None else 0,
            "successes": result.successes,
            "botch": result.botch,
            "level": result.level,
        }

    # -- odds

    def odds(self, request, roller=None):
        if request.option("auto"):
            distribution = {1: Fraction(1)}
            botch = Fraction(0)
        else:
            exact = v20.odds(request.dice, request.target, specialty=request.option("spec"),
                             willpower=request.option("willpower"))
            distribution, botch = exact["distribution"], exact["botch"]
        by_level = {level: Fraction(0) for level in v20.LEVELS}
        for net, chance in distribution.items():
            by_level[v20.level_for(net)] += chance
        by_level["failure"] -= botch
        chances = (Chance("botch", "botch", botch, LEVEL_TONES["botch"]),) + tuple(
            Chance(level, "failure (not a botch)" if level == "failure" else v20.LEVEL_LABELS[level],
                   by_level[level], LEVEL_TONES[level], _net_range(distribution, level)) for level in v20.LEVELS)
        expected = sum(net * chance for net, chance in distribution.items())
        notes = list(request.get("notes", ()))
        if request.option("willpower"):
            notes.append("Willpower: +1 success that cannot be cancelled")
        if request.option("auto"):
            notes.append("automatic success: no dice rolled")
        notes.append(f"expected net successes {float(expected):.2f}")
        return OddsView(
            system=self.key,
            pool=describe(request.pool, request.get("penalty", 0), request.get("health_level", ""), request.dice)
            if request.pool is not None else f"{request.dice} dice",
            target=f"difficulty {request.target}",
            chances=chances,
            distribution=tuple(sorted(distribution.items())),
            noun=("success", "successes"),
            notes=tuple(notes),
        )


SYSTEM = V20System()
