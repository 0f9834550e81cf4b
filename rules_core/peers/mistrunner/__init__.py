"""Mistrunner: Combat, as exact rules (seed ``003_a7836b5c3c465969.txt``).

Modules: :mod:`.reaction` (turn order, extra actions, dodging), :mod:`.targets`
(range target numbers and modifiers), :mod:`.damage` (damage code, armor),
:mod:`.body` (body levels, knock-outs, recovery), :mod:`.location` (hit
location, grenade scatter), :mod:`.movement`. The page is
``docs/peers/mistrunner.md``; the seed never says how a skill roll is rolled,
so nothing here rolls one: totals are inputs.
"""

from rules_core.peers.mistrunner.body import (
    WoundState,
    body_point_total,
    life_points_per_level,
    non_lethal_save_chance,
    non_lethal_save_target,
    recovery_days,
    serious_injury_chance,
    wound_state,
)
from rules_core.peers.mistrunner.damage import Armor, HitResult, apply_hit, attack_damage, worn_armor
from rules_core.peers.mistrunner.location import (
    GrenadeScatter,
    HitLocation,
    grenade_scatter,
    hit_location,
    hit_location_chances,
)
from rules_core.peers.mistrunner.movement import move_metres, move_metres_per_second
from rules_core.peers.mistrunner.reaction import (
    ActionSlot,
    Combatant,
    ScheduledAction,
    action_slots,
    dodge_penalty_dice,
    dodged_attack_total,
    may_dodge,
    reaction_result,
    turn_schedule,
)
from rules_core.peers.mistrunner.targets import (
    TargetNumber,
    range_target_number,
    recoil_modifier,
    target_number,
    vehicle_speed_modifier,
)

__all__ = [
    "ActionSlot",
    "Armor",
    "Combatant",
    "GrenadeScatter",
    "HitLocation",
    "HitResult",
    "ScheduledAction",
    "TargetNumber",
    "WoundState",
    "action_slots",
    "apply_hit",
    "attack_damage",
    "body_point_total",
    "dodge_penalty_dice",
    "dodged_attack_total",
    "grenade_scatter",
    "hit_location",
    "hit_location_chances",
    "life_points_per_level",
    "may_dodge",
    "move_metres",
    "move_metres_per_second",
    "non_lethal_save_chance",
    "non_lethal_save_target",
    "range_target_number",
    "reaction_result",
    "recoil_modifier",
    "recovery_days",
    "serious_injury_chance",
    "target_number",
    "turn_schedule",
    "vehicle_speed_modifier",
    "worn_armor",
    "wound_state",
]
