"""
Deprecated: import `escape`, `without_control` and `MAX_COMMENT` from `rules.display` (the one
place for escaping and formatting; its docstring has the rules). Kept only while wings still
being written (commands/seyruun, commands/v20) import them from here; delete it when
`grep -rn dice_display commands/` finds nothing.
"""

from rules.display import MAX_COMMENT, escape, without_control  # noqa: F401
