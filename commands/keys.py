"""
Our command keys in a host's game: renaming them (`DICE_COMMAND_KEYS`) and leaving the host's
own commands answering where both have the same name.

    DICE_COMMAND_KEYS = {"+roll": "+droll", "+sheet": None}

renames our `+roll` to `+droll` and leaves our `+sheet` out. Only `DiceCmdSet`'s commands (the
shared ones and the configured system's wing's) are named here; a switch keeps its command's
key (`+dice/fairness` is `+dice`'s). What each function is for:

- `arranged(commands)`: the commands `DiceCmdSet` holds, renamed, left out or with an alias
  dropped as the rulings below say.
- `decide(cls)`: what becomes of one command of ours (its key in this game, or None, and the
  collision lines); `commands.catalogue` applies it to the commands themselves
  (`current_key`, `collision_lines`, `report_collisions`), since it imports them and this
  module imports none.
- `settings_problem()`: one line naming `DICE_COMMAND_KEYS` and its bad entry, or None. It is
  importable and usable before Evennia is loaded (the app's `ready()`): it reads the static
  declaration of our keys (`SHARED_KEYS` here, `COMMAND_KEYS` in each wing's
  `command_keys.py`), which tests/test_command_keys.py holds equal to the real cmdsets.
- `probing()`: True while the host's cmdsets are built to read their names (every cmdset in
  commands/default_cmdsets.py then adds nothing); `host_names()` is what was read, once per
  process (`reset()` forgets it, for tests).

Nothing here imports Evennia's flat API at import: what needs Evennia is imported where used.

**Ruling (who answers a name both have).** The host's cmdsets (`CMDSET_CHARACTER`,
`CMDSET_ACCOUNT`, `CMDSET_SESSION`, `CMDSET_UNLOGGEDIN`) are built once per process with ours
contributing nothing (`probing`: every cmdset of ours adds nothing while it is on), and every
key and alias of theirs (not Evennia's system commands, `__...`) is a name of the host's,
Evennia's stock commands included. Then:
- a command of ours whose key is such a name is left out: the host's keeps answering (by
  default; `DICE_COMMAND_KEYS` gives ours another key, and a new key that is itself a name of
  the host's is left out the same way);
- an alias of ours that is such a name is dropped, and the command stays. It must be: Evennia
  holds two commands equal when any of their names are, and adding ours would remove the
  host's whole command for one shared alias. So is an alias that is such a name but for the
  one prefix Evennia may ignore (`CMD_IGNORE_PREFIXES`: our `roll` and the host's `+roll`):
  Evennia's `help +roll` reads both as `roll` and would show ours. A key of ours is held only
  to the names exactly (the host's `roll` leaves our `+roll` answering `+roll`);
- no collision is a command of ours that extends a stock one (its class attribute
  `extends_stock` names that class, e.g. "evennia.commands.default.account.CmdOOC") meeting
  exactly that stock class: it is meant to take its place.

**Ruling (help follows the keys).** A renamed command is its class with the new key (a
subclass made here: Evennia's help index reads the class). While any command is renamed, the
help text of every command of ours has each old key, as a whole word, replaced by its new
one: `+roll/verify` becomes `+droll/verify`, `+rolls` stays `+rolls` (a different word). So
do the usage line a refusal shows, the Dice help topics (`commands.help_entries`) and the
`help dice` guide, which also leaves out a command left out by `DICE_COMMAND_KEYS`. A command
left out for a collision is not rewritten anywhere: its name is the host's, and the host's
help says what it does.

**Ruling (what a new key may be).** A string of 1 to 40 printable characters with no space,
no `|` or `$` (markup) and no `/` (switches), not starting with `__` (Evennia's system
commands), and not a name another command of ours keeps. Keys in the setting are read
without letter case, as Evennia reads command names.
"""

import importlib
import json
import unicodedata
from contextlib import contextmanager

from storyteller_dice.typeclasses import key_names

SETTING = key_names.SETTING
_PACKAGE = __name__.split(".")[0]  # storyteller_dice
_OURS = _PACKAGE + "."
HOST_CMDSETS = ("CMDSET_CHARACTER", "CMDSET_ACCOUNT", "CMDSET_SESSION", "CMDSET_UNLOGGEDIN")
MAX_KEY = 40

# The shared commands of `DiceCmdSet` (commands/default_cmdsets.py), key -> aliases, written out
# for `settings_problem()`; each wing's are in its own `command_keys.py`.
SHARED_KEYS = {
    "+sheet": ("sheet",), "+stat": ("stat",), "+approve": ("+unapprove", "approve", "unapprove"),
    "+roll": ("roll",), "+check": ("check",), "+odds": ("odds",), "+rolls": ("rolls",),
    "+dice": ("dice",), "ooc": ("unpuppet",),
}

_PROBING = [False]
_HOST = []  # [the host's names {name: class path}] once built


# ---------------------------------------------------------------- the probe


def probing():
    """Whether the host's cmdsets are being built to read their names: ours add nothing now."""
    return _PROBING[0]


@contextmanager
def _probe():
    before, _PROBING[0] = _PROBING[0], True
    try:
        yield
    finally:
        _PROBING[0] = before


def _class_path(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def host_names():
    """
    {name: the host's command class}: every key and alias of the host's cmdsets, built once per
    process with ours adding nothing (the first cmdset of `HOST_CMDSETS` having a name names
    its class). A cmdset that cannot be built is logged and skipped.
    """
    if not _HOST:
        _HOST.append(_read_host())
    return _HOST[0]


def _read_host():
    from django.conf import settings
    from evennia.commands.cmdsethandler import import_cmdset
    from evennia.utils import logger

    names = {}
    for setting in HOST_CMDSETS:
        path = getattr(settings, setting, None)
        if not path:
            continue
        try:
            with _probe():
                cmdset = import_cmdset(path, None, no_logging=True)
            if getattr(cmdset, "key", "") == "_CMDSET_ERROR":
                logger.log_err(f"{_PACKAGE}: could not build {setting} ({_plain(path)}) to compare command names")
                continue
            commands = list(getattr(cmdset, "commands", None) or ())
        except Exception:  # noqa: BLE001 - a host's broken cmdset is the host's error, not a stop
            logger.log_trace(f"{_PACKAGE}: could not build {setting} to compare command names")
            continue
        for command in commands:
            cls = type(command)
            if cls.__module__.startswith(_OURS) or str(command.key).startswith("__"):
                continue
            for name in (command.key, *command.aliases):
                names.setdefault(str(name).lower(), cls)
    return names


def reset():
    """Forget the host's names (tests that change the host's cmdsets call this)."""
    _HOST.clear()


# ---------------------------------------------------------------- the setting


# The reading of the setting is shared with what sits below the commands (the welcome screen,
# the web pages): `typeclasses.key_names`.
renames = key_names.renames
rewrite = key_names.rewrite
_new_keys = key_names.new_keys


# ---------------------------------------------------------------- deciding


class _Decision:
    """What becomes of one command of ours: its key (None: left out), aliases, and the lines."""

    def __init__(self, cls, key, aliases, lines):
        self.cls, self.key, self.aliases, self.lines = cls, key, aliases, lines


def shown(name, limit=80):
    """A name as a log line or a notice may quote it: in double quotes, any control or format
    character, quote, backslash and `|` escaped, at most `limit` characters."""
    text = str(name)
    cut = len(text) > limit
    text = json.dumps(text[:limit], ensure_ascii=False)[1:-1]
    text = "".join(f"\\u{ord(ch):04x}" if ch == "|" or unicodedata.category(ch).startswith("C") else ch
                   for ch in text)
    return f'"{text}{"..." if cut else ""}"'


def _plain(text):
    """A class path as a line shows it (no quotes): the same escaping."""
    return shown(text, 200)[1:-1]


def _extends(cls, host_cls):
    stock = getattr(cls, "extends_stock", None)
    return bool(stock) and host_cls is not None and _class_path(host_cls) == stock


def decide(cls, table=None, host=None):
    """The `_Decision` for our command class `cls` under `table` (renames) and `host` (names)."""
    table = renames() if table is None else table
    host = host_names() if host is None else host
    old = str(cls.key).lower()
    key = table.get(old, old)
    if key is None:
        return _Decision(cls, None, (), [])
    host_cls = host.get(key)
    if host_cls is not None and not _extends(cls, host_cls):
        if key == old:
            line = (f"{_PACKAGE}: {shown(key)} is a command of the host's ({_plain(_class_path(host_cls))}) "
                    f"and of ours; the host's answers. {SETTING} = {{{shown(old)}: \"<new key>\"}} "
                    f"gives ours another key.")
        else:
            line = (f"{_PACKAGE}: {shown(key)} is a command of the host's ({_plain(_class_path(host_cls))}) "
                    f"and of ours ({SETTING} renames our {shown(old)} to it); the host's answers. "
                    f"{SETTING} = {{{shown(old)}: \"<another key>\"}} gives ours another key.")
        return _Decision(cls, None, (), [line])
    aliases, lines = [], []
    bare = _bare_names(host)
    for alias in cls.aliases:
        alias = str(alias).lower()
        if alias == key:
            continue
        name, host_cls = (alias, host[alias]) if alias in host else bare.get(_bare(alias), (alias, None))
        if host_cls is not None and not _extends(cls, host_cls):
            named = "" if name == alias else f", as {shown(name)}"
            lines.append(f"{_PACKAGE}: {shown(alias)} is a command of the host's "
                         f"({_plain(_class_path(host_cls))}{named}) and an alias of our {shown(key)}; the "
                         f"host's answers, and ours answers to {shown(key)}.")
            continue
        aliases.append(alias)
    return _Decision(cls, key, tuple(sorted(aliases)), lines)


def _prefixes():
    from django.conf import settings

    return str(getattr(settings, "CMD_IGNORE_PREFIXES", "@&/+") or "")


def _bare(name, prefixes=None):
    """A name without the one prefix Evennia's parser and help may ignore (`+roll` -> `roll`)."""
    prefixes = _prefixes() if prefixes is None else prefixes
    return name[1:] if len(name) > 1 and name[0] in prefixes else name


def _bare_names(host):
    """{bare name: (the host's name, class)}, the first of each."""
    prefixes = _prefixes()
    found = {}
    for name, cls in host.items():
        found.setdefault(_bare(name, prefixes), (name, cls))
    return found


class _Renamed:
    """Mixed into a command of ours under `DICE_COMMAND_KEYS`: its help and usage name the new
    keys (`rewrite`)."""

    _key_table = {}

    def get_help(self, caller, cmdset):
        return rewrite(super().get_help(caller, cmdset), self._key_table)

    def parse(self):
        super().parse()
        usage = getattr(self, "usage", None)
        if isinstance(usage, str):
            self.usage = rewrite(usage, self._key_table)


_MADE = {}


def _variant(cls, key, aliases, table):
    """`cls` with this key and these aliases, its help naming the new keys (made once)."""
    spec = (cls, key, aliases, tuple(sorted(table.items())))
    made = _MADE.get(spec)
    if made is None:
        usage = getattr(cls, "usage", None)
        attrs = {"key": key, "aliases": list(aliases), "__doc__": rewrite(cls.__doc__ or "", table),
                 "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                 "_key_table": dict(table), "renamed_from": str(cls.key)}
        if isinstance(usage, str):
            attrs["usage"] = rewrite(usage, table)
        made = _MADE[spec] = type(cls.__name__, (_Renamed, cls), attrs)
    return made


def arranged(commands):
    """
    Our commands as `DiceCmdSet` holds them (instances, in order): renamed by
    DICE_COMMAND_KEYS, left out by it or by a host's command of the same name, and without an
    alias the host has (see the rulings above).
    """
    table = renames()
    new_keys = _new_keys(table)
    found = []
    for command in commands:
        cls = command if isinstance(command, type) else type(command)
        decision = decide(cls, table)
        if decision.key is None:
            continue
        same = decision.key == str(cls.key).lower() and decision.aliases == tuple(sorted(map(str.lower, cls.aliases)))
        if same and not new_keys:
            found.append(command if not isinstance(command, type) else cls())
        else:
            found.append(_variant(cls, decision.key, decision.aliases, new_keys)())
    return found


# ---------------------------------------------------------------- the start-time check


def _configured_key():
    from django.conf import settings

    return str(getattr(settings, "DICE_SYSTEM", None) or "v5").strip().lower()


def declared_keys(system_key=None):
    """
    {key: aliases} of `DiceCmdSet`'s commands under a system, read without Evennia: the shared
    ones (`SHARED_KEYS`) and the wing's (`command_keys` beside its wing's module,
    `rules.systems.wing_of`: `commands/<key>/command_keys.py` for the package's; none when there
    is none).
    """
    from storyteller_dice.rules import systems
    from storyteller_dice.rules.errors import DiceError

    keys = dict(SHARED_KEYS)
    key = _configured_key() if system_key is None else system_key
    try:
        system = systems.get_system(key)
    except DiceError:
        return keys
    wing = systems.wing_of(system)
    if not wing:
        return keys
    name = f"{wing.partition(':')[0].rpartition('.')[0]}.command_keys"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is None or not name.startswith(err.name):
            raise
        return keys
    keys.update(getattr(module, "COMMAND_KEYS", {}))
    return keys


def _key_problem(new):
    if not new:
        return "is empty"
    if len(new) > MAX_KEY:
        return f"is longer than {MAX_KEY} characters"
    if any(ch.isspace() for ch in new):
        return "has a space"
    if any(not ch.isprintable() for ch in new):
        return "has a control character"
    if any(ch in "|$" for ch in new):
        return "has markup (| or $)"
    if "/" in new:
        return "has a / (that starts a switch)"
    if new.startswith("__"):
        return "starts with __ (Evennia's system commands)"
    return None


def settings_problem():
    """
    None, or one line naming DICE_COMMAND_KEYS and its bad entry: not a dict, a key that is no
    command of ours (under the configured DICE_SYSTEM), a new key that is not a string or None
    or breaks the rule above, two of ours under one key. Importable and usable before Evennia
    is loaded.
    """
    try:
        from django.conf import settings

        setting = getattr(settings, SETTING, None)
    except Exception:  # noqa: BLE001 - settings not configured: nothing to check
        return None
    if setting is None:
        return None
    if not isinstance(setting, dict):
        return f"{SETTING} must be a dict of our command keys to new keys (or None), not {type(setting).__name__}."
    ours = declared_keys()
    listed = ", ".join(sorted(ours))
    seen = {}
    for old, new in setting.items():
        entry = f"{SETTING}[{shown(old) if isinstance(old, str) else repr(old)}]"
        if not isinstance(old, str):
            return f"{entry}: a key must be the text of a command key of ours ({listed})."
        wanted = old.strip().lower()
        if wanted in seen:
            return f"{entry}: names our {shown(wanted)} a second time."
        if wanted not in ours:
            owner = [key for key, aliases in ours.items() if wanted in aliases]
            if owner:
                return f"{entry}: {shown(wanted)} is an alias of our {shown(owner[0])}; name the command by its key."
            return f"{entry}: {shown(old)} is no command of ours (ours: {listed})."
        if new is not None and not isinstance(new, str):
            return f"{entry}: the new key must be text, or None to leave the command out."
        if new is not None:
            problem = _key_problem(new)
            if problem:
                return f"{entry}: the new key {shown(new)} {problem}."
        seen[wanted] = None if new is None else new.strip().lower()
    # The names each command of ours keeps once renamed: no two may share one.
    owners = {}
    for key, aliases in ours.items():
        new = seen.get(key, key)
        if new is None:
            continue
        for name in (new, *(alias for alias in aliases if alias != new)):
            owners.setdefault(name.lower(), []).append(key)
    for old, new in seen.items():
        if new is None or new == old:
            continue
        others = [key for key in owners.get(new, []) if key != old]
        if others:
            entry = f"{SETTING}[{shown(old)}]"
            if seen.get(others[0]) == new:
                return f"{entry}: the new key {shown(new)} is also the new key of our {shown(others[0])}."
            return f"{entry}: the new key {shown(new)} is already a name of our {shown(others[0])}."
    return None
