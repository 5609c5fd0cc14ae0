"""Shared set-up for the V5 table command tests (contest, teamwork, Rouse, Hunger, ...)."""

from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.rules.randomness import FixedFaces, seeded


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
        """The message, then the usage on a line of its own; no die rolled (FixedFaces has none)."""
        out = self.do(cmd, args, [], message, caller=caller or self.char1)
        lines = out.split("\n")
        starts = [i for i, line in enumerate(lines) if line.startswith("Usage: ")]
        self.assertEqual(len(starts), 1, out)  # the usage starts a line of its own, once
        self.assertGreater(starts[0], 0, out)
        self.assertTrue(all(line.startswith("  ") for line in lines[1:] if not line.startswith("Usage: ")), out)
        return out



class Connected:
    """
    Mixin for an `EvenniaTest`: `self.connect(account, character)` gives `character` a live
    session, as a player logged in and playing it, so it counts as connected (its `sessions`),
    like the test's own session for `self.account`. Sessions end before the test's tear-down.
    """

    def connect(self, account, character):
        import evennia
        from evennia.server.serversession import ServerSession

        sessid = 2 + len(self.__dict__.setdefault("_connected", []))
        dummy = ServerSession()
        dummy.init_session("telnet", ("localhost", f"testmode{sessid}"), evennia.SESSION_HANDLER)
        dummy.sessid = sessid
        evennia.SESSION_HANDLER.portal_connect(dummy.get_sync_data())
        session = evennia.SESSION_HANDLER.session_from_sessid(sessid)
        evennia.SESSION_HANDLER.login(session, account, testmode=True)
        character.sessions.add(session)
        session.puid = character.id
        session.puppet = character
        self._connected.append((character, session))
        return session

    def disconnect(self, character):
        import evennia

        for char, session in list(self.__dict__.get("_connected", [])):
            if char == character:
                char.sessions.remove(session)
                session.puid = None
                session.puppet = None
                evennia.SESSION_HANDLER.pop(session.sessid, None)
                self._connected.remove((char, session))

    def tearDown(self):
        for character, _ in list(self.__dict__.get("_connected", [])):
            self.disconnect(character)
        super().tearDown()
