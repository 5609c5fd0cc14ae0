"""
The roll log: every roll, every later change to a roll and every staff action on a sheet,
stored in the game's database with a short verification code.

- `rolllog.models.RollEntry`: one stored roll or action.
- `rolllog.codes`: making and reading verification codes.
- `rolllog.api`: storing (`store_roll`, `record_action`), finding (`find`) and deciding who may
  see what (`can_view`, `visible_to_account`, ...). Commands and web views use only this module.
- `rolllog.display`: how entries look in the game.
- `rolllog.views` / `rolllog.urls`: the web page (/rolls/).

Django code stays here: `rules/` knows nothing about the log.
"""
