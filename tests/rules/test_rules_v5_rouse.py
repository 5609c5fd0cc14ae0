"""
`+rouse`'s words and the record's line for Rouse checks (`storyteller_dice.rules.v5.rouse`
`parse` and `summary`, docs/v5.md 'Hunger, Rouse and Blood Surge'). Pure: explicit faces, exact
messages.

`+rouse [<count>] [for <level>]` or, for staff, `+rouse <character>[=<count>] [for <level>]`: from
1 to 5 checks at a time (some powers need two); the level (1-5) of the power, which decides the
Blood Potency reroll. A Rouse check is one die: 6+ passes, 1-5 fails and Hunger rises by 1; at
Hunger 5 the Blood cannot be roused (no die, Hunger stays 5, a hunger frenzy test at
Difficulty 4 is due).
"""

import re

import pytest

from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.v5 import rouse

FRENZY_DUE = "; a hunger frenzy test (Difficulty 4) is due (+frenzy vs 4)"


def refused(text, message):
    """`parse(text)` refuses with exactly `message`."""
    with pytest.raises(DiceError, match="^" + re.escape(message) + "$"):
        rouse.parse(text)


# ---------------------------------------------------------------- parse: what it reads


@pytest.mark.parametrize(
    "text, expected",
    [
        # Nothing: one check for yourself, no level (so no Blood Potency reroll).
        ("", (None, 1, None)),
        ("   ", (None, 1, None)),
        # A count, from 1 to 5; leading zeros and a '+' are the number they are.
        ("1", (None, 1, None)),
        ("2", (None, 2, None)),
        ("5", (None, 5, None)),
        (" 3 ", (None, 3, None)),
        ("+2", (None, 2, None)),
        ("005", (None, 5, None)),
        # A power's level, from 1 to 5, with or without a count; `for` in any case, any spaces.
        ("for 1", (None, 1, 1)),
        ("for 5", (None, 1, 5)),
        ("for 01", (None, 1, 1)),
        ("FOR 3", (None, 1, 3)),
        ("For\t2", (None, 1, 2)),
        ("2 for 3", (None, 2, 3)),
        ("2  for  3  ", (None, 2, 3)),
        ("+2 for 1", (None, 2, 1)),
        # A character (staff), with or without a count and a level.
        ("Alice", ("Alice", 1, None)),
        ("Alice Liddell", ("Alice Liddell", 1, None)),
        ("Alice for 2", ("Alice", 1, 2)),
        ("Alice=2", ("Alice", 2, None)),
        (" Alice = 2 ", ("Alice", 2, None)),
        ("Alice=+2", ("Alice", 2, None)),
        ("Alice=2 for 1", ("Alice", 2, 1)),
        ("Alice=for 4", ("Alice", 1, 4)),  # the count after '=' may be left out when a level is given
        ("Alice=5 FOR 5", ("Alice", 5, 5)),
        # Words that only look like `for` are part of the name.
        ("Fortune", ("Fortune", 1, None)),
        ("Bifor", ("Bifor", 1, None)),
        ("Fortune for 1", ("Fortune", 1, 1)),
        ("2for 1", ("2for 1", 1, None)),
        # Not a count (a count is digits with at most one sign): a name, which the command looks up.
        ("2 3", ("2 3", 1, None)),
        ("+-1", ("+-1", 1, None)),
    ],
)
def test_parse_reads(text, expected):
    assert rouse.parse(text) == expected


# ---------------------------------------------------------------- parse: what it refuses


@pytest.mark.parametrize(
    "text, message",
    [
        # '=' names a character and then a count.
        ("=2", "Name the character before '='."),
        ("=", "Name the character before '='."),
        ("  = 2", "Name the character before '='."),
        ("Alice=", "Say how many Rouse checks after '='."),
        ("Alice=  ", "Say how many Rouse checks after '='."),
        # After '=' only a count stands.
        ("Alice=two", "The number of Rouse checks must be a whole number, not 'two'."),
        ("Alice=2 3", "The number of Rouse checks must be a whole number, not '2 3'."),
        ("Alice=b=c", "The number of Rouse checks must be a whole number, not 'b=c'."),
        ("Alice=++1", "The number of Rouse checks must be a whole number, not '++1'."),
        ("Alice=-x", "The number of Rouse checks must be a whole number, not '-x'."),
        ("Alice=" + "x" * 30, "The number of Rouse checks must be a whole number, not '"
         + "x" * 20 + "...'."),  # what was typed is quoted cut short
        # 1 to 5 checks at a time; '-1' is a bad count, not a character called '-1'.
        ("0", "Make from 1 to 5 Rouse checks at a time."),
        ("6", "Make from 1 to 5 Rouse checks at a time."),
        ("-1", "Make from 1 to 5 Rouse checks at a time."),
        ("+0", "Make from 1 to 5 Rouse checks at a time."),
        ("99999999999999999999", "Make from 1 to 5 Rouse checks at a time."),
        ("Alice=0", "Make from 1 to 5 Rouse checks at a time."),
        ("Alice=6 for 1", "Make from 1 to 5 Rouse checks at a time."),
        ("Alice=-2", "Make from 1 to 5 Rouse checks at a time."),
        # A power's level is 1 to 5, a whole number.
        ("for 0", "A power's level is from 1 to 5."),
        ("for 6", "A power's level is from 1 to 5."),
        ("2 for 6", "A power's level is from 1 to 5."),
        ("Alice=2 for 0", "A power's level is from 1 to 5."),
        ("for x", "The power's level must be a whole number from 1 to 5, not 'x'."),
        ("for -1", "The power's level must be a whole number from 1 to 5, not '-1'."),
        ("for +1", "The power's level must be a whole number from 1 to 5, not '+1'."),
        ("for 1.5", "The power's level must be a whole number from 1 to 5, not '1.5'."),
        ("for " + "9" * 30, "A power's level is from 1 to 5."),  # a huge number is just out of range
        ("for " + "x" * 30, "The power's level must be a whole number from 1 to 5, not '"
         + "x" * 20 + "...'."),
        # `for` with no level after it, wherever it stands: never part of a name.
        ("for", "Say the power's level after 'for'."),
        ("FOR", "Say the power's level after 'for'."),
        ("for x y", "Say the power's level after 'for'."),
        ("2 for", "Say the power's level after 'for'."),
        ("2 FOR", "Say the power's level after 'for'."),
        ("Alice for", "Say the power's level after 'for'."),
        ("2 for 1 for", "Say the power's level after 'for'."),
        ("Alice=for", "Say the power's level after 'for'."),
        ("Alice=2 for", "Say the power's level after 'for'."),
    ],
)
def test_parse_refuses(text, message):
    refused(text, message)


# ---------------------------------------------------------------- summary: the record's line


@pytest.mark.parametrize(
    "faces, hunger, count, blood_potency, level, line",
    [
        # 6+ passes and Hunger stays.
        ([6], 2, 1, 0, None, "1 passed, 0 failed: Hunger 2 -> 2"),
        ([10], 0, 1, 0, None, "1 passed, 0 failed: Hunger 0 -> 0"),
        # 1-5 fails and Hunger rises by 1.
        ([5], 2, 1, 0, None, "0 passed, 1 failed: Hunger 2 -> 3"),
        ([1], 0, 1, 0, None, "0 passed, 1 failed: Hunger 0 -> 1"),
        # Several checks, each at the Hunger the one before left.
        ([9, 2, 6], 1, 3, 0, None, "2 passed, 1 failed: Hunger 1 -> 2"),
        ([3, 4], 1, 2, 0, None, "0 passed, 2 failed: Hunger 1 -> 3"),
        # The Blood Potency reroll: the second die stands, and a check is counted once.
        ([2, 8], 1, 1, 1, 1, "1 passed, 0 failed: Hunger 1 -> 1"),
        ([2, 3], 1, 1, 1, 1, "0 passed, 1 failed: Hunger 1 -> 2"),
        # A failure that reaches Hunger 5 is an ordinary failure: nothing is due yet.
        ([4], 4, 1, 0, None, "0 passed, 1 failed: Hunger 4 -> 5"),
        # At Hunger 5 the Blood cannot be roused: no die, Hunger stays, a frenzy test is due.
        ([], 5, 1, 0, None, "0 passed, 0 failed, 1 not rolled (Hunger 5): Hunger 5 -> 5" + FRENZY_DUE),
        ([], 5, 3, 10, 5, "0 passed, 0 failed, 3 not rolled (Hunger 5): Hunger 5 -> 5" + FRENZY_DUE),
        # `+rouse 2` whose first check reaches Hunger 5: the second is not rolled.
        ([3], 4, 2, 0, None, "0 passed, 1 failed, 1 not rolled (Hunger 5): Hunger 4 -> 5" + FRENZY_DUE),
        ([7, 1], 4, 3, 0, None, "1 passed, 1 failed, 1 not rolled (Hunger 5): Hunger 4 -> 5" + FRENZY_DUE),
    ],
)
def test_summary(faces, hunger, count, blood_potency, level, line):
    result = rouse.evaluate(faces, hunger, count, blood_potency, level)
    assert rouse.summary(result) == line
