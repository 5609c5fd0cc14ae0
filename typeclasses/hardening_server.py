"""
The bundle's Server plugin module (`typeclasses.hardening`: appended to
`SERVER_SERVICES_PLUGIN_MODULES` when `DICE_HARDEN_GAME` is on). Evennia calls it before the
reactor runs and before any AMP connection exists: the AMP framing fix is in place for the
Server's link to the Portal from its first byte.
"""


def start_plugin_services(server):
    """Evennia's plugin hook (the Server's application; unused)."""
    from storyteller_dice.typeclasses import amp_framing

    amp_framing.install()
