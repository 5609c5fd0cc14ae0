"""
A busy scene in one room, for what a command costs as its audience grows: `Scene` (a mixin for
an `EvenniaCommandTest`) fills a room of its own with connected characters, each played by its
own account on its own session at a width of its own, and `cost` counts what one command
costs the server: its SQL statements and its CPU time.

Used by the tests that pin those costs (tests/test_roll_cost.py) and by
`bench/bench_commands.py scene`, so both measure the same thing.
"""

import time

from evennia.utils import create

from tests.table_helpers import Connected


class Scene(Connected):
    """
    `self.scene(count, widths)`: a new room holding `self.char1` (the roller, moved there) and
    `count - 1` more characters, each connected (an account of its own, a live session), their
    client widths taken in turn from `widths`. Returns the room's characters, roller first.
    Every session's output reaches `evennia.SESSION_HANDLER.data_out` (the test's Mock):
    `outputs()` reads what each session was sent.
    """

    def scene(self, count, widths=(80,), name="Scene"):
        room = create.create_object(self.room_typeclass, key=name, nohome=True)
        self.char1.location = room
        self.session.protocol_flags["SCREENWIDTH"] = {0: widths[0]}
        people = [self.char1]
        for number in range(1, count):
            account = create.create_account(f"{name}Player{number}", email="scene@example.com",
                                            password="scene-password", typeclass=self.account_typeclass)
            character = create.create_object(self.character_typeclass, key=f"{name}{number}", location=room,
                                             home=room)
            character.account = account
            session = self.connect(account, character)
            session.protocol_flags["SCREENWIDTH"] = {0: widths[number % len(widths)]}
            people.append(character)
        return people

    def outputs(self):
        """{session: [text sent, ...]} from the mocked `SESSION_HANDLER.data_out`, then forgotten."""
        import evennia

        mock = evennia.SESSION_HANDLER.data_out
        got = {}
        for call in mock.call_args_list:
            args, kwargs = call
            session = args[0] if args else kwargs.get("session")
            text = kwargs.get("text")
            if text is None:
                continue
            got.setdefault(session, []).append(text[0][0] if isinstance(text, tuple) and isinstance(text[0], tuple)
                                               else text[0] if isinstance(text, tuple) else text)
        mock.reset_mock()
        return got


def run(test, cmdclass, args, caller=None):
    """
    One command, as the command handler runs it (parse, func, the hooks), its messages really
    sent (`EvenniaCommandTest.call` replaces the caller's `msg`): by `caller` (default
    `test.char1`) on its own session.
    """
    caller = caller or test.char1
    cmd = cmdclass()
    cmd.caller = cmd.obj = caller
    cmd.cmdname = cmd.raw_cmdname = cmd.cmdstring = cmd.key
    cmd.args = args
    cmd.cmdset = None
    sessions = caller.sessions.all() if caller is not test.char1 else []
    cmd.session = sessions[0] if sessions else test.session
    cmd.account = getattr(caller, "account", None) or test.account
    cmd.raw_string = cmd.key + args
    cmd.at_pre_cmd()
    cmd.parse()
    cmd.func()
    cmd.at_post_cmd()


def cost(action, using="default"):
    """
    (number of statements, CPU ms, the statements) of `action()`: the SQL statements Django
    sent (savepoints included) and the process CPU time it took.
    """
    from django.db import connections
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connections[using]) as queries:
        start = time.process_time()
        action()
        spent = (time.process_time() - start) * 1000
    return len(queries.captured_queries), spent, [query["sql"] for query in queries.captured_queries]
