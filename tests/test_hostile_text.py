"""
Hostile text: what a player types is shown as typed and never interpreted.

Every command and switch that takes text is fed generated hostile text (Evennia markup for
colour, layout and links, `$func()` calls, `{}` format fields, control and bidi characters,
long runs) by a player, Char2, in a room with a staff member (Char) and a bystander (Eve),
both connected. Whatever the command does, each test checks:

- no exception, no traceback;
- a refusal goes to the player alone, changes nothing (sheets, kept rolls, the log), and has
  no colour, layout or link of the player's making; its line breaks are all ours: the usage's
  own line (`rules.display.format_refusal`) and breaks our wrapper made at 80 columns (the
  next line is indented and its first word would not have fitted), so player text never
  starts a line;
- a message to the room reaches every viewer as the very same text, which is the text the
  roll log stored, and which is exactly our message with the player's text (escaped) in
  place of harmless text, wrapped by `rules.display.wrap` at the receiver's 80 columns: the
  harmless message is taken unwrapped (sent at a width of 10,000), the player's text put in
  it, and the result wrapped must be what was sent, so no line break is of the player's
  making; rendered as Evennia renders it (telnet with colour, telnet without, the web
  client's HTML) it shows the player's text literally, with no link and no colour of theirs.

Then each known forging input, exactly as typed, one test apiece.
"""

import re
from collections import defaultdict
from contextlib import ExitStack
from unittest import mock

from django.conf import settings
from evennia.utils import create
from evennia.utils.ansi import parse_ansi, strip_ansi
from evennia.utils.test_resources import EvenniaCommandTest
from evennia.server.portal.mxp import mxp_parse
from evennia.utils.text2html import parse_html
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from storyteller_dice.commands.v5.contest import CmdContest
from storyteller_dice.rules.display import MAX_COMMENT, append_code, escape, visible_len, without_control, wrap
from storyteller_dice.commands.v5.humanity import CmdFrenzy
from storyteller_dice.commands.v5.hunger import CmdHunger, CmdRouse
from storyteller_dice.commands.rolllog import CmdRolls
from storyteller_dice.commands.rolls import MAX_SHARED, CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdStat
from storyteller_dice.commands.v5.teamwork import CmdTeamwork
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules.randomness import FixedFaces, seeded
from tests.table_helpers import Connected

EXAMPLES = hypothesis_settings(max_examples=30, deadline=None, database=None,
                               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def hostile(**strategies):
    """
    A property test in an Evennia (Django) test case: Hypothesis runs its examples inside the
    one test, on the test's objects (Evennia's in-memory object cache rules out rolling the
    database back between examples, so each example checks its own before and after).
    """
    def decorate(method):
        def test(self):
            @EXAMPLES
            @given(**strategies)
            def example(**values):
                method(self, **values)

            example()

        test.__name__, test.__doc__ = method.__name__, method.__doc__
        return test

    return decorate

# Pieces a hostile player strings together.
MARKUP = [
    "|r", "|R", "|[r", "|[R", "|#ff0000", "|[#00ff00", "|555", "|[555", "|=a", "|[=z", "|*", "|^",
    "|u", "|U", "|h", "|H", "|i", "|s", "|n", "|!R", "|/", "|-", "|_", "|>", "||", "|||", "|",
    "|lc", "|lt", "|le", "|lu", "|lcquit|ltclick|le", "|luhttp://evil|ltok|le",
    "{", "}", "{0}", "{x}", "{you}", "{you:>1000000}", "{{", "}}", "\\", "\\\\", "\\$",
    "$randint(1,10)", "$eval(2**10)", "$You()", "$you()", "$conj(roll)", "$clr(/,$clr(w,[Roll]))",
    "$", "$(", ")", "[Roll]", "[Contest]", "[code ABCD2345]",
    "\x1b[2J", "\x1b[31m", "\x1b[H", "\x1b", "\x9b2J", "\x9b", "\x85", "\x00", "\x07", "\x7f",
    "\u202e", "\u202d", "\u2066", "\u2069", "\u200f", "\u2028", "\u2029",
    "\r\n", "\n", "\r", "\t", "  ", "<b>x</b>", "<script>", "&amp;", "%r", "%t", "#", "=", ",",
]
PIECE = st.one_of(st.sampled_from(MARKUP), st.text(max_size=4))
HOSTILE = st.one_of(
    st.lists(PIECE, min_size=1, max_size=12).map("".join),
    st.tuples(st.sampled_from(["|", "{", "}", "$", "\\", "|/", "x", "|lc", "\x1b["]),
              st.integers(50, 400)).map(lambda t: t[0] * t[1]),
)
BENIGN = "plain words"

_ESC = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# `escape` used to put a "bold off" between a `|` and an `l`; what is rendered must not have
# it any more (it is a word joiner now), but old stored lines may.
_LINK_BREAK = re.compile(r"(?<=\|)\x1b\[22m(?=l)")


def shown(text, limit=MAX_COMMENT):
    """What a player's text should look like on screen: one line, exactly as typed."""
    text = " ".join(without_control(text).split())
    if limit and len(text) > limit:
        text = text[:limit].rstrip() + "..."
    # `escape`'s word joiner (no width) between a `|` and an `l` keeps the pair from a link.
    return re.sub(r"\|(?=l)", "|\u2060", text)


WIDTH = 80  # every test receiver's width (no NAWS: dice_base.width_of's default)
WIDE = 10_000  # a receiver this wide gets our message unwrapped
_CODE_AT_END = re.compile(r"\n? *\[code ([A-Z0-9]{8})\]$")
# What our wrapper may add where it breaks a line: a reset (`|n`) and the looks it carries on,
# which in text of the player's are only `escape`'s bold-offs (`|H`): neither shows a colour.
_WORD = re.compile(r"(?:\[code [0-9A-Za-z]{1,9}\]|\S)+")
_BREAK_CODES = {"\x1b[0m", "\x1b[22m"}


def flat(plain):
    """Rendered lines joined back into one line (a wrapped line's indent becomes one space)."""
    return " ".join(line.strip() for line in plain.split("\n"))


def codes(rendered):
    """The colour codes in rendered telnet text, without `escape`'s link breaks."""
    return _ESC.findall(_LINK_BREAK.sub("", rendered))


class HostileBase(Connected, EvenniaCommandTest):
    """Char (staff, connected), Char2 (the hostile player, connected), Eve (connected)."""

    def setUp(self):
        super().setUp()
        self.connect(self.account2, self.char2)
        self.account3 = create.create_account("EveAccount", email="eve@test.com", password="testpassword")
        self.eve = create.create_object(self.character_typeclass, key="Eve", location=self.room1, home=self.room1)
        self.eve.account = self.account3
        self.connect(self.account3, self.eve)
        for char in (self.char1, self.char2, self.eve):
            char.set_trait("dexterity", 3)
            char.set_trait("hunger", 1)
            char.set_trait("composure", 2)
            char.set_trait("resolve", 2)
        self.viewers = [self.char1, self.char2, self.eve]

    # ------------------------------------------------------------------ running a command

    def hear(self, cmdclass, args, caller=None, faces=None):
        """
        Run a command as `caller` (default Char2) with these dice (None: any, seeded).

        Returns:
            dict: viewer -> list of the texts it was sent, exactly as sent.
        """
        caller = caller or self.char2
        cmd = cmdclass()
        cmd.caller = caller
        cmd.cmdname = cmd.raw_cmdname = cmd.cmdstring = cmd.key
        cmd.args = args
        cmd.cmdset = None
        cmd.session = caller.sessions.all()[0] if caller.sessions.count() else None
        cmd.account = caller.account
        cmd.raw_string = cmd.key + args
        cmd.obj = caller
        heard = defaultdict(list)

        def catcher(obj):
            def catch(text=None, *args, **kwargs):
                text = kwargs.get("text", text)
                heard[obj].append(text[0] if isinstance(text, tuple) else text)
            return catch

        with ExitStack() as stack:
            for obj in self.viewers:
                stack.enter_context(mock.patch.object(obj, "msg", side_effect=catcher(obj)))
            if faces is not None:
                source = stack.enter_context(seeded(FixedFaces(list(faces))))
            else:
                from random import Random

                stack.enter_context(seeded(Random(1)))
            if not cmd.at_pre_cmd():
                cmd.parse()
                cmd.func()
                cmd.at_post_cmd()
            if faces is not None:
                self.assertEqual(source.remaining, [], "unused faces")
        return heard

    def snapshot(self):
        state = {}
        for char in (self.char1, self.char2, self.eve):
            for attr in char.attributes.all():
                state[(char.key, attr.category, attr.key)] = repr(attr.value)
            state[(char.key, "ndb", "last_roll")] = id(char.ndb.last_roll)
        state["log"] = RollEntry.objects.count()
        return state

    def assert_refused(self, cmdclass, args, caller=None):
        """
        Hostile text where the command wants a pool, a number, a name: refused inertly, and
        nothing changed. (When the generated text happens to be valid, say `3`, the command
        just runs: that is not hostile text, and it is not checked here.)
        """
        caller = caller or self.char2
        before = self.snapshot()
        heard = self.hear(cmdclass, args, caller=caller)
        if any(texts for obj, texts in heard.items() if obj != caller):
            return None
        if self.snapshot() != before and len(heard[caller]) == 1:
            self.assert_our_lines_no_codes(heard[caller][0])
            return None  # a change of the caller's own (a valid +stat): told in one inert line
        out = self.assert_inert_refusal(heard, caller)
        self.assertEqual(self.snapshot(), before, out)
        return out

    # ------------------------------------------------------------------ the checks

    def assert_inert_refusal(self, heard, caller=None):
        """One line to the caller alone, with no code of the player's making."""
        caller = caller or self.char2
        others = {obj: texts for obj, texts in heard.items() if obj != caller and texts}
        self.assertEqual(others, {}, "a refusal reached someone else")
        texts = heard[caller]
        self.assertEqual(len(texts), 1, texts)
        self.assert_our_lines_no_codes(texts[0])
        return texts[0]

    def assert_our_lines_no_codes(self, text, width=WIDTH):
        """
        A message of ours carrying player text: no colour, control or link code, and every line
        break is ours: the "Usage:" line, or a break our wrapper made (the line is full: the next
        line is indented and its first word would not have fitted). Player text never starts a
        line, and no line is wider than the screen.
        """
        lines = text.split("\n")
        for rendered in (parse_ansi(text, xterm256=True), parse_ansi(text, strip_ansi=True)):
            self.assertEqual(rendered.count("\n"), len(lines) - 1, text)  # no `|/` of theirs
            self.assertNotIn("\r", rendered, text)
            self.assertEqual([c for c in codes(rendered) if c not in _BREAK_CODES], [], text)
            if len(lines) == 1:
                self.assertEqual(codes(rendered), [], text)
        for before, line in zip(lines, lines[1:]):
            self.assertLessEqual(visible_len(before), width, text)
            if line.startswith("Usage: "):
                continue
            self.assertTrue(line.startswith("  ") and line.strip(), text)
            # The next word, as the wrapper sees words: `[code XXXX]` is one with its space.
            word = _WORD.match(line.strip()).group()
            # Our wrapper breaks only when the next word (after a gap of one or two spaces:
            # "  =>  ") would pass the width.
            self.assertGreater(visible_len(before) + 2 + visible_len(word), width, text)
        self.assertLessEqual(visible_len(lines[-1]), width, text)
        html = parse_html(text)
        self.assertNotIn("mxplink", html)
        self.assertEqual(html.count("<br"), len(lines) - 1, text)
        self.assertNotIn("<span class=\"color", html)
        self.assertNotIn("\x1b", strip_ansi(text))

    def assert_one_line_no_codes(self, text):
        for rendered in (parse_ansi(text, xterm256=True), parse_ansi(text, strip_ansi=True)):
            self.assertNotIn("\n", rendered, text)
            self.assertNotIn("\r", rendered, text)
            self.assertEqual(codes(rendered), [], text)
        html = parse_html(text)
        self.assertNotIn("mxplink", html)
        self.assertNotIn("<br", html)
        self.assertNotIn("<span class=\"color", html)
        self.assertNotIn("\x1b", strip_ansi(text))

    def latest_text(self):
        return RollEntry.objects.order_by("-id").first().text

    def hear_wide(self, cmdclass, args, **kwargs):
        """What Char is sent of a command when every receiver's screen is WIDE (unwrapped)."""
        with mock.patch("storyteller_dice.commands.dice_base.width_of", return_value=WIDE):
            return self.hear(cmdclass, args, **kwargs)[self.char1][-1]

    def assert_room_message(self, heard, player_text, benign, stored, limit=MAX_COMMENT, wrapped=True):
        """
        Every viewer got the same message; it is what the log stored; it is exactly `benign`
        (the same message with BENIGN where the player's text was, as sent unwrapped: see
        `hear_wide`) with the player's text, escaped, in BENIGN's place, wrapped at 80 columns
        by `rules.display.wrap` (and the code appended by `append_code`); so every line break is
        ours. Rendered, it shows the player's text literally, with no link or colour of theirs.
        `wrapped=False`: a message not fitted to the width: exactly `benign` with the text.
        """
        messages = {obj: texts[-1] for obj, texts in heard.items() if texts}
        self.assertEqual(set(messages), set(self.viewers), heard)
        sent = set(messages.values())
        self.assertEqual(len(sent), 1, "viewers got different text")
        text = sent.pop()
        if stored is not None:
            self.assertEqual(stored, text)
        found = _CODE_AT_END.search(text)
        logical = _CODE_AT_END.sub("", benign)
        self.assertIn(f" # {BENIGN}", logical)
        logical = logical.replace(f" # {BENIGN}", f" # {escape(player_text, limit)}", 1)
        expected = "\n".join(wrap(logical, WIDTH)) if wrapped else logical
        if found:
            expected = append_code(expected, found.group(1), WIDTH)
        self.assertEqual(text, expected)
        if wrapped:
            self.assertTrue(all(visible_len(line) <= WIDTH for line in text.split("\n")), text)
        # Shown literally (a word too long for a line is split: compare without whitespace).
        display = shown(player_text, limit)
        plain = parse_ansi(text, strip_ansi=True)
        self.assertIn("".join(display.split()), "".join(plain.split()))
        # No colour of theirs: only the kinds of code the harmless message has (and resets).
        self.assertLessEqual(set(codes(parse_ansi(text, xterm256=True))),
                             set(codes(parse_ansi(benign, xterm256=True))) | _BREAK_CODES)
        html = parse_html(text)
        self.assertNotIn("mxplink", html)
        self.assertEqual(html.count("<br>"), text.count("\n"))
        return text


class TestHostileRollText(HostileBase):
    """+roll and +check: comments, pools, names."""

    def public(self, cmdclass, args, comment, faces):
        heard = self.hear(cmdclass, f"{args} # {comment}", faces=faces)
        stored = self.latest_text()
        benign = self.hear_wide(cmdclass, f"{args} # {BENIGN}", faces=faces)
        return self.assert_room_message(heard, comment, benign, stored)

    @hostile(comment=HOSTILE)
    def test_roll_comment(self, comment):
        if not shown(comment):
            return  # nothing left of it: no comment at all (tested with the harmless one below)
        self.public(CmdRoll, "dex vs 2", comment, [5, 6, 7])

    @hostile(comment=HOSTILE)
    def test_check_comment(self, comment):
        if not shown(comment):
            return
        self.public(CmdCheck, "2 vs 1", comment, [5, 6])

    @hostile(comment=HOSTILE)
    def test_private_roll_comment(self, comment):
        if not shown(comment):
            return
        heard = self.hear(CmdRoll, f"/private dex vs 2=Eve # {comment}", faces=[5, 6, 7])
        stored = self.latest_text()
        benign = self.hear_wide(CmdRoll, f"/private dex vs 2=Eve # {BENIGN}", faces=[5, 6, 7])
        self.assert_room_message(heard, comment, benign, stored)  # Char is staff: all three see it

    @hostile(pool=HOSTILE)
    def test_roll_pool(self, pool):
        self.assert_refused(CmdRoll, " " + pool)

    @hostile(number=HOSTILE)
    def test_check_number(self, number):
        self.assert_refused(CmdCheck, " " + number)

    @hostile(names=st.lists(HOSTILE, min_size=1, max_size=4).map(", ".join))
    def test_private_roll_names(self, names):
        self.assert_refused(CmdRoll, f"/private dex vs 2={names}")

    @hostile(text=HOSTILE)
    def test_roll_log_names(self, text):
        before = self.snapshot()
        heard = self.hear(CmdRolls, " " + text, caller=self.char1, faces=[])
        out = heard[self.char1]
        self.assertTrue(out)
        for message in out:
            self.assertNotIn("mxplink", parse_html(message))
            self.assertNotIn("\x1b", strip_ansi(message))
        self.assertEqual(self.snapshot(), before)


class TestHostileTableText(HostileBase):
    """+contest, +teamwork, +frenzy, +stat."""

    @hostile(comment=HOSTILE)
    def test_contest_comment(self, comment):
        if not shown(comment):
            return
        heard = self.hear(CmdContest, f" 2 vs 2 # {comment}", faces=[5, 6, 7, 8])
        stored = self.latest_text()
        benign = self.hear_wide(CmdContest, f" 2 vs 2 # {BENIGN}", faces=[5, 6, 7, 8])
        self.assert_room_message(heard, comment, benign, stored)

    @hostile(comment=HOSTILE)
    def test_teamwork_comment(self, comment):
        if not shown(comment):
            return
        heard = self.hear(CmdTeamwork, f" 2 vs 2 # {comment}")
        self.hear(CmdTeamwork, "/cancel")
        benign = self.hear_wide(CmdTeamwork, f" 2 vs 2 # {BENIGN}")
        self.hear(CmdTeamwork, "/cancel")
        self.assert_room_message(heard, comment, benign, None)  # not a roll yet: nothing stored

    @hostile(comment=HOSTILE)
    def test_frenzy_comment(self, comment):
        if not shown(comment):
            return
        heard = self.hear(CmdFrenzy, f" vs 9 # {comment}")
        stored = self.latest_text()
        self.char2.set_flag("frenzy", False)
        benign = self.hear_wide(CmdFrenzy, f" vs 9 # {BENIGN}")
        self.char2.set_flag("frenzy", False)
        self.assert_room_message(heard, comment, benign, stored)

    @hostile(text=HOSTILE, where=st.sampled_from(["", "2 vs ", "2 vs 2 hunger ", "dex vs Eve hunger "]))
    def test_contest_refusals(self, text, where):
        self.assert_refused(CmdContest, f" {where}{text}")

    @hostile(text=HOSTILE, form=st.sampled_from(["dex={}", "{}=3", "spec brawl={}", "spec {}=x", "{}/dex=2"]))
    def test_stat_values(self, text, form):
        self.char2.set_trait("brawl", 1)
        before = self.snapshot()
        out = self.assert_refused(CmdStat, " " + form.format(text))
        if out is None:
            # A value the sheet takes (a Specialty of letters, digits, ' - &, or a number):
            # a real change, told in one inert line.
            self.assertNotEqual(self.snapshot(), before)


class TestExactInputs(HostileBase):
    """Each known forging input, exactly as typed."""

    FORGE = "x$clr(/,$clr(w,[Roll])) Admin rolls 10 dice, Hunger 0, vs 3"

    def roll_comment(self, comment, cmdclass=CmdRoll, args="dex vs 2", faces=(5, 6, 7)):
        heard = self.hear(cmdclass, f" {args} # {comment}", faces=faces)
        text = heard[self.eve][-1]
        self.assertEqual(heard[self.char1][-1], text)
        self.assertEqual(heard[self.char2][-1], text)
        entry = RollEntry.objects.order_by("-id").first()
        self.assertEqual(entry.text, text)
        self.assertEqual(entry.comment, comment)
        plain = parse_ansi(text, strip_ansi=True)
        # The comment is in the header (which may wrap: its continuation is indented).
        header = plain.split("\n  Dice:")[0]
        self.assertIn(f" # {shown(comment, None)}", flat(header))
        self.assert_wrapped_by_us(text)
        return text, plain

    def assert_wrapped_by_us(self, text, wrapped=True):
        """Every line after the first is indented (ours: a body line or a continuation); every
        line break is a "\\n" of ours (none rendered from markup)."""
        plain = parse_ansi(text, strip_ansi=True)
        self.assertEqual(plain.count("\n"), text.count("\n"), text)
        for line in plain.split("\n")[1:]:
            self.assertTrue(line.startswith("  "), text)
        if wrapped:
            self.assertTrue(all(visible_len(line) <= WIDTH for line in text.split("\n")), text)

    def test_no_outgoing_function_parser(self):
        """`$` is left as typed only because nothing parses `$func()` on the way out."""
        self.assertFalse(getattr(settings, "FUNCPARSER_PARSE_OUTGOING_MESSAGES_ENABLED", False))

    def test_forged_roll_line(self):
        text, plain = self.roll_comment(self.FORGE)
        # The header wraps at 80 columns (indented), then the dice line (and the code on a line
        # of its own when it does not fit): all breaks ours.
        self.assertEqual(plain.split("\n")[2].lstrip()[:5], "Dice:")
        self.assertEqual(plain.count("[Roll]"), 2)  # ours at the start, the typed one in the comment
        self.assertTrue(plain.startswith("[Roll] Char2 rolls "))
        self.assertEqual([line for line in plain.splitlines() if line.startswith("[Roll]")], [plain.splitlines()[0]])
        html = parse_html(text)
        self.assertEqual(html.count("<br>"), text.count("\n"))  # ours only
        self.assertEqual(html.count('<span class="color-015">[Roll]</span>'), 1)
        self.assertIn("x$clr(/,$clr(w,[Roll])) Admin rolls 10 dice", html)

    def test_forged_line_through_contest_teamwork_and_frenzy(self):
        heard = self.hear(CmdContest, f" 2 vs 2 # {self.FORGE}", faces=[5, 6, 7, 8])
        self.assertIn(self.FORGE, flat(parse_ansi(heard[self.eve][-1], strip_ansi=True)))
        self.assert_wrapped_by_us(heard[self.eve][-1])
        self.assertEqual(heard[self.eve][-1], RollEntry.objects.order_by("-id").first().text)
        heard = self.hear(CmdTeamwork, f" 2 vs 2 # {self.FORGE}")
        self.assertIn(self.FORGE, flat(parse_ansi(heard[self.eve][-1], strip_ansi=True)))
        self.assert_wrapped_by_us(heard[self.eve][-1])
        self.hear(CmdTeamwork, "/cancel")
        heard = self.hear(CmdFrenzy, f" vs 9 # {self.FORGE}")
        first = flat(parse_ansi(heard[self.eve][-1], strip_ansi=True).split("\n  Dice:")[0])
        self.assertTrue(first.endswith(f"# {self.FORGE}"), first)
        self.assert_wrapped_by_us(heard[self.eve][-1])

    def test_functions_and_fields_are_not_run(self):
        for comment in ("$randint(1,10)", "$eval(2**10)", "$You()", "{you}", "{x}", "{0}", "{", "}"):
            with self.subTest(comment=comment):
                self.roll_comment(comment)

    def test_a_brace_cannot_raise_after_the_roll_is_stored(self):
        for comment in ("{", "}", "{0}", "{x}"):
            count = RollEntry.objects.count()
            self.roll_comment(comment, args="3", cmdclass=CmdCheck, faces=(5, 6, 7))
            self.assertEqual(RollEntry.objects.count(), count + 1)

    def test_huge_format_field_sends_what_was_typed(self):
        text, _ = self.roll_comment("{you:>1000000}")
        self.assertLess(len(text), 1000)

    def test_line_break_markup(self):
        text, plain = self.roll_comment("|/[Roll] fake")
        self.assertEqual(plain.split("\n")[1].lstrip()[:5], "Dice:")  # the header is one line
        self.assertIn("# |/[Roll] fake", plain)

    def test_link_markup_hides_nothing_and_links_nothing(self):
        text, plain = self.roll_comment("|lcquit|ltclick|le")
        link = "|\u2060lcquit|\u2060ltclick|\u2060le"
        self.assertIn(f"# {link}", parse_ansi(text, strip_ansi=True, mxp=False))
        self.assertIn(link, _ESC.sub("", parse_ansi(text, xterm256=True)))
        self.assertNotIn("mxplink", parse_html(text))
        # With colour off (`option nocolor`) Evennia drops colour codes before it looks for
        # links: nothing invisible may be all that keeps the link apart.
        self.assertNotIn("mxplink", parse_html(text, strip_ansi=True))
        self.assertNotIn("<SEND", mxp_parse(parse_ansi(text, strip_ansi=True, mxp=True)))
        text, _ = self.roll_comment("|luhttp://evil.example|ltok|le")
        self.assertNotIn("mxplink", parse_html(text))
        self.assertNotIn("mxplink", parse_html(text, strip_ansi=True))

    def test_colour_markup(self):
        for comment in ("|r", "|[r", "|#ff0000", "|555", "|*", "|^", "|u", "|h", "|=a", "|[=z", "||r", "\\\\", "{{"):
            with self.subTest(comment=comment):
                text, plain = self.roll_comment(f"a{comment}b")
                benign = self.hear(CmdRoll, " dex vs 2 # aXb", faces=[5, 6, 7])[self.eve][-1]
                self.assertEqual(codes(parse_ansi(text, xterm256=True)), codes(parse_ansi(benign, xterm256=True)))

    # -------------------------------------------------------------- "Why" 2: switches

    def test_capital_switches(self):
        heard = self.hear(CmdCheck, "/PRIVATE 4", faces=[5, 6, 7, 8])
        self.assertEqual(heard[self.eve], [])
        self.assertTrue(heard[self.char2][-1].startswith("|w[Private roll]|n Char2 checks 4"))
        self.assertTrue(RollEntry.objects.order_by("-id").first().private)
        heard = self.hear(CmdRoll, "/Priv 3", faces=[5, 6, 7])
        self.assertEqual(heard[self.eve], [])
        self.assertTrue(RollEntry.objects.order_by("-id").first().private)
        self.assertFalse(any("Extra switch" in t for t in heard[self.char2]))

    def test_capital_slake(self):
        self.eve.set_trait("hunger", 3)
        heard = self.hear(CmdHunger, "/Slake Eve=1", caller=self.char1, faces=[])
        self.assertEqual(self.eve.trait("hunger"), 2)  # slaked by 1, not set to 1
        self.assertIn("slaked by 1", heard[self.char1][-1])

    def test_capital_defend(self):
        lower = self.hear(CmdContest, "/defend 2 vs 2", caller=self.char1, faces=[5, 6, 7, 8])[self.eve][-1]
        upper = self.hear(CmdContest, "/Defend 2 vs 2", caller=self.char1, faces=[5, 6, 7, 8])[self.eve][-1]
        code = re.compile(r"\[code [A-Z0-9]{8}\]")
        self.assertEqual(code.sub("", upper), code.sub("", lower))

    def test_empty_switches_listed_once(self):
        heard = self.hear(CmdRoll, "//", faces=[])
        out = self.assert_inert_refusal(heard)
        self.assertEqual(out.count("/private"), 1, out)
        self.assertIn("Put a switch name after '/'", out)

    def test_ambiguous_and_unknown_switches(self):
        out = self.assert_inert_refusal(self.hear(CmdRoll, "/st 3", faces=[]))
        self.assertIn("Switch /st could be /status or /stop.", out)
        out = self.assert_inert_refusal(self.hear(CmdRoll, "/|r|/x 3", faces=[]))
        self.assertIn("Unknown switch /||r|| (", out)

    # -------------------------------------------------------------- "Why" 4: private flood

    def test_private_names_bounded_before_any_search(self):
        from storyteller_dice.commands import dice_base

        with mock.patch("storyteller_dice.commands.roll_parts.find_character", wraps=dice_base.find_character) as found:
            heard = self.hear(CmdRoll, "/private 3=" + ",".join(["Bob"] * 1200), faces=[])
            self.assertEqual(found.call_count, 1)  # one name, looked up once
            self.assert_inert_refusal(heard)  # no Bob here
            heard = self.hear(CmdRoll, "/private 3=" + ",".join(f"Bob{i}" for i in range(1200)), faces=[])
            self.assertEqual(found.call_count, 1)  # refused before any lookup
        self.assertIn(f"at most {MAX_SHARED} characters", self.assert_inert_refusal(heard))
        many = ",".join(f"Name{i}" for i in range(MAX_SHARED + 1))
        out = self.assert_inert_refusal(self.hear(CmdRoll, f"/private 3={many}", faces=[]))
        self.assertIn(f"at most {MAX_SHARED} characters", out)

    def test_private_names_deduplicated(self):
        names = ",".join(["Eve", "eve", "EVE"] * 5 + ["Char"])
        heard = self.hear(CmdRoll, f"/private 3={names}", faces=[5, 6, 7])
        self.assertTrue(heard[self.eve])
        entry = RollEntry.objects.order_by("-id").first()
        self.assertEqual(entry.details["shared_with"], ["Eve", "Char"])

    # -------------------------------------------------------------- "Why" 6 (small items)

    def test_slake_far_too_much(self):
        self.eve.set_trait("hunger", 3)
        before = self.snapshot()
        out = self.assert_inert_refusal(self.hear(CmdHunger, "/slake Eve=99999999999999999999999",
                                                  caller=self.char1, faces=[]), caller=self.char1)
        self.assertIn("Slake Hunger by 1 to 5.", out)
        self.assertEqual(self.snapshot(), before)

    def test_leading_zeros(self):
        heard = self.hear(CmdCheck, " 00000000000003", faces=[5, 6, 7])
        self.assertIn("Char2 checks 3 dice", parse_ansi(heard[self.eve][-1], strip_ansi=True))
        heard = self.hear(CmdRoll, " dex vs 0000000000000000002", faces=[5, 6, 7])
        self.assertIn("vs 2", parse_ansi(heard[self.eve][-1], strip_ansi=True))

    def test_rouse_negative_count(self):
        out = self.assert_inert_refusal(self.hear(CmdRouse, " -1", faces=[]))
        self.assertIn("Make from 1 to", out)
        self.assertNotIn("no character", out)
        heard = self.hear(CmdRouse, " 0000000000000000000000000002", faces=[6, 7])
        self.assertIn("Char2 makes 2 Rouse checks", heard[self.eve][-1])

    def test_seen_by_only_the_connected(self):
        self.disconnect(self.eve)
        self.hear(CmdRoll, " dex vs 2", faces=[5, 6, 7])
        entry = RollEntry.objects.order_by("-id").first()
        self.assertEqual(entry.shown_ids(), {self.char1.id, self.char2.id})
        self.assertNotIn("Eve", entry.receiver_names)
        from storyteller_dice.rolllog import api

        self.assertNotIn(entry, set(api.visible_to_account(self.account3)))
        # Shared by name while offline: named, not seen.
        self.hear(CmdRoll, "/private dex vs 2=Eve", faces=[5, 6, 7])
        entry = RollEntry.objects.order_by("-id").first()
        self.assertEqual(entry.details["shared_with"], ["Eve"])
        self.assertFalse(api.can_view(entry, self.eve))


class TestEscape(HostileBase):
    """`escape` alone (the speech filter may import it): inert, literal, one line."""

    @hostile(text=HOSTILE)
    def test_escape_is_literal_and_inert(self, text):
        out = escape(text)
        self.assertEqual(parse_ansi(out, strip_ansi=True), shown(text, None))
        self.assertEqual(_ESC.sub("", parse_ansi(out, xterm256=True)), shown(text, None))
        self.assert_one_line_no_codes(out)

    def test_signature(self):
        self.assertEqual(escape("a|rb", 2), "a||...")
        self.assertEqual(escape(None), "None")
