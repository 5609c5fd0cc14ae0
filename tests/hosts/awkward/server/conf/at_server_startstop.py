"""
The host's start hooks: only the one it uses (Evennia calls the functions a module has).
"""

from evennia.utils import logger


def at_server_start():
    logger.log_info("Host start hook ran.")
