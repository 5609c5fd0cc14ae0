# -*- coding: utf-8 -*-
"""
The connection screen: what a player sees on connecting, before logging in (Evennia shows
`CONNECTION_SCREEN`; `look` shows it again). It names this game and how to start: create an
account, connect, and where the dice guide is. Its rules are bright cyan (|c), not Evennia's
blue: blue on the web client's black is 2.4:1, under WCAG AA's 4.5:1.
"""

from django.conf import settings

from evennia import utils

CONNECTION_SCREEN = """
|c==============================================================|n
 Welcome to |w{name}|n!
 {slogan}

 Storyteller dice for a MUSH: roll your pool in the room, and
 everyone sees the same honest result. Vampire: The Masquerade
 5th edition by default: Hunger dice, messy criticals, bestial
 failures.

 New here? Create an account (without the <>'s):
      |wcreate <username> <password>|n
 Already have one? Connect to it:
      |wconnect <username> <password>|n

 Enclose a name with spaces in quotes. Once in, |whelp dice|n is a
 one-screen guide to rolling. |wlook|n shows this screen again.
|c==============================================================|n
 Evennia {version}""".format(
    name=settings.SERVERNAME,
    slogan=settings.GAME_SLOGAN,
    version=utils.get_evennia_version("short"),
)
