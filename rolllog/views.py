"""
The roll log on the website (/rolls/): a logged-in account sees what `rolllog.api.
visible_to_account` allows (staff: everything; a player: their own rolls, rolls shown to them,
and the public rolls of rooms where one of their characters rolled or was shown a roll),
newest first, filtered by character name and by code.
"""

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import render

from commands.dice_display import without_control

from . import api, codes

PER_PAGE = 50

MARKED_OUTCOMES = {
    "critical": "critical",
    "messy_critical": "messy",
    "bestial_failure": "bestial",
    "total_failure": "total-failure",
}


def _faces(entry):
    """Faces with the CSS classes that mirror the telnet colours."""
    rerolled = set(entry.details.get("rerolled", []) or [])
    regular = [
        {"face": face, "cls": " ".join(filter(None, ["die", "die-ten" if face == 10 else "",
                                                     "die-rerolled" if i in rerolled else ""]))}
        for i, face in enumerate(entry.regular)
    ]
    hunger = [
        {"face": face, "cls": "die die-hunger" + (" die-hunger-marked" if face in (1, 10) else "")}
        for face in entry.hunger
    ]
    return regular, hunger


def _row(entry, viewer):
    regular, hunger = _faces(entry)
    parent = entry.parent if entry.parent_id else None
    return {
        "entry": entry,
        "regular": regular,
        "hunger": hunger,
        "outcome_cls": MARKED_OUTCOMES.get(entry.outcome, ""),
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
    paginator = Paginator(query, PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    filters = {k: v for k, v in (("character", character), ("code", typed_code)) if v}
    context = {
        "page_title": "Roll log",
        "rows": [_row(entry, account) for entry in page.object_list],
        "entries_page": page,
        "character": character,
        "code": typed_code,
        "filter_query": urlencode(filters),
        "staff": api.is_staff(account),
        "total": paginator.count,
    }
    return render(request, "rolllog/roll_list.html", context)
