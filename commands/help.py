"""
`help`, with a topic named exactly as typed shown before anything else.

Evennia 6.1's `help` finds topics with a Lunr search over commands, help entries and help
categories together, keyed by name. Two things hid the Dice guides that seed 004 names
("See also: help hunger, help rouse, help willpower, help disciplines") and `help dice`:

- a help category and a help entry of the same name share one key in that search, and the
  category wins: `help dice` listed the "Dice" category instead of showing the guide;
- a command whose alias is the topic's name (`+hunger` has the alias `hunger`) can score
  above the entry of that exact name: `help hunger` showed `+hunger`'s help.

**Ruling:** a command whose key is exactly what was typed is the answer (`help +rouse`); else
a help entry (file-based or made with `sethelp`) whose key, or else one of whose aliases, is
exactly what was typed (any letter case) is the answer; otherwise the stock search
decides (commands' own names and aliases included). So `help hunger`
is the guide and `help +hunger` the command; `help dice` is the guide, and the list of the
Dice category is in the full index (`help`) under its heading.
"""

from evennia.commands.command import Command
from evennia.commands.default.help import CmdHelp as _StockHelp
from evennia.commands.default.help import HelpCategory


def _command(query, entries):
    """The command whose key is exactly what was typed (`help +rouse` is the command)."""
    wanted = " ".join(str(query).split()).lower()
    for entry in entries:
        if isinstance(entry, Command) and str(entry.key).lower() == wanted:
            return entry
    return None


def _named(query, entries):
    wanted = " ".join(str(query).split()).lower()
    for entry in entries:
        if isinstance(entry, (HelpCategory, Command)):
            continue
        if str(getattr(entry, "key", "")).strip().lower() == wanted:
            return entry
    for entry in entries:
        if isinstance(entry, (HelpCategory, Command)):
            continue
        aliases = getattr(entry, "aliases", None) or ()
        if not isinstance(aliases, (list, tuple)):
            aliases = aliases.all()  # a `sethelp` entry's AliasHandler
        if wanted in (" ".join(str(alias).split()).lower() for alias in aliases):
            return entry
    return None


class CmdHelp(_StockHelp):
    __doc__ = _StockHelp.__doc__

    def do_search(self, query, entries, search_fields=None):
        match, suggestions = super().do_search(query, entries, search_fields=search_fields)
        named = _command(query, entries) or _named(query, entries)
        if named is not None and match is not named:
            other = [] if match is None else [str(match.key)]
            suggestions = other + [s for s in suggestions or [] if s not in (named.key, *other)]
            match = named
        return match, suggestions
