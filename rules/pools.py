"""
Pool expressions: what a player types to say which dice to roll.

    dexterity+stealth
    dex + stealth + 2 - 1
    str+brawl(grappling)      str+brawl (grappling)
    7

Trait names match case-insensitively, by full name, by a standard abbreviation given by the
system (V5: `str`, `dex`, `int`, ...), or by a unique prefix. Spaces, `_` and `'` inside a name
are ignored when matching (`animalken`, `animal ken` and `animal_ken` are all Animal Ken).
A `-` is always subtraction: type `thin blood alchemy` (or a prefix) for that Discipline.

A Specialty in parentheses after a Skill adds one die when the character has it; only one
Specialty applies to a roll (V5 core). Parsing and resolving are separate so that a command
can read an expression once and resolve it against any sheet.

Bounds (docs/contract.md): a pool above `MAX_POOL` dice after all modifiers is refused, never
rolled; a pool that modifiers push below 1 is rolled as 1 die (V5 core: penalties leave at
least one die).
"""

import functools
import re
from dataclasses import dataclass

from .errors import PoolError, PoolTooLarge

MAX_POOL = 50
MAX_EXPRESSION_LENGTH = 200
MAX_TERMS = 20

_NUMBER = re.compile(r"[0-9]+")
_NAME = re.compile(r"[A-Za-z][A-Za-z _'.]*")
_SPECIALTY = re.compile(r"\(([^()]*)\)")


@dataclass(frozen=True)
class Term:
    """One term of a parsed expression, before it is looked up on a sheet."""

    sign: int
    number: int | None = None
    name: str | None = None
    specialty: str | None = None


@dataclass(frozen=True)
class PoolPart:
    """One resolved term: what is shown to the room and what it adds."""

    label: str
    value: int
    sign: int = 1
    trait: str | None = None
    specialty: str | None = None

    @property
    def contribution(self):
        return self.sign * self.value


@dataclass(frozen=True)
class Pool:
    """A resolved pool: its parts, their sum, and the dice actually rolled."""

    parts: tuple
    total: int

    @property
    def dice(self):
        return max(1, self.total)

    @property
    def traits(self):
        return tuple(part.trait for part in self.parts if part.trait)

    @property
    def specialty(self):
        for part in self.parts:
            if part.specialty:
                return part.specialty
        return None

    def describe(self):
        """`Dexterity 3 + Stealth 2 (Silent) + 2 = 8`, plain text."""
        text = ""
        for index, part in enumerate(self.parts):
            shown = part.label if part.trait is None and part.specialty is None else f"{part.label} {part.value}"
            if index == 0:
                text = ("-" if part.sign < 0 else "") + shown
            else:
                text += f" {'-' if part.sign < 0 else '+'} {shown}"
        if len(self.parts) > 1:
            text += f" = {self.total}"
        if self.total < 1:
            text += " (rolled as 1)"
        return text


@functools.lru_cache(maxsize=4096)
def normalize(name):
    """The form names are compared in: lower case, no spaces, `_`, `'` or `.`."""
    # Cached: each term of a pool is matched against every trait name of the sheet.
    return re.sub(r"[\s_'.]", "", name.lower())


def match_name(typed, candidates, aliases=None, what="trait"):
    """
    Find the one candidate meant by `typed`.

    Args:
        typed (str): what the player typed.
        candidates (iterable of str): canonical names.
        aliases (dict, optional): normalized abbreviation -> canonical name; an alias beats
            a prefix (`int` is Intelligence, not ambiguous with Intimidation).
        what (str): the word used in messages ("trait", "specialty").

    Returns:
        str: the canonical name.

    Raises:
        PoolError: unknown or ambiguous, with the candidates listed.
    """
    key = normalize(typed)
    if not key:
        raise PoolError(f"An empty {what} name is not allowed.")
    by_key = {normalize(name): name for name in candidates}
    if key in by_key:
        return by_key[key]
    if aliases and key in aliases and aliases[key] in candidates:
        return aliases[key]
    matches = sorted(name for nkey, name in by_key.items() if nkey.startswith(key))
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = ", ".join(m.title() for m in matches)
        raise PoolError(f"'{typed.strip()}' is ambiguous: it could be {listed}.")
    raise PoolError(f"There is no {what} called '{typed.strip()}'.")


def parse(expression):
    """
    Parse a pool expression into terms.

    Returns:
        tuple of Term

    Raises:
        PoolError: for anything that is not a pool expression.
    """
    text = expression.strip()
    if not text:
        raise PoolError("Say what to roll: a pool like dex+stealth, or a number of dice.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise PoolError(f"That pool expression is too long (over {MAX_EXPRESSION_LENGTH} characters).")
    terms = []
    sign, pos = _leading_sign(text, _skip_space(text, 0))
    while True:
        if pos >= len(text):
            raise PoolError("The pool expression ends with an operator; add a trait or a number after it.")
        term, pos = _read_term(text, pos, sign)
        terms.append(term)
        if len(terms) > MAX_TERMS:
            raise PoolError(f"That pool has too many terms (more than {MAX_TERMS}).")
        pos = _skip_space(text, pos)
        if pos >= len(text):
            return tuple(terms)
        if text[pos] in "+-":
            sign, pos = (-1 if text[pos] == "-" else 1), pos + 1
            pos = _skip_space(text, pos)
            continue
        if text[pos] == "(":
            raise PoolError("A Specialty in parentheses goes right after a Skill, like str+brawl(grappling).")
        raise PoolError(f"Expected + or - before '{text[pos:pos + 20]}'.")


def _skip_space(text, pos):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _leading_sign(text, pos):
    """Only the first term may carry a sign of its own (`-2`, `+dex`)."""
    if pos < len(text) and text[pos] in "+-":
        return (-1 if text[pos] == "-" else 1), _skip_space(text, pos + 1)
    return 1, pos


def _read_term(text, pos, sign):
    """(Term, the position after it): a number of dice, or a trait with an optional Specialty."""
    number = _NUMBER.match(text, pos)
    if number:
        digits = number.group().lstrip("0") or "0"  # `0003` is 3 dice
        if len(digits) > 3:
            raise PoolError(f"'{digits}' is far too many dice; pools are limited to {MAX_POOL}.")
        return Term(sign=sign, number=int(digits)), number.end()
    name = _NAME.match(text, pos)
    if not name:
        raise PoolError(f"I can't read '{text[pos:pos + 20]}' in the pool: use traits, numbers, + and -.")
    typed = name.group().strip()
    pos = name.end()
    specialty = None
    spec = _SPECIALTY.match(text, pos)
    if spec:
        specialty = spec.group(1).strip()
        if not specialty:
            raise PoolError(f"The parentheses after '{typed}' are empty: name the Specialty.")
        pos = spec.end()
    return Term(sign=sign, name=typed, specialty=specialty), pos


@dataclass(frozen=True)
class TraitTable:
    """
    What a sheet offers to pool expressions.

    Args:
        values (dict): canonical trait name -> dots.
        specialties (dict): canonical Skill name -> tuple of Specialty names.
        aliases (dict): normalized abbreviation -> canonical name.
        specialty_traits (frozenset): traits that can carry a Specialty (Skills).
    """

    values: dict
    specialties: dict
    aliases: dict
    specialty_traits: frozenset

    def match(self, typed):
        return match_name(typed, self.values, self.aliases)


def resolve(terms, table=None, bounded=True):
    """
    Look the terms up on a sheet and add them up.

    Args:
        terms (tuple of Term): from `parse`.
        table (TraitTable or None): None allows numbers only (no sheet to read).
        bounded (bool): refuse a total above MAX_POOL here. A system that changes the pool
            afterwards (a wound or Impairment penalty) passes False and checks the final count
            with `check_total`, so the limit is counted after every modifier.

    Returns:
        Pool

    Raises:
        PoolError, PoolTooLarge
    """
    parts = []
    used_specialty = None
    for term in terms:
        parts.append(term_part(term, table))
        if term.specialty is None:
            continue
        trait = parts[-1].trait
        if trait not in table.specialty_traits:
            raise PoolError(f"{trait.title()} is not a Skill, so it has no Specialties.")
        if term.sign < 0:
            raise PoolError("A Specialty adds a die; it cannot be subtracted.")
        specialty = owned_specialty(table, trait, term.specialty, trait.title())
        if used_specialty:
            raise PoolError("Only one Specialty applies to a roll.")
        used_specialty = specialty
        parts.append(PoolPart(label=f"{specialty} specialty", value=1, trait=None, specialty=specialty))
    total = sum(part.contribution for part in parts)
    if bounded:
        check_total(total)
    return Pool(parts=tuple(parts), total=total)


def term_part(term, table, label=str.title):
    """
    What a term adds, its Specialty aside: a number as typed, or the trait looked up on the
    sheet (`table`; None: numbers only) and shown by `label`.
    """
    if term.number is not None:
        return PoolPart(label=str(term.number), value=term.number, sign=term.sign)
    if table is None:
        raise PoolError(f"'{term.name}' is a trait name; only numbers can be used here.")
    trait = table.match(term.name)
    return PoolPart(label=label(trait), value=table.values[trait], sign=term.sign, trait=trait)


def owned_specialty(table, trait, typed, trait_label):
    """
    The sheet's name of the Specialty `typed` names on `trait` (matched as trait names are),
    or refused naming the ones the character has: every system that reads `brawl(grappling)`
    from a sheet says the same.
    """
    owned = table.specialties.get(trait, ())
    if not owned:
        raise PoolError(f"You have no {trait_label} Specialty.")
    try:
        return match_name(typed, owned, what=f"{trait_label} Specialty")
    except PoolError:
        raise PoolError(f"You have no {trait_label} Specialty '{typed}' (yours: {', '.join(owned)}).") from None


def check_total(dice):
    """`dice`, the pool after every modifier; PoolTooLarge (naming that count) above MAX_POOL."""
    if dice > MAX_POOL:
        raise PoolTooLarge(f"That pool is {dice} dice; pools are limited to {MAX_POOL}.")
    return dice


def _specialty_characters(name):
    return all(ch.isalnum() or ch in " '-&" for ch in name)


def clean_specialty(specialty, owned, trait_label, max_length, max_count, word="Specialty", words="Specialties",
                    allowed=_specialty_characters, allowed_text="use letters, digits, spaces, ' - and & only"):
    """
    A Specialty name as a sheet keeps it (white space folded), or refused: empty, too long,
    odd characters, a second one of the same name, or one too many for the trait.

    Args:
        specialty (str): the name as typed.
        owned (iterable of str): the trait's Specialties already on the sheet.
        trait_label (str): the trait's name as shown ("Brawl").
        max_length (int), max_count (int): the system's limits.
        word, words (str): what the system calls one and several ("Focus", "Focuses").
        allowed (callable), allowed_text (str): the system's characters for a name (true
            for a good name), and the refusal's words for them.
    """
    owned = tuple(owned)
    name = " ".join(specialty.split())
    if not name:
        raise PoolError(f"Name the {word}.")
    if len(name) > max_length:
        raise PoolError(f"{word} names are at most {max_length} characters.")
    if not allowed(name):
        raise PoolError(f"{word} names {allowed_text}.")
    if normalize(name) in {normalize(s) for s in owned}:
        raise PoolError(f"{trait_label} already has the {word} {name}.")
    if len(owned) >= max_count:
        raise PoolError(f"{trait_label} already has {max_count} {words}.")
    return name


def build_pool(expression, table=None, bounded=True):
    """Parse and resolve in one step (`bounded`: as for `resolve`)."""
    return resolve(parse(expression), table, bounded)


def number_pool(dice):
    """A pool of a plain number of dice (staff NPC rolls, `+check`)."""
    return build_pool(str(dice))
