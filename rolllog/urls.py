"""
The package's web pages, in one URLconf a host includes at the root of its `web/urls.py`,
before its website's own (README: "Add to an existing game"):

    path("", include("storyteller_dice.rolllog.urls")),

- `/rolls/`, `/rolls/odds/`, `/rolls/fairness/`: the roll log, the dice odds and the fairness
  report (`rolllog:index`, `rolllog:odds`, `rolllog:fairness`);
- `/characters/detail/<slug>/<id>/` and `/characters/manage/`: Evennia's character pages with
  the dice system's sheet (`sheet_page`). Being first, they answer for Evennia's own patterns
  of the same paths, which Evennia's templates still reverse by their plain names
  (`character-detail`, `character-manage`) to these same paths.

Registering and logging in into the web client are a URLconf of their own
(`storyteller_dice.rolllog.play_urls`), which a game includes only if it wants them: a host's own
registration and login stay theirs.
"""

from django.urls import path

from . import sheet_page, views

app_name = "rolllog"

urlpatterns = [
    path("rolls/", views.roll_list, name="index"),
    path("rolls/fairness/", views.fairness, name="fairness"),
    path("rolls/odds/", views.odds, name="odds"),
    *sheet_page.urlpatterns,
]
