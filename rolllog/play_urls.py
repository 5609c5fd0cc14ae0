"""
Registering and logging in on the website lead into the game (`registration`): a URLconf of its
own, so that a game opts in with one line and a host's own registration or login is never
taken over by the roll log's pages. The demo game includes it in `web/urls.py`, before its
website's line:

    path("", include("storyteller_dice.rolllog.play_urls")),

- `/auth/register` and `/auth/login/`: Evennia's registration and Django's login, leading into
  the web client; Evennia's names `register` and `login` reverse to these same paths.
"""

from django.urls import path

from . import registration

urlpatterns = [
    path("auth/register", registration.RegisterView.as_view(), name="register"),
    path("auth/login/", registration.PlayLoginView.as_view(), name="login"),
]
