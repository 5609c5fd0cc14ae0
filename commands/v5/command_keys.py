"""
The V5 wing's command keys and aliases, as `cmdset.py` makes them, written out so that
`commands.keys.settings_problem()` can check `DICE_COMMAND_KEYS` before Evennia is loaded
(tests/test_command_keys.py holds this equal to the cmdset).
"""

COMMAND_KEYS = {"+contest": ("contest",), "+teamwork": ("+team", "teamwork"), "+willpower": ("+wp", "willpower"),
                "+rouse": ("rouse",), "+hunger": ("hunger",), "+remorse": ("remorse",), "+frenzy": ("frenzy",)}
