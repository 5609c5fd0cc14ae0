"""
Everything a player reads before and around a roll names only the configured system and
teaches only its commands: `help dice`, the help index, every Dice command's help, Limbo's
text, the home page and the connect screen, under each of the five systems (one test each). Another system's rules answer
`help <key>`, and nothing else of it shows.

What counts as naming another system: its key, its title and short name (from the registry),
and the words that only it uses (`HALLMARKS`: V5's Hunger dice, V20's +damage, ...).
"""

import re
from unittest.mock import patch

from django.conf import settings
from django.test import override_settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.rules import systems
from storyteller_dice.typeclasses import welcome

FIVE = ("v5", "v20", "seyruun", "whalefall", "dicecheck")
# Words only one system's players meet (its own commands, its dice's names).
HALLMARKS = {
    "v5": ("hunger", "rouse", "messy critical", "bestial", "+remorse", "+frenzy"),
    "v20": ("+damage", "+heal", "classic storyteller"),
    "seyruun": ("+resist", "+reroll", "chance die"),
    "whalefall": ("+partial", "(face,count)"),
    "dicecheck": ("dice check", "big botch", "+roll/answer"),
}


def names_of(key):
    system = systems.get_system(key)
    return {key, system.title, system.name, *HALLMARKS.get(key, ())}


def named(text, word):
    """Whether `text` names `word` (any case, not inside a longer word)."""
    return re.search(r"(?<![\w+])" + re.escape(word.lower()) + r"(?!\w)", text.lower()) is not None


def assert_only(key, text, where):
    """`text` names none of the five systems but `key`."""
    text = ansi.strip_ansi(text)
    for other in FIVE:
        if other == key:
            continue
        found = [word for word in names_of(other) if named(text, word)]
        assert not found, f"{where} under {key} names {other}: {found}\n{text}"


class WordsChecks:
    """What a player reads under one system (`check(key)`), for any registered system."""

    def assert_only(self, key, text, where):
        assert_only(key, text, where)

    def help(self, topic, cmdset):
        from storyteller_dice.commands.help import CmdHelp

        self.char1.ndb._more = None
        return self.call(CmdHelp(), topic, cmdset=cmdset)

    def check(self, key):
        from commands.default_cmdsets import CharacterCmdSet

        with override_settings(DICE_SYSTEM=key):
            system = systems.get_system(key)
            cmdset = CharacterCmdSet()
            self.check_help(key, system, cmdset)
            self.check_limbo(key, system)
            self.check_home_page(key, system)
            self.check_connect_screen(key, system)

    def check_help(self, key, system, cmdset):
        guide = self.help("dice", cmdset)
        assert "Help for dice" in guide, guide[:200]
        assert f"Rolling here ({system.name})" in guide
        assert system.roll_usage in guide and system.check_usage in guide
        assert f"help {key} (its rules)" in guide
        self.assert_only(key, guide, "help dice")
        index = self.help("", cmdset)
        topics = index.split("Game & World")[1]
        assert named(topics, key) and named(topics, "dice"), topics
        self.assert_only(key, index, "the help index")
        for command in cmdset.commands:  # every Dice command's own help, too
            if str(command.help_category).lower() == "dice":
                self.assert_only(key, self.help(command.key, cmdset), f"help {command.key}")
        # Another system's rules answer by their key, and only then.
        other = next(k for k in FIVE if k != key)
        assert f"Help for {other}" in self.help(other, cmdset)
        assert f"Help for {key}" in self.help(key, cmdset)

    def check_limbo(self, key, system):
        from evennia.server.initial_setup import LIMBO_DESC as EVENNIA_DESC

        limbo = self.room1
        limbo.db.desc = str(EVENNIA_DESC).strip()
        with patch.object(welcome, "_limbo", lambda: limbo):
            assert welcome.describe_limbo() is True
        text = limbo.db.desc
        assert f"Rolling here ({system.name})" in text and system.example.line in text, text
        self.assert_only(key, text, "Limbo")

    def check_home_page(self, key, system):
        # Evennia's menu shows settings.GAME_SLOGAN, read once: the game's settings take it from
        # DICE_SYSTEM (test_the_games_slogan_is_the_systems), as this game's start would.
        with patch("evennia.web.utils.general_context.GAME_SLOGAN", systems.slogan_of(key)):
            page = self.client.get("/").content.decode()
        assert f'<p id="dice-system">{welcome.blurb(system)}</p>'.replace("'", "&#x27;") in page
        assert welcome.slogan(system) in page
        self.assert_only(key, page, "the home page")

    def check_connect_screen(self, key, system):
        from evennia.utils.utils import callables_from_module

        # As Evennia's `look` at the login screen finds it: a function defined in the module.
        screen = ansi.strip_ansi(callables_from_module(settings.CONNECTION_SCREEN_MODULE)["connection_screen"]())
        # The screen is laid out for 41 columns, so the slogan may wrap.
        assert " ".join(welcome.slogan(system).split()) in " ".join(screen.split())
        assert " ".join(welcome.blurb(system).split()) in " ".join(screen.split())
        self.assert_only(key, screen, "the connect screen")
        assert max(len(line) for line in screen.splitlines()) <= 78



class SystemWords(WordsChecks, EvenniaCommandTest):
    """The five systems' words, each under its own `DICE_SYSTEM`."""

    def test_v5(self):
        self.check("v5")

    def test_v20(self):
        self.check("v20")

    def test_seyruun(self):
        self.check("seyruun")

    def test_whalefall(self):
        self.check("whalefall")

    def test_dicecheck(self):
        self.check("dicecheck")

    def test_v20s_help_is_not_v5s(self):
        """The cases players met: V20's guide taught Hunger dice and +rouse, `help hunger`
        answered with the V5 guide, the Dice Check's guide offered a +check it refuses."""
        from commands.default_cmdsets import CharacterCmdSet

        with override_settings(DICE_SYSTEM="v20"):
            cmdset = CharacterCmdSet()
            guide = self.help("dice", cmdset)
            assert "Hunger" not in guide and "+rouse" not in guide
            assert "Hunger (0-5) is the Beast's hold" not in self.help("hunger", cmdset)
        with override_settings(DICE_SYSTEM="dicecheck"):
            guide = self.help("dice", CharacterCmdSet())
            assert "+check <number> [vs <n>]" not in guide
            assert "+check <dice>d(<X>+):<TN>" in guide

    def test_limbo_follows_a_change_of_system_but_keeps_a_builders(self):
        limbo = self.room1
        with override_settings(DICE_SYSTEM="v5"):
            limbo.db.desc = welcome.limbo_text()
        with override_settings(DICE_SYSTEM="whalefall"), patch.object(welcome, "_limbo", lambda: limbo):
            assert welcome.describe_limbo() is True
            assert limbo.db.desc == welcome.limbo_text()
            assert welcome.describe_limbo() is False  # already ours
            limbo.db.desc = "A builder's own Limbo."
            assert welcome.describe_limbo() is False
            assert limbo.db.desc == "A builder's own Limbo."


def test_every_system_declares_its_words():
    for key in systems.installed():
        system = systems.get_system(key)
        assert system.name and welcome.slogan(system) and welcome.blurb(system), key
        assert system.example.command in ("+roll", "+check"), key


def test_the_games_slogan_is_the_systems(tmp_path):
    """game/server/conf/settings.py takes the slogan of the system `DICE_SYSTEM` names."""
    import os
    import subprocess
    import sys

    code = "from server.conf import settings; print(settings.GAME_SLOGAN)"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for key in FIVE:
        env = {**os.environ, "DICE_SYSTEM": key}
        out = subprocess.run([sys.executable, "-c", code], cwd=os.path.join(root, "game"), env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == systems.slogan_of(key)
