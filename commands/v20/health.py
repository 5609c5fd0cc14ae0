"""
V20 health: +damage and +heal (staff), +heal/blood (a vampire heals with blood points).

The track is the sheet's "health bashing"/"health lethal"/"health aggravated" values
(staff-only on +stat); the marking order, what happens past a full track and the healing
costs are `rules.v20.health`'s. Every change is put on the roll log as a staff action
(`record_action`), private to the actor, the character and staff.

**Rulings** (the day's rest of Aggravated healing):

- A player heals Bashing and Lethal damage with `+heal/blood <n> <bashing|lethal>`, 1 blood
  point a level, as many levels a turn as the Generation allows (the turns it takes are said).
- Aggravated damage needs 5 blood points and a full day's rest a level: the game cannot see
  the rest, so the Storyteller vouches for it: staff `+heal/blood <character>=<n> aggravated`
  takes the 5 blood points a level from the character. A player's `+heal/blood <n> aggravated`
  is refused with the cost explained.
- Staff `+heal <character>=<n> <kind>` heals without cost (time, medicine, a Discipline: the
  Storyteller's ruling).
- Damage past a full track upgrades lighter boxes (`rules.v20.health.damage`); levels that
  find nothing lighter are lost, and the message says the track is full of that kind (torpor
  or Final Death is the Storyteller's matter).
"""

from storyteller_dice.rules.v20 import health as v20_health, system as v20_system
from storyteller_dice.rules.errors import DiceError

from ..dice_base import DiceCommand, find_character, is_staff, record_action, whole_number
from storyteller_dice.rules.display import escape
from . import character as v20_character

KINDS = v20_health.DAMAGE_TYPES
MAX_LEVELS = v20_health.BOXES * 2  # a typed number past this changes nothing more


def read_levels_and_kind(text, what="levels", need_kind=True):
    """`3 lethal` -> (3, "lethal"); the kind may be a unique prefix (`agg`, `l`)."""
    words = text.split()
    if not words or len(words) > 2 or (need_kind and len(words) != 2):
        raise DiceError(f"Give the number of health levels and the kind: <n> {'|'.join(KINDS)}.")
    levels = whole_number(words[0], f"The number of {what} must be a whole number")
    if not 1 <= levels <= MAX_LEVELS:
        raise DiceError(f"Give 1 to {MAX_LEVELS} health levels.")
    kind = None
    if len(words) == 2:
        typed = words[1].lower()
        matches = [k for k in KINDS if k.startswith(typed)] if typed else []
        if len(matches) != 1:
            raise DiceError(f"Damage is bashing, lethal or aggravated, not '{escape(words[1])}'.")
        kind = matches[0]
    return levels, kind


def track_text(track):
    """`Injured: -1 die [XXX....]`: the state and the boxes (as +sheet draws them)."""
    return f"{v20_system.health_state(track)} [{v20_system.health_boxes(track)}]"


class HealthCommand(DiceCommand):
    def target_sheet(self, name):
        if not name.strip():
            raise DiceError("Name the character before '='.")
        target = find_character(self.caller, name)
        if not v20_character.has_sheet(target):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        return target

    def report(self, target, kind, description, mine, theirs, details):
        record_action(self.caller, target, kind, description, command=self.raw_string.strip(), details=details)
        self.msg(mine)
        if target != self.caller:
            target.msg(theirs)


class CmdDamage(HealthCommand):
    """
    Deal health levels of damage to a character (staff).

    Usage:
      +damage <character>=<n> <bashing|lethal|aggravated>

    The levels are marked on the character's health track, Aggravated first,
    then Lethal, then Bashing; the wound penalty of the last marked level
    comes off every pool the character rolls (Hurt and Injured -1, Wounded
    and Mauled -2, Crippled -5) and at Incapacitated the character cannot
    act. Damage past a full track turns lighter boxes worse (Bashing into
    Lethal; Aggravated takes Bashing, then Lethal boxes). The character is
    told, and the change is kept on the roll log. Kinds may be shortened
    (agg, l, b).

    Examples:
      +damage Anna=3 lethal
      +damage Anna=1 agg
    """

    key = "+damage"
    aliases = ["damage"]
    locks = "cmd:all()"
    usage = "+damage <character>=<n> <bashing|lethal|aggravated>"

    def run(self):
        if not is_staff(self.caller):
            raise DiceError("Only staff deal damage; the Storyteller marks your wounds.")
        if self.rhs is None:
            raise DiceError("Say how much and what kind after '='.")
        levels, kind = read_levels_and_kind(self.rhs)
        target = self.target_sheet(self.lhs)
        before = v20_character.track(target)
        done = v20_health.damage(before, kind, levels)
        v20_character.set_track(target, done.track)
        after = v20_character.track(target)
        extra = ""
        if done.upgraded:
            extra += f"; {done.upgraded} lighter {'box' if done.upgraded == 1 else 'boxes'} made worse"
        if done.lost:
            extra += (f"; {done.lost} {'level finds' if done.lost == 1 else 'levels find'} no room: "
                      f"the track is full (the Storyteller rules on torpor or Final Death)")
        what = f"{levels} {kind} {'level' if levels == 1 else 'levels'}"
        name = escape(target.key)
        self.report(target, "damage", f"{what} of damage to {target.key}: {after.level}{extra}",
                    f"{name} takes {what} of damage{extra}. Now {track_text(after)}.",
                    f"{escape(self.caller.key)} deals you {what} of damage{extra}. You are now {track_text(after)}.",
                    {"kind": kind, "levels": levels, "upgraded": done.upgraded, "lost": done.lost,
                     "health": {k: after.count(k) for k in KINDS}})


class CmdHeal(HealthCommand):
    """
    Heal health levels: staff heal anyone; a vampire heals with blood.

    Usage:
      +heal <character>=<n> <bashing|lethal|aggravated>    (staff)
      +heal/blood <n> <bashing|lethal>
      +heal/blood <character>=<n> <kind>                   (staff)

    Switches:
      blood - pay for the healing with blood points: 1 a level of Bashing
              or Lethal (as many levels a turn as your Generation lets
              you spend blood); Aggravated costs 5 blood points and a full
              day's rest a level

    Without /blood, staff heal at no cost (time, medicine, a power). With
    /blood, a player heals their own Bashing or Lethal damage. Aggravated
    damage needs the day's rest the game cannot see: staff heal it with
    +heal/blood <character>=<n> aggravated after the rest, and the 5 blood
    points a level come off that character's Blood Pool. The character is
    told, and the change is kept on the roll log.

    Examples:
      +heal/blood 2 lethal
      +heal/blood Anna=1 aggravated
      +heal Anna=3 bashing
    """

    key = "+heal"
    aliases = ["heal"]
    locks = "cmd:all()"
    switch_options = ("blood",)
    usage = "+heal/blood <n> <bashing|lethal>  or (staff) +heal[/blood] <character>=<n> <kind>"

    def run(self):
        caller = self.caller
        staff = is_staff(caller)
        blood = "blood" in self.switches
        if self.rhs is None:
            if not blood:
                raise DiceError("Only staff heal without cost; heal with blood: +heal/blood <n> <bashing|lethal>.")
            target = caller
            if not v20_character.has_sheet(target):
                raise DiceError("Only characters with a sheet can heal.")
            levels, kind = read_levels_and_kind(self.args)
            if kind == v20_health.AGGRAVATED and not staff:
                cost = v20_health.healing_cost(kind, levels)
                raise DiceError(
                    f"Aggravated damage heals at {v20_health.AGGRAVATED_BLOOD} blood points and a full day's rest a "
                    f"level ({cost.blood} blood points and {cost.days} "
                    f"{'day' if cost.days == 1 else 'days'} for {levels}): the Storyteller heals it after the "
                    "rest (staff: +heal/blood <character>=<n> aggravated).")
        else:
            if not staff:
                raise DiceError("Only staff heal another character or heal without cost; "
                                "heal yourself with +heal/blood <n> <bashing|lethal>.")
            levels, kind = read_levels_and_kind(self.rhs)
            target = self.target_sheet(self.lhs)
        before = v20_character.track(target)
        state = v20_character.state(target)
        healed, cost = v20_health.heal(before, kind, levels, per_turn=state.get("blood_per_turn", 1))
        name = "You" if target == caller else escape(target.key)
        what = f"{levels} {kind} {'level' if levels == 1 else 'levels'}"
        spent = ""
        if blood:
            have = state.get("blood_pool", 0)
            if have < cost.blood:
                whose = "you have" if target == caller else f"{name} has"
                raise DiceError(f"Healing {what} takes {cost.blood} blood points and {whose} {have}.")
            target.set_trait(v20_system.BLOOD, have - cost.blood)
            spent = f" with {cost.blood} blood {'point' if cost.blood == 1 else 'points'}"
            if cost.days:
                spent += f" and {cost.days} {'day' if cost.days == 1 else 'days'} of rest"
            elif cost.turns > 1:
                spent += f" over {cost.turns} turns"
            spent += f" (Blood Pool {have - cost.blood} left)"
        v20_character.set_track(target, healed)
        after = v20_character.track(target)
        verb = "heal" if target == caller else "heals"
        mine = f"{name} {verb} {what}{spent}. Now {track_text(after)}."
        theirs = f"{escape(caller.key)} heals you of {what}{spent}. You are now {track_text(after)}."
        self.report(target, "heal", f"{target.key} healed of {what}{spent}: {after.level}", mine, theirs,
                    {"kind": kind, "levels": levels, "blood": cost.blood if blood else 0,
                     "days": cost.days if blood else 0, "health": {k: after.count(k) for k in KINDS}})
