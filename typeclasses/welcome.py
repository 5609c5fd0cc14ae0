"""
What a newcomer reads before the first roll, in the configured system's words: the connection
screen (`connection_screen`: a host that sets `CONNECTION_SCREEN_MODULE` to this module gets
it, as Evennia shows what a module's `connection_screen()` returns), the first room's
description (`describe_limbo_once`, from the start hooks: written at the package's first start,
only over Evennia's stock text) and the home page's lines (`rolllog`'s template tags
`dice_words`). Each asks the configured `System` (its `name`, `blurb`, `slogan`, `example`,
usages): nothing here names a system, so a sixth one reads as its own.

Our commands are named by the keys the game gives them (`DICE_COMMAND_KEYS`, read here from
the settings as commands/keys.py reads it: a typeclass never imports the commands):
`command_key("+roll")` is "+droll" where the host renamed it, None where it left it out, and
`renamed(text)` rewrites every key of ours in a text as `help` does. **Ruling:** a line that
would name a command the game left out is not shown (no "+stat" where there is none).

**Ruling (the connection screen's width):** every line of the connection screen is at most
`SCREEN_WIDTH` (41) columns, the narrowest screen the game lays out for (a 390-pixel phone's
web client, a small telnet window), whatever the client's width. Evennia shows the screen a
moment after the connection (`DELAY_CMD_LOGINSTART`), before a telnet client's NAWS may have
told its width, and the screen is not drawn again when it does (a second screen, or one
replaced while the player reads or types, is worse than a narrow one); so the screen is laid
out for every width at once. A game name or slogan too long for a line is wrapped like the
rest.

It sits with the typeclasses, below the commands, because the web pages use it too.
"""

import textwrap

from django.conf import settings
from evennia.utils.utils import get_evennia_version

from storyteller_dice.rules import systems
from storyteller_dice.rules.display import escape

from . import key_names
from .names import ACCOUNT_RULE
from .system import dice_system

SCREEN_WIDTH = 41  # every line's most (see the ruling above); the rule's width
RULE = "|c" + "=" * SCREEN_WIDTH + "|n"

# Evennia's own Limbo description starts so (it is translated, so only its start is compared).
_EVENNIA_LIMBO_STARTS = ("Welcome to your new |wEvennia|n-based game", "Welcome to your new Evennia")


command_key = key_names.command_key
renamed = key_names.rewrite


def slogan(system=None):
    """The system's slogan (`System.slogan`), or one made from its name."""
    return systems.slogan_of(system or dice_system())


def blurb(system=None):
    """One sentence on what the system's dice do (`System.blurb`), or its title."""
    system = system or dice_system()
    return system.blurb or f"The dice system is {system.title}."


def example_usage(system=None):
    """(the usage of the command of the system's example roll, the example as typed)."""
    system = system or dice_system()
    example = system.example
    usage = system.check_usage if example.command == "+check" else system.roll_usage
    return usage, example.line


def connection_screen():
    """The screen before logging in: the game's name, the slogan, the system and how to start."""
    about = ("Storyteller dice for a MUSH: roll your pool in the room, and everyone sees the same "
             f"honest result. {blurb()}")
    lines = [
        RULE,
        *_welcome(settings.SERVERNAME),
        *_wrapped(slogan()),
        "",
        *_wrapped(about),
        "",
        *_wrapped("New here? Create an account (without the <>'s):"),
        "   |wcreate <username> <password>|n",
        *_wrapped(ACCOUNT_RULE + " A password with spaces goes in double quotes."),
        *_wrapped("Already have one? Connect to it:"),
        "   |wconnect <username> <password>|n",
        "",
        *_wrapped(first_steps()),
        RULE,
        f" Evennia {get_evennia_version('short')}",
    ]
    return "\n".join(lines)


def _wrapped(text):
    """Text (plain, made inert here) on the screen's lines, each one space in: wrapped as it is
    shown, so `escape`'s doubled bars do not count twice."""
    return [" " + escape(line) for line in textwrap.wrap(" ".join(text.split()), SCREEN_WIDTH - 2,
                                                           break_on_hyphens=False, break_long_words=True)]


def _welcome(name):
    """The greeting, the game's name bright, on as many lines as its length needs."""
    name = " ".join(str(name).split())
    if len(f"Welcome to {name}!") <= SCREEN_WIDTH - 2:
        return [f" Welcome to |w{escape(name)}|n!"]
    return _wrapped(f"Welcome to {name}!")


def first_steps():
    """What to do once in, in the game's own command keys: set the sheet, read the guide."""
    stat, sheet = command_key("+stat"), command_key("+sheet")
    steps = []
    if stat:
        steps.append(f"Once in, set your character's traits with {stat} <trait>=<value> "
                     f"(help {stat} lists them){f' and see them with {sheet}' if sheet else ''}.")
    steps.append("help dice is a one-screen guide to rolling; look shows this screen again.")
    return " ".join(steps)


def limbo_text(system=None):
    """The first room's description, for the system."""
    system = system or dice_system()
    usage, example = (renamed(text) for text in example_usage(system))
    rolling = ""
    if command_key(system.example.command):
        rolling = (f"Rolling here ({escape(system.name)}): |w{escape(usage)}|n (|w{escape(example)}|n) "
                   "rolls your dice in the room; everyone sees the same result and its code. ")
    stat, sheet = command_key("+stat"), command_key("+sheet")
    first = ""
    if stat:
        first = (f"First set your character's traits: |w{escape(stat)} <trait>=<value>|n "
                 f"(|whelp {escape(stat)}|n lists them). ")
    return (
        "The quiet place between scenes. Nothing here is in character: this is where everyone "
        "arrives and where the story is set up.\n\n"
        f"{first}{rolling}|whelp dice|n is the guide"
        f"{f', |w{escape(sheet)}|n your character' if sheet else ''}, |wooc <text>|n speaks out of character."
    )


def _limbo():
    # A model, imported once Django is set up: Evennia imports the connection screen (and so
    # this module) while it starts, before its apps are ready.
    from evennia.objects.models import ObjectDB

    # Evennia makes Limbo #2 (settings.DEFAULT_HOME); find it by that, else by name.
    home = str(getattr(settings, "DEFAULT_HOME", "#2")).lstrip("#")
    limbo = ObjectDB.objects.filter(id=int(home)).first() if home.isdigit() else None
    if limbo is None:
        limbo = ObjectDB.objects.filter(db_key__iexact="Limbo").first()
    return limbo


def _ours(text):
    """Whether a description is Evennia's own or one of ours (for any installed system)."""
    if text.startswith(_EVENNIA_LIMBO_STARTS):
        return True
    return any(text == limbo_text(systems.get_system(key)).strip() for key in systems.installed())


def describe_limbo(force=False):
    """
    Give Limbo this game's description; return True if it changed. Only while Limbo has
    Evennia's own text, one of ours (another system's, after `DICE_SYSTEM` changed) or none,
    so a description a builder wrote is never overwritten. For a database made before this
    existed, run it once: `py from storyteller_dice.typeclasses.welcome import describe_limbo;
    describe_limbo()`.
    """
    limbo = _limbo()
    if limbo is None:
        return False
    current = (limbo.db.desc or "").strip()
    if not force and current and not _ours(current):
        return False
    text = limbo_text()
    if current == text.strip():
        return False
    limbo.db.desc = text
    return True


LIMBO_DONE = "storyteller_dice_limbo_described"


def describe_limbo_once():
    """
    At every start (commands/hooks.py): at the package's first start only, Limbo gets the dice
    text if it still has Evennia's stock description. That first start is recorded in
    ServerConfig, so the text is written once: a builder's description (before or after) is
    never overwritten, nor is one a builder put back to Evennia's. Returns True if it wrote.
    """
    from evennia.server.models import ServerConfig

    if ServerConfig.objects.conf(LIMBO_DONE, default=False):
        return False
    limbo = _limbo()
    wrote = False
    if limbo is not None and (limbo.db.desc or "").strip().startswith(_EVENNIA_LIMBO_STARTS):
        limbo.db.desc = limbo_text()
        wrote = True
    ServerConfig.objects.conf(LIMBO_DONE, True)
    return wrote


def at_initial_setup():
    """Evennia's first start (it ignores tracebacks here, so this stays this simple)."""
    describe_limbo()
