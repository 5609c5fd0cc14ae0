"""
The roll log on the website (/rolls/): a logged-in account sees what `rolllog.api.
visible_to_account` allows (staff: everything; a player: their own rolls, rolls shown to them,
and the public rolls of rooms where one of their characters rolled or was shown a roll),
newest first, filtered by character name and by code.

Pages are numbered (`?page=N`, 50 entries) and read by `rolllog.api.page`: the page's first
(created, id) is sought through the index, then the page is read by keyset from there, so a
deep page costs about what the first does (bench/bench_rolllog.py).
"""

import dataclasses
from datetime import timedelta
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import render
from django.utils import timezone
from evennia.objects.models import ObjectDB

from storyteller_dice.rules.charts import odds_svg
from storyteller_dice.rules.display import breakdown_line, odds_figures, strip_markup
from storyteller_dice.rules.engine import CHOICE, FLAG, TEXT, choice_key, read_odds_inputs, read_whole
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.fairness import fairness_report, svg_chart
from storyteller_dice.typeclasses.system import dice_system

from . import api, codes
from .display import who, without_control
from .fairness import face_counts, rolled_characters

PER_PAGE = 50


class EntriesPage:
    """The page as the template reads it (the names of Django's Page, read by `api.page`'s keyset)."""

    def __init__(self, rows, number, pages, total):
        self.object_list, self.number, self.count = rows, number, total
        self.paginator = self  # the template asks for entries_page.paginator.num_pages
        self.num_pages = pages

    def has_previous(self):
        return self.number > 1

    def has_next(self):
        return self.number < self.num_pages

    def previous_page_number(self):
        return self.number - 1

    def next_page_number(self):
        return self.number + 1


def _page_number(typed):
    try:
        return max(1, int(typed))
    except (TypeError, ValueError):
        return 1


def _dice(view):
    """A view's groups, each die with the CSS classes of its marks (`mark-ten`, `mark-hunger` ...)."""
    groups = []
    for group in (view or {}).get("groups", ()):
        dice = [{"face": face, "cls": " ".join(["die"] + [f"mark-{mark}" for mark in sorted(marks)])}
                for face, marks in group.get("dice", ())]
        groups.append({"label": group.get("label", ""), "dice": dice})
    return groups


def _outcome(view):
    outcome = (view or {}).get("outcome") or {}
    return {"label": outcome.get("label", ""), "cls": f"tone-{outcome.get('tone', 'neutral')}"}


def _row(entry, viewer):
    parent = entry.parent if entry.parent_id else None
    sides = [{"label": side.get("label", ""), "groups": _dice(side.get("view")),
              "outcome": _outcome(side.get("view")), "score": (side.get("view") or {}).get("score"),
              "pool": (side.get("view") or {}).get("pool", "")}
             for side in entry.sides or ()]
    return {
        "entry": entry,
        "who": who(entry),
        "groups": [] if sides else _dice(entry.view),
        "sides": sides,
        "outcome_cls": _outcome(entry.view)["cls"] if entry.view else "",
        "parent_code": parent.code if parent is not None and api.can_view(parent, viewer) else "",
    }


MAX_NAMED = 200


def _named(typed):
    """
    The entries by or for a character whose name contains `typed`.

    **Ruling (speed):** when characters that exist now match, their entries are
    found by their links (indexed: `rolllog_character_created`, `rolllog_subject_created`),
    renamed ones included; only when none does are the names stored on the log searched
    (a deleted character, or one under a name it no longer has), which reads the whole log.
    """
    ids = list(ObjectDB.objects.filter(db_key__icontains=typed).values_list("id", flat=True)[:MAX_NAMED])
    if ids:
        return Q(character_id__in=ids) | Q(subject_id__in=ids)
    return Q(character_name__icontains=typed) | Q(subject_name__icontains=typed)


@login_required
def roll_list(request):
    account = request.user
    query = api.visible_to_account(account)
    character = " ".join(without_control(request.GET.get("character", "")).split())[:80]
    typed_code = request.GET.get("code", "").strip()[:40]
    if typed_code:
        code = codes.normalize(typed_code)
        query = query.filter(code=code) if code else query.none()
    if character:
        query = query.filter(_named(character))
    query = query.select_related("parent").order_by("-created", "-id")
    rows, total, pages = api.page(query, _page_number(request.GET.get("page")), size=PER_PAGE)
    page = EntriesPage(rows, min(_page_number(request.GET.get("page")), pages), pages, total)
    filters = {k: v for k, v in (("character", character), ("code", typed_code)) if v}
    context = {
        "page_title": "Roll log",
        "rows": [_row(entry, account) for entry in page.object_list],
        "entries_page": page,
        "character": character,
        "code": typed_code,
        "filter_query": urlencode(filters),
        "staff": api.is_staff(account),
        "total": total,
    }
    return render(request, "rolllog/roll_list.html", context)


# ---------------------------------------------------------------- fairness and odds

MAX_FAIRNESS_DAYS = 3650


def _fairness_choices(account):
    """(may see anyone, the characters offered in the filter as (id, name))."""
    staff = api.is_staff(account)
    if staff:
        # One index seek per character: a DISTINCT over every face ever rolled is a full read
        # on PostgreSQL (0.3 s at a million entries, bench/bench_rolllog.py).
        ids = rolled_characters()
    else:
        ids = api.own_character_ids(account)
    named = ObjectDB.objects.filter(id__in=list(ids)[:MAX_NAMED]).order_by("db_key").values_list("id", "db_key")
    return staff, list(named)


def _fairness_days(typed):
    """
    (days or None, the refusal or ""): what the Days field says, in +dice/fairness's words. A
    day count that is not a whole number from 1 to MAX_FAIRNESS_DAYS is refused and the page
    shows every roll kept, as with no days, rather than a period nobody asked for.
    """
    typed = typed.strip()
    if not typed:
        return None, ""
    try:
        days = read_whole(typed, "Days are a whole number", signed=True)
    except DiceError as err:
        return None, str(err)
    if not 1 <= days <= MAX_FAIRNESS_DAYS:
        return None, f"Days are from 1 to {MAX_FAIRNESS_DAYS}, not {days}."
    return days, ""


@login_required
def fairness(request):
    """/rolls/fairness/: the fairness report (`rules.fairness`) with server-rendered SVG charts."""
    account = request.user
    staff, choices = _fairness_choices(account)
    allowed = {cid for cid, _ in choices}
    chosen = _page_number(request.GET.get("character")) if request.GET.get("character") else None
    refused = ""
    if chosen is not None and not staff and chosen not in allowed:
        refused, chosen = "You may see your own characters or the whole game.", None
    days, refused_days = _fairness_days(request.GET.get("days", ""))
    refused = " ".join(text for text in (refused, refused_days) if text)
    since = timezone.now() - timedelta(days=days) if days else None
    # What this account could see: a private roll counts only if it was shown to them.
    tests = fairness_report(face_counts(character=chosen, since=since, shown_to=None if staff else account))
    name = dict(choices).get(chosen, "") if chosen is not None else ""
    context = {
        "page_title": "Dice fairness",
        "charts": [{"test": test, "svg": svg_chart(test)} for test in tests],
        "choices": choices,
        "chosen": chosen,
        "name": name,
        "days": days or "",
        "refused": refused,
        "staff": staff,
    }
    return render(request, "rolllog/fairness.html", context)


MAX_TYPED = 100  # of any odds field, before it is read (a pool is at most 80 characters)


def _odds_fields(inputs, typed):
    """The system's odds inputs as the template draws them, each showing what was typed (or its default)."""
    fields = []
    for item in inputs:
        sent = typed.get(item.name)
        value = sent if sent is not None else ("" if item.kind == TEXT or item.default is None else str(item.default))
        field = {"name": item.name, "id": f"odds-{item.name}", "label": item.label, "kind": item.kind,
                 "hint": item.hint, "value": value, "low": item.low, "high": item.high}
        if item.kind == FLAG:
            field["checked"] = item.read(sent)
        if item.kind == CHOICE:
            keys = [choice_key(choice) for choice, _ in item.choices]
            chosen = (sent or "").strip() if (sent or "").strip() in keys else choice_key(item.default)
            field["options"] = [{"key": key, "label": label, "selected": key == chosen}
                                for key, (_, label) in zip(keys, item.choices)]
        fields.append(field)
    return fields


def _own_characters(account):
    """The account's own characters that have a sheet, by name."""
    ids = list(api.own_character_ids(account))[:MAX_NAMED]
    return [obj for obj in ObjectDB.objects.filter(id__in=ids).order_by("db_key") if hasattr(obj, "roller")]


def _sheet_traits(character, chosen):
    """The character's traits as the form offers them: name, label, dots, ticked."""
    values = character.trait_table().values
    return [{"name": name, "label": name.title(), "value": value, "checked": name in chosen}
            for name, value in values.items()]


def _pool_with_traits(traits, typed):
    """The ticked traits joined as a pool, then what was typed in the Pool field (`+2`, `-1`, `+ brawl`)."""
    typed = (typed or "").strip()
    pool = "+".join(traits)
    if pool and typed:
        return pool + ("" if typed[:1] in "+-" else "+") + typed
    return pool or typed


def _character_odds(system, inputs, typed, character):
    """
    The odds of a pool of `character`'s, as `+odds` gives them to its player: the pool named
    with the sheet's traits, and the character's own state (Hunger, wounds) over the page's
    fields. **Ruling:** with a character chosen, what its sheet says wins over the fields, so
    the page and `+odds` cannot disagree; a target that names another character needs the
    game (it is read from their sheet with their consent), and is refused here.
    """
    text, switches, page_roller = system.odds_args(read_odds_inputs(inputs, typed))
    roller = character.roller()
    roller = dataclasses.replace(roller, state={**page_roller.state, **roller.state})
    request = system.parse(text, switches, roller=roller)
    if request.get("needs_target"):
        raise DiceError("A roll against another character's sheet: ask +odds in the game.")
    return system.odds(request, roller)


def _odds_character(request, account):
    """(the account's characters, the one chosen or None, the traits ticked) from the request."""
    characters = _own_characters(account)
    typed = request.GET.get("character", "")
    chosen = next((obj for obj in characters if str(obj.id) == typed.strip()), None)
    ticked = [without_control(name)[:MAX_TYPED] for name in request.GET.getlist("trait")[:MAX_TRAITS]]
    if chosen is not None:
        known = chosen.trait_table().values
        ticked = [name for name in known if name in ticked]  # the sheet's order, its names only
    return characters, chosen, ticked if chosen is not None else []


MAX_TRAITS = 20  # ticked traits read (a pool is at most 80 characters anyway)


@login_required
def odds(request):
    """
    /rolls/odds/: the exact odds of a roll under the configured system, with a chart.

    The page draws the fields the system describes (`System.odds_inputs`: the pool, the target
    and the system's own, such as V5's Hunger or V20's Specialty) and reads them back; the
    system turns their values into the request `+odds` makes (`System.odds_args`), so the
    chances and the chart are the ones `+odds` gives for the same dice, switches and state.
    Nothing is computed until a pool is typed. A refused input (a Hunger of 9, a pool or a
    target the rules refuse) is said on the page, in the rules' words; no odds are shown then.
    """
    system = dice_system()
    inputs = system.odds_inputs
    typed = {item.name: without_control(request.GET[item.name])[:MAX_TYPED]
             for item in inputs if item.name in request.GET}
    characters, character, ticked = _odds_character(request, request.user)
    asked = dict(typed, pool=_pool_with_traits(ticked, typed.get("pool")))
    view, error, rows, svg, notes = None, "", [], "", []
    if asked["pool"].strip():
        try:
            if character is not None:
                view = _character_odds(system, inputs, asked, character)
            else:
                view = system.odds_of(read_odds_inputs(inputs, asked))
        except DiceError as err:
            error = str(err)
    if view is not None:
        # The figures +odds prints: the outcome lines agree with the chart (rules.display.odds_figures).
        counts, _, parts = odds_figures(view)
        rows = [{"label": c.label, "tone": c.tone, "percent": f"{n // 10}.{n % 10}%"}
                for c, n in zip(view.chances, counts)]
        notes = ([breakdown_line(view, parts)] if parts else []) + list(view.notes)
        svg = odds_svg(view.distribution, view.noun)
    context = {
        "page_title": "Dice odds",
        "system_title": system.title,
        "usage": strip_markup(system.roll_usage.replace("+roll", "+odds", 1).replace(" [# <comment>]", "")),
        "fields": _odds_fields(inputs, typed),
        "view": view,
        "rows": rows,
        "notes": notes,
        "svg": svg,
        "error": error,
        "characters": [(obj.id, obj.key) for obj in characters],
        "character": character,
        "traits": _sheet_traits(character, ticked) if character is not None else [],
    }
    return render(request, "rolllog/odds.html", context)
