"""
`help`, with a topic named exactly as typed shown before anything else.

Evennia 6.1's `help` finds topics with a Lunr search over commands, help entries and help
categories together, keyed by name. Two things hid the Dice guides that the V5 guide names
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

**What one `help` may cost.** The stock search builds a Lunr index of every topic on every
call (and, when nothing matches, three more over every help text), then runs the query, each
wildcard term of it expanded over every word of the index: 1,200 `*e*` terms took seconds, and
sixty such lines froze the game for others for over a minute. So:

- **Ruling:** a topic is at most `MAX_TOPIC_WORDS` (4) words and `MAX_TOPIC_LENGTH` (60)
  characters (the longest topic is three words); a longer one gets one line saying so and
  nothing is searched.
- **Ruling:** a `|` in the topic is shown as typed (`help |rred` says there is no help topic
  matching '|rred'): what was typed is never markup or a link.
- **Ruling:** Lunr's query operators other than the wildcard `*` (`~` fuzzy match, `^` boost,
  `:` field) are read as spaces: no topic has them, and a fuzzy match of edit distance 4
  costs as much as a burst.
- **Ruling:** a `*` works at the end of a word, as a prefix (`help +ro*`); one elsewhere in a
  word is dropped and a word of nothing but `*` is left out (`help *roll*` searches `roll*`).
  A `*` that starts a word is expanded over every word of every help text, the stock search's
  last try adds one itself, and four such words took a second.
- The indexes are built once and kept (`_IndexCache`): the same topics give the same index,
  so a search is only the query. A new `sethelp` entry or another character's commands make a
  new key; the cache keeps the last `_IndexCache.SIZE` indexes.

**The configured system's topics.** Evennia reads the file help entries once, so those are the
ones every system shares (`commands.help_entries.HELP_ENTRY_DICTS`). The configured system's
own (its guide `help dice`, its topics such as V5's `help hunger`, its rules `help <key>`)
are added here on each `help`, from what its wing and `System` declare
(`help_entries.system_entries`), and only they are in the index. **Ruling:** every other
installed system's rules still answer `help <key>` (`help v20` in a V5 game: someone may want
to compare), but they are not in the index, and none of their guides or topics answer.
"""

import re
from collections import OrderedDict
from textwrap import dedent

from evennia.commands.command import Command
from evennia.commands.default.help import CmdHelp as _StockHelp
from evennia.commands.default.help import HelpCategory
from evennia.help.filehelp import FileHelpEntry
from evennia.help.utils import LunrSearch

from storyteller_dice.rules import systems
from storyteller_dice.rules.display import escape

from . import help_entries, pager
from .dice_base import system_and_wing
from .help_layout import columns, grid, link, session_width, wrap_text


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


MAX_TOPIC_WORDS = 4
MAX_TOPIC_LENGTH = 60
_LUNR_OPERATORS = re.compile(r"[~^:]+")
TOO_LONG = (f"A help topic is at most {MAX_TOPIC_WORDS} words and {MAX_TOPIC_LENGTH} characters; "
            "try one word, or help on its own for the list.")


class _IndexCache:
    """
    `LunrSearch.index` (Evennia's one builder of help indexes), keeping what it built: the key
    is everything an index is made from (the reference field, the fields and every document's
    values), so a cached index finds what a fresh build would.
    """

    SIZE = 16

    def __init__(self, build):
        self.build = build
        self.built = OrderedDict()

    def __call__(self, ref, fields, documents):
        return _BoundedIndex(self._index(ref, fields, documents))

    def _index(self, ref, fields, documents):
        # Sorted: the stock command lists the categories from a set, in no fixed order, and
        # the order of documents is no part of what an index finds.
        key = (ref, repr(fields), tuple(sorted(tuple(sorted((k, str(v)) for k, v in doc.items())) for doc in documents)))
        index = self.built.get(key)
        if index is None:
            index = self.build(ref, fields, documents)
            self.built[key] = index
            if len(self.built) > self.SIZE:
                self.built.popitem(last=False)
        else:
            self.built.move_to_end(key)
        return index


class _BoundedIndex:
    """A Lunr index that searches the query as `bounded_query` leaves it."""

    def __init__(self, index):
        self.index = index

    def search(self, query):
        query = bounded_query(query)
        return self.index.search(query) if query else []


def bounded_query(query):
    """A Lunr query with a `*` only at the end of a word and at most `MAX_TOPIC_WORDS` words."""
    words = []
    for word in _LUNR_OPERATORS.sub(" ", str(query)).split():
        stem = word.replace("*", "")
        if stem:
            words.append(stem + "*" if word.endswith("*") else stem)
    return " ".join(words[:MAX_TOPIC_WORDS])


def keep_indexes():
    """Put `_IndexCache` around Evennia's help index builder (once; Lunr loads on first use)."""
    search = LunrSearch()
    if not isinstance(search.index, _IndexCache):
        search.index = _IndexCache(search.index)


def bounded_topic(topic):
    """The topic as searched (Lunr's `~ ^ :` as spaces), or None when it is too long."""
    topic = " ".join(_LUNR_OPERATORS.sub(" ", topic or "").split())
    if len(topic) > MAX_TOPIC_LENGTH or len(topic.split()) > MAX_TOPIC_WORDS:
        return None
    return topic


def _entry(data):
    """A file help entry from its dict, as Evennia's loader makes one (key and category in lower case)."""
    return FileHelpEntry(key=data["key"].lower().strip(), aliases=list(data.get("aliases", [])),
                         help_category=data.get("category", help_entries.HELP_CATEGORY).lower().strip(),
                         entrytext=data.get("text", ""), lock_storage=data.get("locks", ""))


def _names(data):
    return {" ".join(str(name).split()).lower() for name in (data["key"], *data.get("aliases", ()))}


def system_topics(topic=None):
    """
    {key: entry} of the configured system's topics (none when the system is broken), and
    another installed system's rules when `topic` is exactly its key or title (`help v20`):
    only then, so that no other system turns up in the index or among the suggestions.
    """
    system, wing = system_and_wing()
    if system is None:
        return {}
    entries = list(help_entries.system_entries(system, wing))
    wanted = " ".join(str(topic or "").split()).lower()
    if wanted:
        for key in systems.installed():
            other = systems.get_system(key)
            if key != system.key and other.help and wanted in _names(help_entries.rules_entry(other)):
                entries.append(help_entries.rules_entry(other))
    return {entry.key: entry for entry in map(_entry, entries)}


class CmdHelp(_StockHelp):
    __doc__ = _StockHelp.__doc__.rstrip() + (
        "\n\nA topic is at most 4 words and 60 characters. A * at the end of a word"
        "\nfinds every topic starting so (help +ro*); ~ ^ and : are read as spaces.\n"
    )

    #: The topics (links in the web client): Evennia's |G is #008000, 4.1:1 on the web
    #: client's black; bright green #00ff00 reads at 15.3:1 (WCAG AA asks 4.5).
    index_topic_clr = "|g"

    def parse(self):
        self.args = self.args[: MAX_TOPIC_LENGTH * 4]  # room for /subtopics; the rest is not read
        super().parse()
        self.subtopics = self.subtopics[:5]  # Evennia's deepest nesting of subtopics

    def func(self):
        topic = bounded_topic(self.topic)
        if topic is None:
            self.msg(wrap_text(TOO_LONG, self.help_width()))
            return
        # What was typed is shown back ("There is no help topic matching '...'"): as text, never
        # markup or a link of the player's making. No topic has a `|` or `{`, so none is missed.
        self.topic = escape(topic)
        keep_indexes()
        super().func()

    def collect_topics(self, caller, mode="list"):
        cmd_topics, db_topics, file_topics = super().collect_topics(caller, mode=mode)
        topic = getattr(self, "topic", None) if mode != "list" else None
        return cmd_topics, db_topics, {**file_topics, **system_topics(topic)}

    def help_width(self):
        """The width this help is laid out at: the session's own (help_layout.session_width)."""
        return session_width(self.session)

    def msg_help(self, text, **kwargs):
        """The stock sending (paged, unless the web client shows help in its pop-up), through
        our pager: its prompt fits the screen too (`commands.pager`)."""
        if type(self).help_more and not self._help_popup():
            pager.msg(self.caller, text, session=self.session, text_kwargs={"type": "help"}, **kwargs)
            return
        self.msg(text=(text, {"type": "help"}))

    def _help_popup(self):
        """Whether this is a web client that shows help in its pop-up (the stock test)."""
        if not self.session or self.session.protocol_key not in ("webclient/websocket", "webclient/ajax"):
            return False
        try:
            options = self.account.db._saved_webclient_options
            return bool(options and options["helppopup"])
        except KeyError:
            return False

    def _topic(self, name, click_topics, style=""):
        """A topic as the index and the suggestions show it: a link to `help <name>`, or
        (unclickable, or a name a link cannot hold) its name as text."""
        shown = style + str(name).replace("|", "||") + ("|n" if style else "")
        if not click_topics or "|" in str(name):
            return shown
        return link(f"help {name}", shown)

    def _grid(self, items, width, indent=""):
        return [indent + self.index_topic_clr + row for row in grid(items, width - len(indent))]

    def format_help_entry(self, topic="", help_text="", aliases=None, suggested=None, subtopics=None,
                          click_topics=True):
        """The stock page (separator, title, text, subtopics, suggestions), laid out at the
        client's width by `help_layout`: every line fits, every topic link is whole."""
        width = self.help_width()
        separator = "|C" + "-" * width + "|n"
        title = f"|CHelp for |w{topic}|n" if topic else "|rNo help found|n"
        if aliases:
            title += " |C(aliases: {}|C)|n".format("|C,|n ".join(f"|w{alias}|n" for alias in aliases))
        parts = [separator, wrap_text(title, width)]
        if help_text:
            parts.append("\n" + wrap_text(dedent(help_text.strip("\n")).rstrip(), width))
        if subtopics:
            items = [self._topic(f"{topic}/{sub}", click_topics, "|w") for sub in subtopics]
            parts.append("\n".join(["\n" + wrap_text("|CSubtopics:|n", width), *self._grid(items, width, "  ")]))
        if suggested:
            items = [self._topic(sug, click_topics, "|w") for sug in sorted(suggested)]
            parts.append("\n".join(["\n" + wrap_text("|COther topic suggestions:|n", width),
                                     *self._grid(items, width)]))
        parts.append(separator)
        return "\n".join(part.rstrip() for part in parts if part)

    def format_help_index(self, cmd_help_dict=None, db_help_dict=None, title_lone_category=False,
                          click_topics=True):
        """The stock index (categories and their topics in columns), laid out at the client's
        width: a topic is never cropped, and its link is never cut."""
        width = self.help_width()

        def by_category(help_dict):
            rows = []
            for category in sorted(help_dict):
                entries = sorted(set(help_dict[category]))
                if len(help_dict) > 1 or title_lone_category:
                    heading = f"-- {category.title()} "
                    rows += [self.index_category_clr + line for line in
                             wrap_text(heading + "-" * max(0, width - columns(heading)), width).split("\n")]
                rows += self._grid([self._topic(entry, click_topics) for entry in entries], width)
            return "\n".join(rows)

        cmd_grid = by_category(cmd_help_dict) if cmd_help_dict and any(cmd_help_dict.values()) else ""
        db_grid = by_category(db_help_dict) if db_help_dict and any(db_help_dict.values()) else ""
        if cmd_grid and db_grid:
            banner = lambda word: self.index_type_separator_clr + f" {word} ".center(width, "-")  # noqa: E731
            return f"{banner('Commands')}\n{cmd_grid}\n{banner('Game & World')}\n{db_grid}"
        return cmd_grid or db_grid

    def do_search(self, query, entries, search_fields=None):
        match, suggestions = super().do_search(query, entries, search_fields=search_fields)
        named = _command(query, entries) or _named(query, entries)
        if named is not None and match is not named:
            other = [] if match is None else [str(match.key)]
            suggestions = other + [s for s in suggestions or [] if s not in (named.key, *other)]
            match = named
        return match, suggestions
