"""
The Whalefall wing's command keys and aliases, as `cmdset.py` makes them, written out so that
`commands.keys.settings_problem()` can check `DICE_COMMAND_KEYS` before Evennia is loaded
(tests/test_command_keys.py holds this equal to the cmdset).
"""

COMMAND_KEYS = {"+partial": ("partial",)}
