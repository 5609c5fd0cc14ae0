"""
The website's character pages with the dice system's sheet (served by the package's URLconf,
`rolllog/urls.py`, which a host includes before its website's own).

- `/characters/detail/<slug>/<id>/`: Evennia's character detail page, with the sheet of the
  configured system laid out as `+sheet` lays it (`Sheet.layout`), shown to the character's
  own player and to staff only (as `+sheet <character>`; everyone else sees the name and the
  description), and the description as plain text. **Ruling:** the page shows what `look`
  shows of the description, its colour and markup taken off (the player's text is data: Django
  escapes it, it is never markup or a link); its line breaks are kept.
- **Ruling:** a character page that names no character answers 404 Not Found: an id no
  character has (`/characters/detail/x/9999/`), or a name that is not the one the page is
  under (`slugify(name)`, Evennia's own check: `/characters/detail/Alice/3/` for Alice's
  `/characters/detail/alice/3/`). Evennia's view answered both with HTTP 500 (the first an
  uncaught `DoesNotExist`, the second a `raise` of a response, which is no exception). No
  redirect to the right name: the 404 is the same whether the id exists or not. A character
  the visitor may not view stays Evennia's 403.
- `/characters/manage/`: Evennia's list of one's characters, without the images it loads from
  placehold.jp (the site works with no internet access).
"""

from django.http import Http404
from django.urls import path
from django.utils.text import slugify
from evennia.utils.ansi import strip_ansi
from evennia.web.website.views.characters import CharacterDetailView, CharacterManageView

from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses.speech_text import description_text as shown

from . import api


def description_text(character):
    """What `look` shows of the description, as plain text ("" when none was set)."""
    desc = character.attributes.get("desc", default=None)
    if not desc:
        return ""
    lines = strip_ansi(shown(desc, character.key)).replace("\r\n", "\n").split("\n")
    return "\n".join(line.strip() for line in lines).strip()


def may_see_sheet(account, character):
    """The character's own player and staff, as for `+sheet <character>`."""
    if account is None or not account.is_authenticated:
        return False
    return api.is_staff(account) or character.id in api.own_character_ids(account)


def sheet_sections(character):
    """The sheet's sections as the template draws them (plain data; Django escapes every text)."""
    try:
        layout = character.sheet_layout()
    except DiceError as err:
        # The game's own trait source failed (`typeclasses.traits`: the trace is in the server
        # log): the page says so where the sheet would be, as `+sheet` does, not an HTTP 500.
        return [{"kind": "line", "title": "", "text": str(err), "boxes": "", "groups": []}]
    sections = []
    for section in layout:
        sections.append({"kind": section.kind, "title": section.title, "text": section.text,
                         "boxes": section.boxes,
                         "groups": [{"title": title, "traits": list(traits)} for title, traits in section.rows]})
    return sections


class CharacterSheetView(CharacterDetailView):
    """Evennia's character page, with the sheet for those who may see it."""

    template_name = "rolllog/character_detail.html"

    def get_object(self, queryset=None):
        """Evennia's, after a 404 for a page that names no character (see above)."""
        character = self.typeclass.objects.filter(pk=self.kwargs.get("pk")).first()
        if character is None or slugify(character.name) != self.kwargs.get(self.slug_url_kwarg):
            raise Http404("No such character.")
        return super().get_object(queryset)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        character = self.object
        shown = hasattr(character, "sheet_layout") and may_see_sheet(self.request.user, character)
        context.update({
            "description": description_text(character),
            "sheet": sheet_sections(character) if shown else None,
            "approved": bool(getattr(character, "approved", False)),
        })
        return context


class CharacterListOffline(CharacterManageView):
    """Evennia's "manage characters" list, its placeholder images left out."""

    template_name = "rolllog/character_manage_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["described"] = [(obj, description_text(obj)) for obj in context.get("object_list", ())]
        return context


urlpatterns = [
    path("characters/manage/", CharacterListOffline.as_view(), name="character-manage"),
    path("characters/detail/<str:slug>/<int:pk>/", CharacterSheetView.as_view(), name="character-detail"),
]
