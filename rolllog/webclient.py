"""
Where the web client's dice panel template lives, for the host's settings (README: "Add to an
existing game"): `TEMPLATES[0]["DIRS"].insert(0, PANEL_TEMPLATES)`. Its `webclient/base.html`
extends the next one on the search path (the game's own, else Evennia's) with the panel's
plugin (`static/storyteller_dice/dice_panel.js`); the server side is `typeclasses.panel` and
`commands.panel`. Its `website/base.html` does the same for the website's pages with the phone
layout (`static/rolllog/site.css`). Nothing here imports Django, so settings may import it.
"""

import os

PANEL_TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "panel_templates")
