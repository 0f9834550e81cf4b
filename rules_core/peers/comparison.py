"""One character, three systems: turn order, actions, speed and damage side by side.

Takes one character described in each system's own terms and a shared hit
margin, and returns for Mneme, Mistrunner and Mind's Eye Theatre: when the
character acts, how many actions and attacks a turn gives, how far it can move
per second, and the damage of a hit with that margin.
Rules: docs/peers/comparison.md (each row links the rules it summarises).
The Mneme column calls the Mneme rules themselves (:mod:`rules_core.actions`,
:mod:`rules_core.initiative`, :mod:`rules_core.movement`, :mod:`rules_core.damage`); nothing
here repeats a Mneme figure. Only numbers come back: the calculator writes the words.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core import actions, damage, dice, limits, movement
from rules_core import initiative as mneme_initiative
from rules_core.checks import characteristic_modifier
from rules_core.peers import minds_eye, mistrunner
from rules_core.tables import constant

MAX_MARGIN = 20
"""Hit margins above this are rejected (bounded work)."""
SECONDS_PER_MINUTE = 60
MAX_WEAPON_DICE = 10
"""Damage dice of a compared weapon (the exact average of up to 21 rolls stays quick)."""
MAX_WEAPON_SIDES = 20
"""Sides of a compared weapon's damage die."""
MAX_MNEME_ARMOR = 1000
"""Mneme armor compared (a person's armor, in plain points)."""


def _whole(label: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{label} must be a whole number.")
    if not low <= value <= high:
        raise ValueError(f"{label} must be between {low} and {high}.")


@dataclass(frozen=True)
class DamageDice:
    """A Mneme weapon's damage: ``count`` d ``sides`` + ``bonus`` (3d6-2 is ``DamageDice(3, 6, -2)``)."""

    count: int = 3
    sides: int = 6
    bonus: int = 0

    def __post_init__(self) -> None:
        _whole("The number of damage dice", self.count, 1, MAX_WEAPON_DICE)
        _whole("The sides of a damage die", self.sides, 2, MAX_WEAPON_SIDES)
        _whole("The damage bonus", self.bonus, -100, 100)

    @property
    def expression(self) -> dice.DiceExpression:
        """The same dice as a Mneme dice expression."""
        return dice.DiceExpression(self.count, self.sides, self.bonus)


@dataclass(frozen=True)
class OneCharacter:
    """One fighter written up in each system, plus the margin by which its attack hits.

    ``margin`` is the Mneme Effect and the Mistrunner points over the target
    number; Mind's Eye Theatre only asks whether the challenge was won
    (a margin of 0 or more). A negative margin is a miss everywhere.
    """

    margin: int = 0
    mneme_dexterity: int = 7
    mneme_initiative_skill: int = 0
    mneme_initiative_roll: int = 7
    mneme_heavy_load: bool = False
    mneme_weapon: DamageDice = DamageDice()
    mneme_rate_of_attack: int | None = None
    mneme_armor: int = 0
    mistrunner_reaction_score: int = 2
    mistrunner_reaction_die: int = 6
    mistrunner_coordination: int = 0
    mistrunner_actions: int = 1
    mistrunner_damage_code: int = 2
    mistrunner_melee: bool = False
    mistrunner_strength: int = 0
    mistrunner_armor: int = 0
    met_physical: int = 5
    met_mental: int = 5
    met_celerity_rounds: int = 0
    met_damage_bonus: int = 0
    met_damage_reduction: int = 0
    met_step_metres: Fraction | None = None


@dataclass(frozen=True)
class SystemSummary:
    """One system's answer for the character.

    ``acts_on`` lists the initiative counts or segments the character acts on
    in a turn; ``minor_actions`` and ``attack_cost`` are Mneme's minor actions a round
    and what an attack costs of them (``None`` elsewhere); ``dice_penalties`` are the dice
    each Mistrunner action loses (0 for the first); ``metres_per_turn`` is ``None`` where the
    system gives no metres; ``damage_is_average`` is true where the damage is an exact
    expectation over dice.
    """

    system: str
    seconds_per_turn: int
    initiative: int
    acts_on: tuple[int, ...]
    minor_actions: int | None
    attack_cost: int | None
    dice_penalties: tuple[int, ...]
    attacks_per_turn: int
    metres_per_turn: Fraction | None
    steps_per_turn: int | None
    damage: Fraction
    damage_is_average: bool

    @property
    def attacks_per_minute(self) -> Fraction:
        """Attacks a minute at the full rate."""
        return Fraction(self.attacks_per_turn * SECONDS_PER_MINUTE, self.seconds_per_turn)

    @property
    def metres_per_second(self) -> Fraction | None:
        """Top movement speed, or ``None`` where the system gives no metres."""
        if self.metres_per_turn is None:
            return None
        return self.metres_per_turn / self.seconds_per_turn


@dataclass(frozen=True)
class Comparison:
    """The three summaries, Mneme first."""

    mneme: SystemSummary
    mistrunner: SystemSummary
    minds_eye: SystemSummary

    @property
    def rows(self) -> tuple[SystemSummary, SystemSummary, SystemSummary]:
        """Mneme, Mistrunner, Mind's Eye Theatre."""
        return (self.mneme, self.mistrunner, self.minds_eye)


def mneme_expected_damage(
    margin: int, /, weapon: DamageDice, *, armor: int = 0, rate_of_attack: int | None = None
) -> Fraction:
    """Exact average damage of a Mneme hit with a given Effect.

    One damage roll plus one per point of Effect; with a limited rate of
    attack only the best rolls up to that rate count; armor comes off each
    roll (never below 0, or below 1 when the Effect is 6 or more). A negative
    Effect is a miss (0). Mneme Outcomes § Damage Rolls, § Weapons with Limited
    Rate of Attack, § Armor.

    Raises:
        ValueError: for a margin above :data:`MAX_MARGIN`, negative armor or a rate of attack below 1.
    """
    _whole("The hit margin", margin, -MAX_MARGIN, MAX_MARGIN)
    _whole("Armor", armor, 0, MAX_MNEME_ARMOR)
    if rate_of_attack is not None:
        _whole("The rate of attack", rate_of_attack, 1, MAX_MARGIN + 1)
    if margin < 0:
        return Fraction(0)
    return damage.expected_damage(
        weapon.expression, success_effect=margin, rate_of_attack=rate_of_attack, armor=armor
    )


def _mneme_summary(c: OneCharacter) -> SystemSummary:
    _whole("The Mneme initiative roll", c.mneme_initiative_roll, 2, 12)
    _whole("The Mneme initiative skill", c.mneme_initiative_skill, -3, limits.MAX_SKILL)
    _whole("Mneme Dexterity", c.mneme_dexterity, 0, limits.MAX_CHARACTERISTIC)
    # Actions § Initiative: 2d6 + ChM + skill; an unskilled -3 is a penalty, not a skill level.
    skill = c.mneme_initiative_skill
    initiative = mneme_initiative.initiative(
        c.mneme_initiative_roll, characteristic_modifier(c.mneme_dexterity), max(skill, 0)
    ) + min(skill, 0)
    minors = actions.minor_actions_per_round()
    attack_cost = actions.action_cost(actions.ActionType.SIGNIFICANT)
    load = movement.Load.HEAVY if c.mneme_heavy_load else movement.Load.LIGHT
    minor_move, dash, run = (
        movement.movement(action, load).metres or Fraction(0)
        for action in (movement.MoveAction.MOVE, movement.MoveAction.DASH, movement.MoveAction.RUN)
    )
    metres = max(run, dash + (minors - attack_cost) * minor_move, minors * minor_move)
    return SystemSummary(
        "Mneme",
        actions.round_seconds(),
        initiative,
        (initiative,),
        minors,
        attack_cost,
        (),
        minors // attack_cost,
        metres,
        None,
        mneme_expected_damage(
            c.margin, c.mneme_weapon, armor=c.mneme_armor, rate_of_attack=c.mneme_rate_of_attack
        ),
        True,
    )


def _mistrunner_summary(c: OneCharacter) -> SystemSummary:
    result = mistrunner.reaction_result(c.mistrunner_reaction_die, c.mistrunner_reaction_score)
    slots = mistrunner.action_slots(result, actions=c.mistrunner_actions)
    base = mistrunner.range_target_number("point_blank")
    damage = 0
    if c.margin >= 0:
        raw = mistrunner.attack_damage(
            c.mistrunner_damage_code,
            base + c.margin,
            base,
            strength=c.mistrunner_strength,
            melee=c.mistrunner_melee,
        )
        damage = mistrunner.apply_hit(raw, armor=mistrunner.Armor(c.mistrunner_armor)).life_points_lost
    return SystemSummary(
        "Mistrunner",
        int(constant("mistrunner_constants", "turn_seconds")),
        result,
        tuple(s.segment for s in slots),
        None,
        None,
        tuple(s.dice_penalty for s in slots),
        len(slots),
        Fraction(mistrunner.move_metres(c.mistrunner_coordination, running=True)),
        None,
        Fraction(damage),
        False,
    )


def _minds_eye_summary(c: OneCharacter) -> SystemSummary:
    initiative = minds_eye.initiative(c.met_physical, c.met_mental)
    turn = minds_eye.turn_actions(c.met_celerity_rounds)
    metres = None
    if c.met_step_metres is not None:
        step = Fraction(c.met_step_metres)
        if step <= 0 or step > 10:
            raise ValueError("A step length must be more than 0 and at most 10 metres.")
        metres = step * turn.max_steps
    damage = 0
    if c.margin >= 0:
        damage = minds_eye.hit_damage(bonus=c.met_damage_bonus, reduction=c.met_damage_reduction)
    return SystemSummary(
        "Mind's Eye Theatre",
        turn.seconds,
        initiative,
        (initiative,) * turn.rounds,
        None,
        None,
        (),
        turn.standard_actions,
        metres,
        turn.max_steps,
        Fraction(damage),
        False,
    )


def compare(character: OneCharacter, /) -> Comparison:
    """The character's turn order, actions, speed and hit damage in all three systems.

    Raises:
        ValueError: with a short sentence naming the first bad input.
    """
    _whole("The hit margin", character.margin, -MAX_MARGIN, MAX_MARGIN)
    return Comparison(
        _mneme_summary(character), _mistrunner_summary(character), _minds_eye_summary(character)
    )
