"""Shared set-up for the V5 table command tests (contest, teamwork, Rouse, Hunger, ...)."""

from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from rules.randomness import FixedFaces, seeded


class TableTest(EvenniaCommandTest):
    """
    char1 ("Char") is staff (Developer), char2 ("Char2") a plain player; both in room1.

    Char: Dexterity 3, Athletics 2, Hunger 2. Char2: Composure 2, Resolve 3, Hunger 1.
    """

    def setUp(self):
        super().setUp()
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("athletics", 2)
        self.char1.set_trait("hunger", 2)
        self.char2.set_trait("composure", 2)
        self.char2.set_trait("resolve", 3)
        self.char2.set_trait("hunger", 1)

    def make_character(self, key, location=None):
        return create.create_object(self.character_typeclass, key=key, location=location or self.room1,
                                    home=self.room1)

    def do(self, cmd, args, faces=(), expected=None, **kwargs):
        """Run a command (class or instance) with exactly these dice (all must be used)."""
        cmd = cmd() if isinstance(cmd, type) else cmd
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd, args, expected, **kwargs)
        assert source.remaining == [], f"unused faces {source.remaining}"
        return out

    def refused(self, cmd, args, message, caller=None):
        """One line, the message then the usage; no die rolled (FixedFaces has none)."""
        out = self.do(cmd, args, [], message, caller=caller or self.char1)
        self.assertEqual(out.count("\n"), 0, out)
        self.assertIn(" Usage: ", out)
        return out
