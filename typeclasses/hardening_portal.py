"""
The bundle's Portal plugin module (`typeclasses.hardening`: appended to
`PORTAL_SERVICES_PLUGIN_MODULES` when `DICE_HARDEN_GAME` is on). Evennia calls it before the
reactor runs: the AMP framing fix and the Portal's side of batching
(`MsgServer2PortalMany`) are in place before the Server connects.
"""


def start_plugin_services(portal):
    """Evennia's plugin hook (the Portal's application; unused)."""
    from storyteller_dice.typeclasses import amp_batch, amp_framing

    amp_framing.install()
    amp_batch.install_portal()
