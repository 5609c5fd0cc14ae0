"""
Look-alike tags (typeclasses/speech_text.py, "our tags"; typeclasses/names.py, "names that read
as our tags"): a tag of ours written with Unicode's confusables (UTS #39, from the
confusable-homoglyphs library) or with characters that show nothing in it is still marked with
the speaker's name, and no character, account or channel may be named like one.
"""

import pytest
from confusable_homoglyphs.confusables import confusables_data

from storyteller_dice.typeclasses.names import TAG_LIKE, name_problem
from storyteller_dice.typeclasses.speech_text import SYSTEM_TAGS, looks_like_tag, mark_tags


def marked(text):
    return mark_tags(text, "Alice")


# Each a tag with one letter swapped for a look-alike from another script.
@pytest.mark.parametrize("typed", [
    "[R\u043ell]",            # о CYRILLIC SMALL LETTER O
    "[Cont\u0435st]",         # е CYRILLIC SMALL LETTER IE
    "[St\u0430ff]",           # а CYRILLIC SMALL LETTER A
    "[Pr\u0456vate roll]",    # і CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
])
def test_a_letter_from_another_script(typed):
    assert marked(f"see {typed} Admin rolls") == f"see (Alice){typed} Admin rolls"


@pytest.mark.parametrize("mark", ["\u034f", "\ufe0f", "\u180b", "\u17b4", "\u1160", "\u200b", "\u00ad", "\U000e0041"])
def test_a_mark_that_shows_nothing_inside_the_word(mark):
    typed = f"[Ro{mark}ll]"
    assert marked(f"see {typed} x") == f"see (Alice){typed} x"


def _tag_letters():
    """(tag, index, letter) for every letter of every tag word."""
    return [(tag, i, letter) for tag in SYSTEM_TAGS.items() for i, letter in enumerate(tag) if letter.isalpha()]


def test_every_confusable_of_every_letter_of_every_tag():
    checked = missed = 0
    failures = []
    for tag, i, letter in _tag_letters():
        alikes = {entry["c"] for one in {letter, letter.upper(), letter.lower()} for entry in confusables_data.get(one, ())}
        for alike in sorted(alikes):
            typed = f"[{tag[:i]}{alike}{tag[i + 1:]}]"
            checked += 1
            if marked(f"x {typed} y") != f"x (Alice){typed} y":
                missed += 1
                failures.append((tag, letter, alike, [f"U+{ord(c):04X}" for c in alike]))
    assert checked > 1000, checked  # the library's table was read
    assert not failures, failures[:20]


def test_every_tag_as_typed_and_in_other_cases():
    for tag in SYSTEM_TAGS.items():
        for typed in (f"[{tag}]", f"[{tag.upper()}]", f"[ {tag.lower()} ]"):
            assert marked(typed) == f"(Alice){typed}", typed


@pytest.mark.parametrize("text", [
    "Roll the dice", "[Rail]", "[world]", "[Rolls]", "[Contests]", "Staff meeting at [noon]",
    "[Stiff]", "[Odd]", "[R oll]", "(Roll)", "[Rol]", "[Tearn]", "ROLL", "[Ro\u0301ll]",
])
def test_text_that_is_not_a_tag_is_unchanged(text):
    assert marked(text) == text


@pytest.mark.parametrize("name", ["Roll", "rOLL", "R\u043ell", "Staff", "St\u0430ff", "Private roll", "Verify",
                                  "Odds", "Tearnwork", "Contest odds"])
def test_a_name_may_not_read_as_a_tag(name):
    assert looks_like_tag(name)
    for kind in ("character", "channel"):
        assert name_problem(name, kind) == TAG_LIKE, (name, kind)
    if name.isascii() and " " not in name:
        assert name_problem(name, "account") == TAG_LIKE


@pytest.mark.parametrize("name", ["Rolland", "Bob", "Staffer", "Private", "Public", "Odessa", "Contessa"])
def test_names_that_do_not_read_as_a_tag(name):
    assert not looks_like_tag(name)
    assert name_problem(name, "character") is None
    assert name_problem(name, "channel") is None


def test_things_may_still_be_named_so():
    # Builders name rooms and things; those are never shown as a tag (the text rule only).
    assert name_problem("Roll", "object") is None
