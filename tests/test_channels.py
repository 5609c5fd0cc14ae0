"""
Channels (typeclasses/channels.py): a channel's name follows the name rule and never reads as a
tag of ours, its description is text, and its log file stays inside LOG_DIR for any name.
"""

import os
from unittest import mock

from django.conf import settings
from django.test import override_settings
from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest, EvenniaTest

from storyteller_dice.typeclasses.channels import log_filename
from storyteller_dice.typeclasses.names import RENAME, TAG_LIKE

CHANNEL = "typeclasses.channels.Channel"


def inside_log_dir(filename):
    root = os.path.realpath(settings.LOG_DIR)
    return os.path.realpath(os.path.join(root, filename)).startswith(root + os.sep)


class TestChannelNames(EvenniaTest):
    def channel_class(self):
        from typeclasses.channels import Channel

        return Channel

    def test_create_refuses_a_name_the_rule_refuses(self):
        Channel = self.channel_class()
        for name, said in (("Roll", TAG_LIKE), ("R\u043ell", TAG_LIKE), ("Private roll", TAG_LIKE),
                           ("a/b", "A name cannot hold '/' (U+002F): use letters, digits, single spaces and ' - . _ only."),
                           ("|rRed", "A name cannot hold '||' (U+007C): the game would read it as markup.")):
            self.assertEqual(Channel.create(name), (None, [said]), name)
        channel, errors = Channel.create("Ooc Chat")
        self.assertEqual((channel.key, errors), ("Ooc Chat", []))

    def test_a_tag_like_name_made_another_way_is_logged_and_marked(self):
        with mock.patch("storyteller_dice.typeclasses.channels.logger.log_warn") as warn:
            channel = create.create_channel("R\u043ell", typeclass=CHANNEL)
        (line,), = [call.args for call in warn.call_args_list]
        self.assertEqual(line, f"Bad name: channel #{channel.id} 'R\\u043ell': {TAG_LIKE} {RENAME[True]}")
        self.assertEqual(channel.channel_prefix(), "(channel)[R\u043ell] ")

    def test_a_stored_tag_like_channel_name_is_reported_to_staff(self):
        from storyteller_dice.typeclasses.names import report_bad_names, staff_notice

        channel = create.create_channel("Staff", typeclass=CHANNEL)
        with mock.patch("evennia.utils.logger.log_warn") as warn:
            found = report_bad_names()
        self.assertEqual(found, [("channel", channel.id, "Staff", TAG_LIKE)])
        self.assertEqual(warn.call_args.args[0], f"Bad name: channel #{channel.id} 'Staff': {TAG_LIKE} Rename it (a "
                                                 "channel with py: py ch = evennia.search_channel('<name>')[0]; ch.key = "
                                                 "'<new name>').")
        self.account.permissions.add("Admin")
        self.assertEqual(staff_notice(self.account), f"|w[Staff]|n 1 stored name(s) break the name rule (see the server "
                                                     f"log): channel #{channel.id} Staff. Rename them with @name (a "
                                                     "channel with py: py ch = evennia.search_channel('<name>')[0]; ch.key = "
                                                     "'<new name>').")
        channel.key = "Staffroom"
        self.assertIsNone(staff_notice(self.account))

    def test_the_prefix_is_text(self):
        channel = create.create_channel("Red", typeclass=CHANNEL)
        channel.key = "|rRed|/[Roll]"
        self.assertEqual(channel.channel_prefix(), "[||rRed||/(channel)[Roll]] ")
        channel.key = "Public"
        self.assertEqual(channel.channel_prefix(), "[Public] ")


class TestChannelDescription(EvenniaTest):
    def test_the_description_reads_as_text_and_is_stored_as_given(self):
        typed = "|/[Roll] Admin rolls |rred|n |lcquit|ltclick|le"
        channel = create.create_channel("Chat", typeclass=CHANNEL, desc=typed)
        self.assertEqual(channel.db.desc, "\u00a6/[Roll] Admin rolls \u00a6rred\u00a6n \u00a6lcquit\u00a6ltclick\u00a6le")
        self.assertEqual(channel.attributes.get("desc", return_obj=True).value, typed)
        channel.db.desc = "two\nlines"
        self.assertEqual(channel.db.desc, "two lines")
        self.assertEqual(channel.db.desc, channel.db.desc)  # reading never changes it
        channel.db.other = "|rkept"
        self.assertEqual(channel.db.other, "|rkept")  # other Attributes are the game's business


class TestChannelLogFile(EvenniaTest):
    def test_a_plain_name_keeps_evennias_file(self):
        self.assertEqual(log_filename("Public"), "channel_public.log")
        self.assertEqual(log_filename("Ooc Chat"), "channel_ooc chat.log")

    def test_any_name_gives_a_file_inside_the_log_folder(self):
        for name in ("../../server/conf/settings", "/etc/passwd", "..", ".hidden", "a\\b", "x" * 300,
                     "nul\x00byte", "R\u043ell", "\ud800", "Zo\u00eb", "con", "", " "):
            filename = log_filename(name)
            self.assertTrue(inside_log_dir(filename), (name, filename))
            self.assertRegex(filename, r"^channel_[a-z0-9_ -]+\.log$")
            self.assertLessEqual(len(filename), 80)
        self.assertEqual(log_filename("../../x"), "channel_x_" + __import__("hashlib").sha256(b"../../x").hexdigest()[:12] + ".log")
        self.assertNotEqual(log_filename("a/b"), log_filename("a_b"))

    def test_a_channel_named_to_climb_out_logs_inside(self):
        channel = create.create_channel("../../evil", typeclass=CHANNEL)
        filename = channel.get_log_filename()
        self.assertTrue(inside_log_dir(filename), filename)
        self.assertTrue(filename.startswith("channel_evil_"), filename)
        channel.attributes.add("log_file", "../outside.log")
        channel.dice_log_filename = None
        self.assertEqual(channel.get_log_filename(), filename)  # an unsafe stored name is not used
        channel.attributes.add("log_file", "chat/ooc.log")
        channel.dice_log_filename = None
        self.assertEqual(channel.get_log_filename(), "chat/ooc.log")


class TestChannelCommand(EvenniaCommandTest):
    """Evennia's own `channel` command with hostile names and descriptions: no traceback."""

    def test_create_and_list_hostile_channels(self):
        from evennia.commands.default.comms import CmdChannel

        with override_settings(BASE_CHANNEL_TYPECLASS=CHANNEL), \
                mock.patch("evennia.commands.default.comms.CHANNEL_DEFAULT_TYPECLASS", self.channel_class()):
            self.call(CmdChannel(), "/create ../../evil = |/[Roll] Admin rolls", "Created (and joined) new channel",
                      caller=self.account)
            out = self.call(CmdChannel(), "/all", None, caller=self.account)
        self.assertIn("| Yes  | ../../evil |         |            | \u00a6/[Roll] Admin rolls |", out)
        self.assertFalse([line for line in out.split("\n") if line.startswith("[")], out)
        from evennia.comms.models import ChannelDB

        channel = ChannelDB.objects.get(db_key="../../evil")
        self.assertTrue(inside_log_dir(channel.get_log_filename()))
        channel.msg("hello", senders=[self.account])  # logged inside LOG_DIR, no traceback

    def channel_class(self):
        from typeclasses.channels import Channel

        return Channel
