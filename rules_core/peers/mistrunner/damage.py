"""Mistrunner damage: damage code x margin, strength, head hits, armor and its wear, non-lethal blows.

Rules: Mistrunner: Combat § Calculating Damage, § Applying Damage, § Non-Lethal Combat
(docs/peers/mistrunner.md#damage).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.peers.mistrunner._figures import MAX_SCORE, check_score, figure
from rules_core.tables import table


@dataclass(frozen=True)
class Armor:
    """Worn or natural armor and its current Armor Value (AV). Natural armor never wears."""

    value: int = 0
    natural: bool = False

    def __post_init__(self) -> None:
        check_score("The armor value", self.value, minimum=0)


@dataclass(frozen=True)
class HitResult:
    """One hit worked through in order: location, armor, non-lethal halving.

    ``life_points_lost`` is lethal damage; ``non_lethal_damage`` is the halved
    damage of a blow declared non-lethal (exactly one of them is non-zero, or neither).
    """

    damage: int
    location: str
    after_location: int
    absorbed: int
    armor_after: Armor
    life_points_lost: int
    non_lethal_damage: int


def attack_damage(
    damage_code: int, attack_total: int, target_number: int, /, *, strength: int = 0, melee: bool = False
) -> int:
    """Damage before armor: the code once for meeting the target number, once more per point above.

    Melee and unarmed attacks add the strength score (a low one subtracts);
    the result never goes below 0. A total below the target number misses and
    deals 0. Mistrunner: Combat § Calculating Damage (code 2 deals 2 on the
    target number, 2 more per point above).

    Raises:
        ValueError: for a negative damage code or absurd figures.
    """
    check_score("The damage code", damage_code, minimum=0)
    check_score("The attack total", attack_total, minimum=0)
    check_score("The target number", target_number)
    check_score("Strength", strength)
    margin = attack_total - target_number
    if margin < 0:
        return 0
    damage = damage_code * (margin + 1) + (strength if melee else 0)
    return max(0, damage)


def worn_armor(armor: Armor, damage: int, /) -> Armor:
    """Armor after a hit: it loses 1 AV when a hit makes it absorb its full value; natural armor never wears.

    Mistrunner: Combat § Calculating Damage (an AV6 vest taking 6 becomes AV5).
    """
    check_score("Damage", damage, minimum=0, maximum=MAX_SCORE * MAX_SCORE)
    if armor.natural or armor.value == 0 or damage < armor.value:
        return armor
    return Armor(armor.value - figure("armor_wear_per_full_hit"), armor.natural)


def apply_hit(
    damage: int, /, *, location: str = "abdomen", armor: Armor | None = None, non_lethal: bool = False
) -> HitResult:
    """Work one hit through: double a head hit, subtract (and wear) armor, halve a non-lethal blow.

    Head wounds are doubled before armor. Non-lethal damage is halved after
    armor, rounded down (see notes/rulings-peers.md, "Halving non-lethal damage").
    Mistrunner: Combat § Calculating Damage, § Applying Damage, § Non-Lethal Combat.

    Raises:
        ValueError: for negative damage or an unknown location key.
    """
    check_score("Damage", damage, minimum=0, maximum=MAX_SCORE * MAX_SCORE)
    keys = table("mistrunner_hit_locations").column("key")
    if location not in keys:
        raise ValueError(f"Location must be one of {', '.join(keys)}.")
    armor = armor or Armor()
    multiplier: int = table("mistrunner_hit_locations").find(key=location)["damage_multiplier"]
    after_location = damage * multiplier
    absorbed = min(armor.value, after_location)
    through = after_location - absorbed
    if non_lethal:
        lethal, stun = 0, through // figure("non_lethal_divisor")
    else:
        lethal, stun = through, 0
    return HitResult(
        damage, location, after_location, absorbed, worn_armor(armor, after_location), lethal, stun
    )
