"""
MSSP (Mud Server Status Protocol): what MUD listing sites and clients read about the game.

Evennia's Portal imports this module once and sends `MSSPTable` (plus NAME from
settings.SERVERNAME, PLAYERS and UPTIME, which Evennia adds itself) to any client that asks.
The table is built from the settings so that it tells the truth about this game:

- PORT: the telnet ports the Portal listens on (`TELNET_PORTS`, which follow `GAME_PORT_BASE`),
  the main one (`TELNET_PORTS[0]`) last, as MSSP asks ("most important port last").
- SSL: the SSL port when `SSL_ENABLED`, else "0". **Ruling:** MSSP's SSL field is the SSL
  port number or "0" when not supported (the old "1"/"0" meaning is gone); "1" would tell a
  crawler to try TLS on port 1.
- GAMESYSTEM: the title of the configured `DICE_SYSTEM` ("Vampire: The Masquerade 5th
  edition"), read from `rules.systems` (pure Python: the Portal never imports the commands).
- GENRE / SUBGENRE: by system (**Ruling:** V5 is "Horror" / "Vampire"; the classic Storyteller
  system "Horror"; the others, whose settings this codebase does not fix, "None").
- CODEBASE: "Evennia <version>" from `evennia.__version__` (e.g. "Evennia 6.1.0").
- GMCP, MSDP: "1": Evennia 6.1's telnet always offers them (server/portal/telnet.py), whatever
  `TELNET_OOB_ENABLED` says (Evennia's own default table reads that setting, wrongly).

Fields only the game's owner can know (HOSTNAME, CONTACT, WEBSITE, CREATED, MINIMUM AGE, ...)
stay empty or at their "not applicable" value until they fill them in here. Reload the server
after changing this file.
"""

from django.conf import settings

GENRES = {
    "v5": ("Horror", "Vampire"),
    "v20": ("Horror", "None"),
}


def _codebase():
    import evennia

    # __version__ is "6.1.0 (rev 840ca6f)": the release is the first word.
    version = str(getattr(evennia, "__version__", "") or "").split()
    return f"Evennia {version[0]}" if version else "Evennia"


def _system(key):
    """(key, title) of the configured dice system; the key itself if it does not load."""
    from storyteller_dice.rules.errors import DiceError
    from storyteller_dice.rules.systems import _key, get_system

    key = _key(key)
    try:
        return key, get_system(key).title or key
    except DiceError:
        return key, key


def mssp_table():
    """The MSSP table for the current settings (MSSPTable below is this at import)."""
    key, title = _system(getattr(settings, "DICE_SYSTEM", None))
    genre, subgenre = GENRES.get(key, ("None", "None"))
    ports = [str(port) for port in settings.TELNET_PORTS][::-1]
    ssl = str(settings.SSL_PORTS[0]) if getattr(settings, "SSL_ENABLED", False) and settings.SSL_PORTS else "0"
    table = dict(_STATIC)
    table.update({
        "PORT": ports,
        "SSL": ssl,
        "CODEBASE": _codebase(),
        "GAMESYSTEM": title,
        "GENRE": genre,
        "SUBGENRE": subgenre,
    })
    return table


_STATIC = {
    # The NAME field is automatically set from settings.SERVERNAME. To override,
    # uncomment the line below.
    # "NAME": "My Custom Name",
    # Generic
    "CRAWL DELAY": "-1",  # limit how often crawler may update the listing. -1 for no limit
    "HOSTNAME": "",  # telnet hostname
    # PORT, SSL, CODEBASE, GAMESYSTEM, GENRE, SUBGENRE: from the settings (mssp_table).
    "CONTACT": "",  # email for contacting the mud
    "CREATED": "",  # year MUD was created
    "ICON": "",  # url to icon 32x32 or larger; <32kb.
    "IP": "",  # current or new IP address
    "LANGUAGE": "English",
    "LOCATION": "",  # full English name of server country
    "MINIMUM AGE": "0",  # set to 0 if not applicable
    "WEBSITE": "",  # http:// address to your game website
    # Categorisation
    "FAMILY": "Evennia",
    # Gameplay: Adventure, Educational, Hack and Slash, None,
    # Player versus Player, Player versus Environment,
    # Roleplaying, Simulation, Social or Strategy
    "GAMEPLAY": "Roleplaying",
    "STATUS": "Open Beta",  # Allowed: Alpha, Closed Beta, Open Beta, Live
    # Subgenre: LASG, Medieval Fantasy, World War II, Frankenstein,
    # Cyberpunk, Dragonlance, etc. Or None if not applicable.
    # World
    "AREAS": "0",
    "MOBILES": "0",
    "OBJECTS": "0",
    "ROOMS": "0",  # use 0 if room-less
    "CLASSES": "0",  # use 0 if class-less
    "LEVELS": "0",  # use 0 if level-less
    "RACES": "0",  # use 0 if race-less
    "SKILLS": "0",  # use 0 if skill-less
    # Protocols set to 1 or 0; should usually not be changed)
    "ANSI": "1",
    "GMCP": "1",
    "MSDP": "1",
    "MXP": "1",
    "UTF-8": "1",
    "MCCP": "1",
    "XTERM 256 COLORS": "1",
    "XTERM TRUE COLORS": "0",
    "ATCP": "0",
    "MCP": "0",
    "MSP": "0",
    "VT100": "0",
    "PUEBLO": "0",
    "ZMP": "0",
    # Commercial set to 1 or 0)
    "PAY TO PLAY": "0",
    "PAY FOR PERKS": "0",
    # Hiring  set to 1 or 0)
    "HIRING BUILDERS": "0",
    "HIRING CODERS": "0",
    # Extended variables
    # World
    "DBSIZE": "0",
    "EXITS": "0",
    "EXTRA DESCRIPTIONS": "0",
    "MUDPROGS": "0",
    "MUDTRIGS": "0",
    "RESETS": "0",
    # Game  (set to 1 or 0, or one of the given alternatives)
    "ADULT MATERIAL": "0",
    "MULTICLASSING": "0",
    "NEWBIE FRIENDLY": "0",
    "PLAYER CITIES": "0",
    "PLAYER CLANS": "0",
    "PLAYER CRAFTING": "0",
    "PLAYER GUILDS": "0",
    "EQUIPMENT SYSTEM": "None",  # "None", "Level", "Skill", "Both"
    "MULTIPLAYING": "None",  # "None", "Restricted", "Full"
    "PLAYERKILLING": "None",  # "None", "Restricted", "Full"
    "QUEST SYSTEM": "None",  # "None", "Immortal Run", "Automated", "Integrated"
    "ROLEPLAYING": "Encouraged",  # "None", "Accepted", "Encouraged", "Enforced"
    "TRAINING SYSTEM": "None",  # "None", "Level", "Skill", "Both"
    # World originality: "All Stock", "Mostly Stock", "Mostly Original", "All Original"
    "WORLD ORIGINALITY": "All Original",
}

MSSPTable = mssp_table()
