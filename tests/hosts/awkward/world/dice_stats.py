"""The host's stats for the dice package (`DICE_TRAIT_SOURCE`): docs/install.md's worked example."""


class StatsSource:
    """The game's stats, kept in the dict Attribute `db.stats`."""

    def _group(self, character, name):
        """(the dict holding the trait, its key), or (None, key) when the stats lack it."""
        stats = character.db.stats or {}
        key = name.lower().replace(" ", "_")
        groups = [*(stats.get("attributes") or {}).values(), stats.get("skills") or {}]
        return next((group for group in groups if key in group), None), key

    def read(self, character, names):
        values = {}
        for name in names:
            group, key = self._group(character, name)
            if group is not None:
                values[name] = int(group[key])
        return values

    def write(self, character, name, value):
        group, key = self._group(character, name)
        if group is None:
            return False  # not one of the game's stats: the dice sheet keeps it
        group[key] = value  # a stored dict: changing it saves it
        return True

    def specialties(self, character):
        found = (character.db.stats or {}).get("specialties") or {}
        return {skill.replace("_", " "): list(names) for skill, names in found.items()}
