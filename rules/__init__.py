"""
Pure dice rules for Storyteller-style d10 systems.

Standard library only: nothing here imports Evennia or Django, so every rule can be tested
with explicit faces and reused outside the game. One module per system (`v5`, ...), plus the
shared pieces: `errors`, `randomness`, `pools` (pool expressions) and `systems` (the registry
of game systems chosen by the `DICE_SYSTEM` setting).
"""


def _one_module_per_rule():
    """
    From a checkout, `rules` (the contract name: `rules.v5`, `rules.v20`, ...) and
    `storyteller_dice.rules` (the package's name, which the commands use) are the same modules,
    not two copies: one registry of systems, one `DiceError` class. The package is loaded from
    the folder `rules` was found in (so a copy of rules/, such as mutation testing's, is the one
    that runs), and every `rules.<name>` is `storyteller_dice.rules.<name>`.
    """
    # Imported here, not at the top: the package's names are its rule modules, and this runs only
    # under the contract name (a `rules.sys` or `rules.importlib` would read as a rule module).
    import importlib
    import importlib.abc
    import importlib.util
    import sys

    target = "storyteller_dice.rules"
    module = sys.modules.get(target)
    if module is None:
        importlib.import_module("storyteller_dice")
        spec = importlib.util.spec_from_file_location(target, __file__, submodule_search_locations=list(__path__))
        module = importlib.util.module_from_spec(spec)
        sys.modules[target] = module
        spec.loader.exec_module(module)
        sys.modules["storyteller_dice"].rules = module

    class Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, fullname, path=None, target_module=None):
            if fullname.startswith("rules.") and importlib.util.find_spec(f"storyteller_dice.{fullname}"):
                return importlib.util.spec_from_loader(fullname, self)
            return None  # no such rule: the usual ModuleNotFoundError, naming `rules.<name>`

        def create_module(self, spec):
            found = importlib.import_module(f"storyteller_dice.{spec.name}")
            spec.loader_state = found.__spec__
            return found

        def exec_module(self, found):
            found.__spec__ = found.__spec__.loader_state or found.__spec__  # its own spec back

    if not any(type(finder).__name__ == "Alias" and getattr(finder, "rules_alias", False) for finder in sys.meta_path):
        finder = Alias()
        finder.rules_alias = True
        sys.meta_path.insert(0, finder)
    sys.modules["rules"] = module


# Not under mutation testing: mutmut knows each function by its module's name as its copy of
# rules/ has it (`rules.v5...`), and runs only the pure tests, which need no second name.
if __name__ == "rules" and "mutmut" not in __import__("sys").modules:
    _one_module_per_rule()
