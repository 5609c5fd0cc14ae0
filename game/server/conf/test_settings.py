"""
Settings for the pytest suite (pyproject.toml: DJANGO_SETTINGS_MODULE = server.conf.test_settings).

The game's own settings plus what makes Django/Evennia tests fast and self-contained.
pytest-django gives SQLite tests an in-memory database, so the game's database is not touched.
"""

from server.conf.settings import *  # noqa: F401,F403

# Evennia checks DEFAULT_HOME etc. against the database unless it knows it is under test.
TEST_ENVIRONMENT = True

# Hashing passwords properly is slow by design; tests create many accounts.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

DEBUG = False
