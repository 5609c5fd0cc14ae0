"""
Settings for the load bench (bench/bench_scene.py starts the game with
`evennia --settings bench_settings.py`): the end-to-end test settings, with Evennia's
DoS limits on new connections and commands per second lifted, as Evennia's own profiling
settings do (evennia/server/profiling/settings_mixin.py). Every bench client connects from
127.0.0.1 at once; at the default two connections a second, 100 clients would take 50 s to
get in, and the bench measures the game's answers, not the Portal's doorman.
"""

from server.conf.e2e_settings import *  # noqa: F401,F403

MAX_CONNECTION_RATE = 100000
MAX_COMMAND_RATE = 100000
