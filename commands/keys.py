"""
Our command keys as the host configures them (`DICE_COMMAND_KEYS`), and the keys the host's
own cmdsets already use.
"""

# stub: replaced by the keys/bundle/traits work


def settings_problem():
    """What is wrong with `DICE_COMMAND_KEYS` (one line naming it), or None."""
    return None


def report_collisions():
    """At server start: one line in the server log per key the host's cmdsets and ours share."""
    return []


def collision_lines():
    """The same lines, for a superuser at login."""
    return []
