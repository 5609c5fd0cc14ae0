"""
Registering and logging in on the website lead into the game (docs/web.md: "Registering and
logging in"). The package's URLconf answers `/auth/register` and `/auth/login/` before
Evennia's (the host includes it first), with Evennia's own views and forms underneath, so
every check stays theirs (the name rule, the passwords, Django's login):

- `RegisterView`: Evennia's registration; once the account is made (and with it, as the game
  makes it, its character), it is logged in and sent to where it came to go: the web client,
  whose shared login connects it and plays the character.
- `PlayLoginView`: Django's login; with no `next` (the login page reached from the menu) it
  sends the player to the web client, not back to the home page. A `next` the page was given
  (a page that asked to log in first) wins, if it is on this site.

Where the game has no web client (`WEBCLIENT_ENABLED` off, or its URLs not included), both go
where Django would: `LOGIN_REDIRECT_URL`.
"""

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import HttpResponseRedirect
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from evennia.web.website.views.accounts import AccountCreateView

NEXT = "next"


def play_url():
    """The web client's address, or Django's LOGIN_REDIRECT_URL where the game has none."""
    if getattr(settings, "WEBCLIENT_ENABLED", True):
        try:
            return reverse("webclient:index")
        except NoReverseMatch:
            pass
    return str(settings.LOGIN_REDIRECT_URL)


def asked_next(request):
    """The `next` the request carries, if it is a page of this site; else ""."""
    wanted = request.POST.get(NEXT) or request.GET.get(NEXT) or ""
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return wanted
    return ""


class RegisterView(AccountCreateView):
    """Evennia's registration page; a new account is logged in and goes to play."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context[NEXT] = asked_next(self.request)
        return context

    def form_valid(self, form):
        response = super().form_valid(form)
        if not isinstance(response, HttpResponseRedirect):  # refused: the form with its errors
            return response
        account = self.typeclass.objects.filter(username__iexact=form.cleaned_data["username"]).first()
        if account is None:  # made and gone already: the login page, as Evennia sends it
            return response
        login(self.request, account, backend=settings.AUTHENTICATION_BACKENDS[0])
        return HttpResponseRedirect(asked_next(self.request) or play_url())


class PlayLoginView(LoginView):
    """Django's login page, whose default next page is the web client."""

    def get_default_redirect_url(self):
        return play_url()
