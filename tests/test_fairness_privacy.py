"""
The fairness report shows only what its viewer could see: a differential test, run as a player
P before and after another player Q's private roll (the command and the page), and exact
reports for every viewer on a seeded mixed game (the same on SQLite and PostgreSQL:
`scripts/with_postgres.sh scripts/test.sh tests/test_fairness_privacy.py`).
"""

import datetime
import random

import pytest

from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.fairness import CmdDice
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.rolllog import api, fairness
from storyteller_dice.rolllog.models import FaceTally, Participant, RollEntry, RollFace
from storyteller_dice.rules.fairness import tally
from storyteller_dice.rules.randomness import seeded

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

UTC = datetime.timezone.utc
MIDNIGHT = datetime.datetime(2026, 3, 10, tzinfo=UTC)


def view(faces, hunger=()):
    groups = [{"label": "Dice", "sides": 10, "dice": [[face, []] for face in faces]}]
    if hunger:
        groups.append({"label": "Hunger", "sides": 10, "dice": [[face, ["hunger"]] for face in hunger]})
    return {"system": "v5", "pool": "dice", "target": "", "groups": groups, "score": 0,
            "noun": ["success", "successes"], "outcome": {"key": "failure", "label": "failure", "tone": "bad"},
            "notes": []}


class PrivacyTest(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        for who in (self.char1, self.account, self.char2, self.account2):
            who.permissions.remove("Developer")
        self.account.is_superuser = False
        self.account.save()
        self.staff = create.create_object(self.character_typeclass, key="Storyteller", location=self.room1,
                                          home=self.room1)
        self.staff.permissions.add("Builder")
        # Q is played (a session of its own), so it may be named on a private roll.
        self.char2.sessions.add(self.session)
        self.char1.set_trait("dexterity", 3)
        self.char2.set_trait("dexterity", 4)
        self.char1.set_trait("hunger", 0)
        self.char2.set_trait("hunger", 0)

    def reports(self):
        """(P's command report, P's page's charts, P's report for 30 days, staff's report)."""
        self.client.force_login(self.account)
        page = self.client.get("/rolls/fairness/").content.decode()
        charts = page[page.index('<svg'):page.rindex('</svg>')]
        return (self.call(CmdDice(), "/fairness", caller=self.char1), charts,
                self.call(CmdDice(), "/fairness 30", caller=self.char1),
                self.call(CmdDice(), "/fairness", caller=self.staff))


class TestNoLeak(PrivacyTest):
    def test_another_players_private_roll_leaves_my_report_unchanged(self):
        with seeded(18):
            for _ in range(30):
                self.call(CmdRoll(), "dex", caller=self.char1)
                self.call(CmdRoll(), "dex", caller=self.char2)
        mine, page, recent, staff = self.reports()
        self.assertIn("d10 Dice: 210 dice, 21 expected per face", mine)
        self.assertIn("d10 Dice: 210 dice, 21 expected per face", staff)
        with seeded(19):
            self.call(CmdRoll(), "/private dex", caller=self.char2)
        entry = RollEntry.objects.get(private=True)
        self.assertEqual(entry.receiver_names, ["Char2"])
        self.assertEqual(self.reports()[:3], (mine, page, recent))
        self.assertIn("d10 Dice: 214 dice, 21.4 expected per face", self.reports()[3])

        # Shown to P: P's report counts it now (and staff's counts both).
        with seeded(20):
            self.call(CmdRoll(), "/private dex=Char", caller=self.char2)
        shown = RollEntry.objects.filter(private=True).order_by("id").last()
        self.assertEqual(shown.receiver_names, ["Char2", "Char"])
        after, after_page, after_recent, after_staff = self.reports()
        self.assertIn("d10 Dice: 214 dice, 21.4 expected per face", after)
        self.assertNotEqual(after_page, page)
        self.assertIn("d10 Dice: 214 dice, 21.4 expected per face", after_recent)
        self.assertIn("d10 Dice: 218 dice, 21.8 expected per face", after_staff)
        # Q sees both of their own private rolls.
        self.assertIn("d10 Dice: 218 dice, 21.8 expected per face",
                      self.call(CmdDice(), "/fairness", caller=self.char2))


class TestExactReports(PrivacyTest):
    def test_each_viewer_counts_public_rolls_and_the_private_rolls_shown_to_them(self):
        """Seeded rolls over ten days, public and private with every audience, every window."""
        rng = random.Random(1818)
        people = [self.char1, self.char2, self.staff]
        made = []
        for number in range(240):
            who = rng.choice(people)
            private = rng.random() < 0.5
            audience = [who] + ([other for other in people if other is not who and rng.random() < 0.3]
                                if private else [])
            created = MIDNIGHT + datetime.timedelta(seconds=rng.uniform(0, 10 * 86400))
            shown = view([rng.randint(1, 10) for _ in range(rng.randint(1, 5))],
                         [rng.randint(1, 10) for _ in range(rng.randint(0, 2))])
            entry = api.store_roll(who, {"view": shown}, private=private, receivers=audience)
            RollEntry.objects.filter(id=entry.id).update(created=created)
            RollFace.objects.filter(entry_id=entry.id).update(created=created)
            Participant.objects.filter(entry_id=entry.id).update(day=created.date())
            made.append((created, private, {obj.id for obj in audience} | {who.id}, shown))
        fairness.rebuild_tally()  # the dates were moved around save() (RollFace and Participant too)
        self.assertTrue(FaceTally.objects.filter(private=True).exists())
        day = datetime.timedelta(days=1)
        windows = [(None, None), (MIDNIGHT + 2.5 * day, None), (MIDNIGHT + day, MIDNIGHT + 4 * day),
                   (MIDNIGHT + 3.2 * day, MIDNIGHT + 3.7 * day)]
        for viewer in (self.char1, self.char2, self.account, self.staff, None):
            ids = api.own_character_ids(viewer) if viewer is not None and not api.is_staff(viewer) else None
            for since, until in windows:
                expected = tally(group for created, private, audience, shown in made
                                 if (since is None or created >= since) and (until is None or created < until)
                                 and (ids is None or not private or audience & ids) for group in shown["groups"])
                expected = {key: dict(sorted(faces.items())) for key, faces in sorted(expected.items()) if faces}
                got = fairness.face_counts(since=since, until=until, shown_to=viewer)
                self.assertEqual(got, expected, (viewer, since, until))
        self.assertNotEqual(fairness.face_counts(shown_to=self.char1), fairness.face_counts())
