"""The roll log: codes, storing through announce/record_action, visibility, the web page."""

import re
from unittest import mock

import pytest

from django.test import override_settings
from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from tests.table_helpers import Connected

from storyteller_dice.commands.dice_base import announce, record_action
from storyteller_dice.rolllog import api, codes
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules import v5
from storyteller_dice.rules.engine import RollRequest
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.v5.system import SYSTEM as V5

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

CODE = re.compile(r"\[code ([A-Z0-9]{8})\]")


def faces(entry, field="view"):
    """{group label: faces} of an entry's stored view."""
    view = getattr(entry, field)
    return {group["label"]: [face for face, _ in group["dice"]] for group in view["groups"]}


def test_codes_are_short_unambiguous_and_random():
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) == 2000
    for code in made:
        assert len(code) == 8
        assert set(code) <= set(codes.ALPHABET)
    assert not set("01ILO") & set(codes.ALPHABET)


def test_typed_codes_are_read_case_insensitively():
    assert codes.normalize("abcd2345") == "ABCD2345"
    assert codes.normalize(" abcd-2345 ") == "ABCD2345"
    assert codes.normalize("abcd 2345") == "ABCD2345"
    for bad in ("", None, "ABC", "ABCD23456", "ABCD2O45", "ABCD1345", "ABCD%345"):
        assert codes.normalize(bad) is None


class LogTestBase(Connected, EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        # Char2 is a second player, online: "seen by" lists only connected characters.
        self.connect(self.account2, self.char2)
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("stealth", 2)
        self.char1.set_trait("hunger", 2)
        # char2 is a plain player (EvenniaCommandTest makes char1/account staff).
        self.char3 = create.create_object(self.character_typeclass, key="Char3", location=self.room2,
                                          home=self.room2)

    def v5_record(self, faces=(2, 6, 10, 1, 10), difficulty=3, difficulty_given=True, **extra):
        """A V5 roll's record as `commands/rolls.py` makes it: the view, the system's data."""
        pool = build_pool("dex+stealth", self.char1.trait_table())
        result = v5.evaluate(faces[:3], faces[3:], difficulty)
        request = v5_request(pool, len(faces), difficulty, difficulty_given)
        record = {"kind": "roll", "command": "+roll dex+stealth vs 3", "pool": pool, "result": result,
                  "difficulty_given": difficulty_given, "comment": "sneaking", "system": "v5",
                  "view": V5.view(result, request), "data": V5.record(result, request)}
        record.update(extra)
        return record


def v5_request(pool, dice, difficulty, given=True):
    return RollRequest("v5", "", pool, dice, difficulty, target_given=given)


class TestStoring(LogTestBase):
    def test_announce_stores_everything_and_appends_the_code(self):
        receivers = announce(self.char1, "[Roll] Char rolls\n  Dice: ...", record=self.v5_record())
        entry = receivers.entry
        self.assertIsInstance(entry, RollEntry)
        self.assertIn(self.char2, receivers)  # still the list of receivers
        self.assertEqual(receivers.code, entry.code)
        self.assertTrue(entry.text.endswith(f"[code {entry.code}]"))
        self.assertEqual(entry.text.splitlines()[0], "[Roll] Char rolls")
        self.assertEqual(entry.character, self.char1)
        self.assertEqual(entry.character_name, "Char")
        self.assertEqual(entry.account, self.account)
        self.assertEqual(entry.account_name, "TestAccount")
        self.assertEqual(entry.room, self.room1)
        self.assertEqual(entry.room_name, "Room")
        self.assertEqual(entry.system, "v5")
        self.assertEqual(entry.command, "+roll dex+stealth vs 3")
        self.assertEqual(entry.comment, "sneaking")
        self.assertEqual(entry.pool_text, "Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 2")
        self.assertEqual([p["trait"] for p in entry.pool], ["dexterity", "stealth"])
        self.assertEqual([p["value"] for p in entry.pool], [3, 2])
        self.assertEqual(faces(entry), {"Dice": [2, 6, 10], "Hunger": [1, 10]})
        self.assertEqual((entry.dice, entry.target, entry.score), (5, "vs 3", 5))
        self.assertEqual(entry.outcome, "messy_critical")
        self.assertEqual(entry.view["outcome"], {"key": "messy_critical", "label": "messy critical",
                                                 "tone": "mixed"})
        self.assertEqual(entry.summary, "5 successes: messy critical (margin +2, solid success)")
        self.assertFalse(entry.private)
        self.assertEqual(entry.shown_ids(), {self.char1.id, self.char2.id})  # not Obj/Obj2/exits
        self.assertFalse(entry.action)

    def test_stored_before_anyone_is_told(self):
        seen = []

        def check(*args, **kwargs):
            seen.append(RollEntry.objects.count())

        with mock.patch.object(type(self.char1), "msg", side_effect=check, autospec=True):
            receivers = announce(self.char1, "[Roll] x", record=self.v5_record())
        self.assertEqual(seen, [1, 1])  # Char and Char2, each told after the roll was stored
        self.assertIsNotNone(receivers.entry.pk)

    def test_the_room_hears_the_code(self):
        with mock.patch.object(type(self.char1), "msg", autospec=True) as sent:
            receivers = announce(self.char1, "[Roll] x", record=self.v5_record())
        told = {call.args[0]: call.kwargs["text"] for call in sent.call_args_list}
        self.assertEqual(told, {self.char1: f"[Roll] x [code {receivers.code}]",
                                self.char2: f"[Roll] x [code {receivers.code}]"})

    def test_without_a_record_nothing_is_stored(self):
        receivers = announce(self.char1, "just text")
        self.assertIsNone(receivers.entry)
        self.assertEqual(RollEntry.objects.count(), 0)

    def test_no_difficulty_stored_when_none_was_given(self):
        entry = announce(self.char1, "x", record=self.v5_record(difficulty_given=False)).entry
        self.assertEqual(entry.target, "")
        self.assertEqual(entry.summary, "5 successes: messy critical")

    def test_plain_values_and_extra_keys(self):
        record = dict(self.v5_record(), kind="rouse", pool="Rouse check", power_level=2, target=self.char2)
        entry = announce(self.char1, "x", record=record).entry
        self.assertEqual(entry.kind, "rouse")
        self.assertEqual(faces(entry), {"Dice": [2, 6, 10], "Hunger": [1, 10]})
        self.assertEqual(entry.details["power_level"], 2)
        self.assertEqual(entry.details["target"], {"id": self.char2.id, "name": "Char2"})
        # What a command keeps with its record for itself is not stored.
        self.assertNotIn("result", entry.details)
        self.assertNotIn("difficulty_given", entry.details)

    def test_a_record_without_a_view_is_refused_clearly_and_nothing_is_stored(self):
        for record in ({"kind": "roll", "result": v5.evaluate((2, 6), (10,), 1)}, {"kind": "willpower"},
                       {"view": None, "command": "+roll 3"}):
            with self.assertRaisesRegex(api.RecordError, r"record has no view: store_roll needs the RollView"):
                api.store_roll(self.char1, record)
        with mock.patch.object(type(self.char1), "msg", autospec=True) as sent:
            with self.assertRaises(api.RecordError):
                announce(self.char1, "x", record={"kind": "rouse", "regular": [7]})
        sent.assert_not_called()  # refused before anyone is told
        self.assertEqual(RollEntry.objects.count(), 0)

    def test_willpower_in_the_same_command_keeps_the_first_faces(self):
        first = v5.evaluate((1, 2, 6, 3), (7,), 3)
        after = v5.apply_reroll(first, (0, 1, 3), (10, 10, 8))
        request = v5_request(None, 5, 3)
        entry = announce(self.char1, "x", record={"view": V5.view(after, request),
                                                  "initial": V5.view(first, request)}).entry
        self.assertEqual(faces(entry), {"Dice": [10, 10, 6, 8], "Hunger": [7]})
        self.assertEqual([sorted(m) for _, m in entry.view["groups"][0]["dice"]],
                         [["rerolled", "success", "ten"], ["rerolled", "success", "ten"], ["success"],
                          ["rerolled", "success"]])
        self.assertEqual(faces(entry, "initial"), {"Dice": [1, 2, 6, 3], "Hunger": [7]})

    def test_a_later_change_links_to_its_roll_and_has_its_own_code(self):
        roll = announce(self.char1, "x", record=self.v5_record()).entry
        by_entry = announce(self.char1, "y", record=self.v5_record(kind="willpower", parent=roll)).entry
        by_code = announce(self.char2, "z", record=self.v5_record(kind="contest", parent=roll.code.lower())).entry
        self.assertEqual(by_entry.parent, roll)
        self.assertEqual(by_code.parent, roll)
        self.assertEqual(len({roll.code, by_entry.code, by_code.code}), 3)
        self.assertEqual(list(roll.changes.order_by("id")), [by_entry, by_code])
        self.assertEqual(api.latest(self.char1), by_entry)
        self.assertEqual(api.latest(self.char1, kinds=["roll"]), roll)

    def test_private_roll_stores_its_receivers(self):
        receivers = announce(self.char1, "x", private=True, shared_with=[self.char2],
                             record=self.v5_record())
        entry = receivers.entry
        self.assertTrue(entry.private)
        self.assertEqual(entry.shown_ids(), {self.char1.id, self.char2.id})
        self.assertEqual(entry.details["shared_with"], ["Char2"])

    def test_a_code_clash_is_retried(self):
        taken = announce(self.char1, "x", record=self.v5_record()).entry.code
        fresh = "ZZZZ2222" if taken != "ZZZZ2222" else "YYYY3333"
        with mock.patch("storyteller_dice.rolllog.codes.new_code", side_effect=[taken, taken, fresh]):
            entry = announce(self.char1, "x", record=self.v5_record()).entry
        self.assertEqual(entry.code, fresh)
        self.assertEqual(RollEntry.objects.count(), 2)

    def test_record_action_for_staff_changes(self):
        entry = record_action(self.char1, self.char2, "hunger", "Hunger 1 -> 3",
                              command="+hunger Char2=3", details={"old": 1, "new": 3})
        self.assertTrue(entry.action)
        self.assertTrue(entry.private)
        self.assertEqual(entry.kind, "hunger")
        self.assertEqual(entry.subject, self.char2)
        self.assertEqual(entry.summary, "Hunger 1 -> 3")
        self.assertEqual(entry.details, {"old": 1, "new": 3})
        self.assertEqual(entry.who, "Char for Char2")
        self.assertEqual(entry.shown_ids(), {self.char1.id, self.char2.id})
        self.assertEqual(len(entry.code), 8)
        self.assertEqual(entry.text, "")


class TestVisibility(LogTestBase):
    def test_public_visible_to_all_private_to_participants_and_staff(self):
        public = announce(self.char1, "x", record=self.v5_record()).entry
        private = announce(self.char2, "x", private=True, record=self.v5_record()).entry
        self.assertTrue(api.can_view(public, self.char3))
        self.assertTrue(api.can_view(private, self.char2))  # the roller
        self.assertTrue(api.can_view(private, self.char1))  # staff
        self.assertFalse(api.can_view(private, self.char3))  # an outsider
        self.assertIsNone(api.find_visible(private.code, self.char3))
        self.assertEqual(api.find_visible(private.code.lower(), self.char2), private)
        self.assertIsNone(api.find_visible("ZZZZZZZZ", self.char2))

    def test_shared_with_can_view(self):
        self.char3.location = self.room1
        account3 = create.create_account("TestAccount3", email="t3@test.com", password="testpassword")
        self.connect(account3, self.char3)
        private = announce(self.char2, "x", private=True, shared_with=[self.char3],
                           record=self.v5_record()).entry
        self.assertTrue(api.can_view(private, self.char3))

    def test_staff_action_visible_to_its_subject(self):
        entry = record_action(self.char1, self.char2, "hunger", "Hunger 1 -> 2")
        self.assertTrue(api.can_view(entry, self.char2))
        self.assertFalse(api.can_view(entry, self.char3))

    def test_web_visibility_for_a_player(self):
        account3 = create.create_account("TestAccount3", email="t3@test.com", password="testpassword")
        account3.characters.add(self.char3)
        self.char3.account = account3
        # Public rolls in Room, where Char3 never was.
        before = announce(self.char1, "x", record=self.v5_record()).entry
        self.assertEqual(list(api.visible_to_account(account3)), [])
        # Char3 rolls in Room2, then comes to Room and sees a roll there.
        own = announce(self.char3, "x", record=self.v5_record()).entry
        self.char3.location = self.room1
        self.connect(account3, self.char3)
        seen = announce(self.char1, "x", record=self.v5_record()).entry
        hidden = announce(self.char2, "x", private=True, record=self.v5_record()).entry
        shared = announce(self.char2, "x", private=True, shared_with=[self.char3],
                          record=self.v5_record()).entry
        visible = set(api.visible_to_account(account3))
        # Own roll, the roll seen, the earlier public roll of a room Char3 was in, the shared
        # private roll; never someone else's private roll.
        self.assertEqual(visible, {own, seen, before, shared})
        self.assertNotIn(hidden, visible)
        # Staff see everything.
        self.assertEqual(set(api.visible_to_account(self.account)), set(RollEntry.objects.all()))
        account3.delete()


class TestWebPage(LogTestBase):
    def setUp(self):
        super().setUp()
        self.account2.set_password("testpassword")
        self.account2.save()

    def login(self, account):
        self.client.force_login(account)

    def test_login_required(self):
        response = self.client.get("/rolls/")
        self.assertEqual(response.status_code, 302)
        self.assertIn("login", response["Location"])

    def test_player_sees_public_and_own_not_others_private(self):
        public = announce(self.char1, "x", record=self.v5_record()).entry
        secret = announce(self.char1, "x", private=True, record=self.v5_record()).entry
        self.login(self.account2)
        page = self.client.get("/rolls/").content.decode()
        self.assertIn(public.code, page)
        self.assertNotIn(secret.code, page)
        page = self.client.get("/rolls/", {"code": secret.code}).content.decode()
        self.assertNotIn('data-code="', page)
        self.assertIn('<p id="rolllog-none">There is no such roll.</p>', page)
        nowhere = self.client.get("/rolls/", {"code": "ZZZZZZZZ"}).content.decode()
        self.assertIn('<p id="rolllog-none">There is no such roll.</p>', nowhere)
        mine = self.client.get("/rolls/", {"code": public.code}).content.decode()
        self.assertIn(f'data-code="{public.code}"', mine)

    def test_control_characters_in_the_filter_are_harmless(self):
        # PostgreSQL refuses NUL in text: the filter must not pass it on (a 500 otherwise).
        self.login(self.account)
        response = self.client.get("/rolls/", {"character": "Ch\x00ar", "code": "AB\x00CD"})
        self.assertEqual(response.status_code, 200)

    def test_player_text_is_escaped_on_the_page(self):
        attack = '<script>alert("x")</script><img src=x onerror=alert(1)>'
        entry = announce(self.char1, "x", record=self.v5_record(
            comment=attack, command=f"+roll dex+stealth vs 3 # {attack}")).entry
        self.login(self.account)
        page = self.client.get("/rolls/", {"code": entry.code}).content.decode()
        self.assertIn(f'data-code="{entry.code}"', page)
        self.assertNotIn("<script>alert", page)
        self.assertNotIn("<img src=x", page)
        self.assertIn("&lt;script&gt;alert(", page)

    def test_staff_filters_by_code_and_character(self):
        first = announce(self.char1, "x", record=self.v5_record()).entry
        second = announce(self.char2, "x", private=True, record=self.v5_record()).entry
        self.login(self.account)
        page = self.client.get("/rolls/").content.decode()
        self.assertIn(first.code, page)
        self.assertIn(second.code, page)
        page = self.client.get("/rolls/", {"code": first.code.lower()}).content.decode()
        self.assertIn(f'data-code="{first.code}"', page)
        self.assertNotIn(f'data-code="{second.code}"', page)
        page = self.client.get("/rolls/", {"character": "char2"}).content.decode()
        self.assertIn(f'data-code="{second.code}"', page)
        self.assertNotIn(f'data-code="{first.code}"', page)
        # The marks mirror the telnet colours.
        self.assertIn('class="die mark-hunger mark-success mark-ten">10<', page)
        self.assertIn('class="die mark-hunger mark-one">1<', page)
        self.assertIn('rolllog-outcome tone-mixed', page)
        # Dice apart ("10 10", not "1010"), no word "hunger" in a class name of ours.
        self.assertIn('<span class="die mark-hunger mark-one">1</span> <span class="die mark-hunger', page)
        self.assertNotIn("die-hunger", page)

    def test_staff_admin_lists_entries_read_only(self):
        entry = announce(self.char1, "x", record=self.v5_record()).entry
        self.account.is_superuser = self.account.is_staff = True
        self.account.save()
        self.login(self.account)
        page = self.client.get("/admin/rolllog/rollentry/")
        self.assertEqual(page.status_code, 200)
        self.assertIn(entry.code, page.content.decode())
        self.assertEqual(self.client.get("/admin/rolllog/rollentry/add/").status_code, 403)

    def test_nav_links_to_the_log(self):
        self.login(self.account2)
        page = self.client.get("/").content.decode()
        self.assertIn('href="/rolls/"', page)


# What a page loads (links to other sites are fine: following them is the reader's choice).
RESOURCE_TAG = re.compile(r"<(?:script|link|img|iframe|source|audio|video|embed|object)\b[^>]*>", re.IGNORECASE)
EXTERNAL = re.compile(r"""(?:src|href|data)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
CSS_IMPORT = re.compile(r"""(?:@import|url\()\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)


@override_settings(WEBCLIENT_ENABLED=True)
class TestOfflinePages(EvenniaCommandTest):
    """The web client and website load nothing from other hosts (they must work offline)."""

    def assert_local(self, path):
        self.client.force_login(self.account)
        response = self.client.get(path)
        self.assertEqual(response.status_code, 200, path)
        html = response.content.decode()
        tags = RESOURCE_TAG.findall(html)
        self.assertTrue(tags, path)
        self.assertEqual([tag for tag in tags if EXTERNAL.search(tag)], [], path)
        self.assertEqual(CSS_IMPORT.findall(html), [], path)
        return html

    def test_webclient_uses_local_copies(self):
        html = self.assert_local("/webclient/")
        for local in ("vendor/jquery-3.2.1/jquery.min.js", "vendor/golden-layout-1.5.9/goldenlayout.min.js",
                      "vendor/golden-layout-1.5.9/goldenlayout-base.css",
                      "vendor/golden-layout-1.5.9/goldenlayout-dark-theme.css",
                      "vendor/favico.js-0.3.10/favico-0.3.10.min.js",
                      "vendor/bootstrap-4.0.0-beta/bootstrap.min.css",
                      "vendor/bootstrap-4.0.0-beta/bootstrap.min.js", "vendor/popper.js-1.11.0/popper.min.js",
                      "webclient/js/plugins/font_offline.js", "webclient/css/dice.css"):
            self.assertIn(f"/static/{local}", html)
        self.assertNotIn("plugins/font.js", html)

    def test_website_pages_use_local_copies(self):
        for path in ("/", "/rolls/", "/characters/", "/help/"):
            html = self.assert_local(path)
            self.assertIn("/static/vendor/bootstrap-4.6.0/bootstrap.min.css", html)
            self.assertIn("/static/vendor/jquery-3.2.1/jquery.slim.min.js", html)


# ---------------------------------------------------------------- the system-neutral record


def toy_view(score=2, key="hit", label="two hits", tone="good", system="toy"):
    from storyteller_dice.rules.engine import DiceGroup, Die, Outcome, RollView

    return RollView(system=system, pool="Sneak 3 dice", target="TN 4",
                    groups=(DiceGroup("Dice", (Die(5, frozenset({"hit"})), Die(2, frozenset({"fail"})),
                                               Die(6, frozenset({"hit", "double"}))), sides=6),),
                    score=score, noun=("hit", "hits"), outcome=Outcome(key, label, tone), notes=("one spare",))


class TestNewShape(LogTestBase):
    def test_a_view_is_stored_whole_with_its_plain_columns(self):
        view = toy_view()
        entry = announce(self.char1, "x", record={
            "kind": "roll", "command": "+roll sneak vs 4", "comment": "quietly", "system": "toy",
            "view": view, "data": {"system": "toy", "view": view.to_dict(), "faces": [5, 2, 6]},
        }).entry
        entry.refresh_from_db()
        self.assertEqual(entry.system, "toy")
        self.assertEqual(entry.roll_view, view)
        self.assertEqual((entry.pool_text, entry.target, entry.score, entry.outcome, entry.dice),
                         ("Sneak 3 dice", "TN 4", 2, "hit", 3))
        self.assertEqual(entry.summary, "2 hits: two hits (one spare)")
        self.assertEqual(entry.data["faces"], [5, 2, 6])
        self.assertEqual(entry.sides, [])
        self.assertIsNone(entry.initial)

    def test_the_system_comes_from_the_view(self):
        entry = announce(self.char1, "x", record={"view": toy_view(system="seyruun")}).entry
        self.assertEqual(entry.system, "seyruun")

    def test_a_contest_keeps_each_side_apart_and_the_verdict(self):
        thorne, vesper = toy_view(5, "win", "messy critical", "mixed"), toy_view(4, "failure", "failure", "bad")
        entry = announce(self.char2, "x", record={
            "kind": "contest", "command": "+contest/answer wits", "view": thorne,
            "sides": [{"label": "Thorne", "view": thorne}, {"label": "Vesper", "view": vesper}],
            "verdict": "Thorne wins by 1 (5 to 4).", "subject": self.char1,
        }).entry
        self.assertEqual([side["label"] for side in entry.sides], ["Thorne", "Vesper"])
        self.assertEqual(entry.sides[1]["view"], vesper.to_dict())
        self.assertEqual((entry.verdict, entry.summary), ("Thorne wins by 1 (5 to 4).",) * 2)

    def test_a_bad_view_is_refused_before_anything_is_stored(self):
        with self.assertRaises(Exception):
            announce(self.char1, "x", record={"view": {"groups": []}})
        self.assertEqual(RollEntry.objects.count(), 0)


def test_rolllog_imports_no_command_and_no_system_module():
    """rolllog/ (migrations included) talks to rules.engine and rules.display only."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "rolllog"
    for path in root.rglob("*.py"):
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")):
                assert "commands" not in stripped.split(), (path, line)
                assert not stripped.startswith(("from commands", "import commands")), (path, line)
                assert "rules.v5" not in stripped and "rules import v5" not in stripped, (path, line)
