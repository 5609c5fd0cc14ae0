"""
The worked example of docs/host-stats.md, as a host game would keep it (say in
`world/stats.py`, named by `DICE_TRAIT_SOURCE = "world.stats.StatsSource"`): V5 stats in one
dict Attribute. The class below is the page's code block, character for character
(tests/test_host_stats.py checks it); `full_stats` is a chargen's dict the tests start from.
"""


class StatsSource:
    """
    V5 stats kept in one Attribute, `db.stats`:
    {"attributes": {"physical": {"strength": 2, ...}, "social": {...}, "mental": {...}},
     "skills": {"stealth": 2, "animal_ken": 1, ...}, "specialties": {"stealth": ["Urban"]},
     "hunger": 1}
    A trait it does not hold (Humanity, Disciplines, ...) stays the dice sheet's.
    """

    def _holder(self, stats, name):
        """(the dict inside `stats` that holds the trait `name`, its key there), or (None, None)."""
        key = name.replace(" ", "_")  # the dice sheet's "animal ken" is "animal_ken" here
        for group in (*stats.get("attributes", {}).values(), stats.get("skills", {}), stats):
            if isinstance(group.get(key), int):
                return group, key
        return None, None

    def read(self, character, names):
        stats, found = character.db.stats or {}, {}
        for name in names:
            group, key = self._holder(stats, name)
            if group is not None:
                found[name] = group[key]
        return found

    def write(self, character, name, value):
        group, key = self._holder(character.db.stats or {}, name)
        if group is None:
            return False  # not one of ours: the dice sheet keeps it
        group[key] = value  # a change inside db.stats is saved
        return True

    def specialties(self, character):
        return dict((character.db.stats or {}).get("specialties", {}))

    def write_specialties(self, character, skill, names):
        stats = character.db.stats
        if stats is None:
            return False
        stats["specialties"] = {**stats.get("specialties", {}), skill.replace(" ", "_"): list(names)}
        return True


def full_stats():
    """A V5 character as the host's chargen keeps it: its Attributes, the Skills it has, Hunger."""
    return {
        "attributes": {
            "physical": {"strength": 2, "dexterity": 4, "stamina": 3},
            "social": {"charisma": 2, "manipulation": 1, "composure": 3},
            "mental": {"intelligence": 2, "wits": 3, "resolve": 2},
        },
        "skills": {"athletics": 2, "brawl": 1, "stealth": 3, "animal_ken": 1, "insight": 0, "occult": 2},
        "specialties": {"stealth": ["Urban"], "animal_ken": ["Cats"]},
        "hunger": 3,
    }
