"""
The roll log on the website (/rolls/): a logged-in account sees what `rolllog.api.
visible_to_account` allows (staff: everything; a player: their own rolls, rolls shown to them,
and the public rolls of rooms where one of their characters rolled or was shown a roll),
newest first, filtered by character name and by code.

Pages are numbered (`?page=N`, 50 entries) and read by `rolllog.api.page`: the page's first
(created, id) is sought through the index, then the page is read by keyset from there, so a
deep page costs about what the first does (issue 14, bench/bench_rolllog.py).
"""

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import render

from . import api, codes
from .display import who, without_control

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
        query = query.filter(Q(character_name__icontains=character) | Q(subject_name__icontains=character))
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
