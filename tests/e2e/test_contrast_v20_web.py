"""
The contrast and phone checks of test_contrast_web.py in a game with DICE_SYSTEM=v20 (its own
roll marks, odds page and help topics), on the session's V20 server.
"""

import pytest

from .systems import system_server
from .test_contrast_web import (test_chart_labels_and_roll_log_cards_read_well,  # noqa: F401 - collected here
                                test_every_text_of_every_page_reads_at_aa)
from .test_web import browser  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

game_server = system_server("v20")
