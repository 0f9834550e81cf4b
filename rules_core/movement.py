"""Movement: the movement table by action, load, stance and grid scale, and changing stance.

Rules: Actions § Movement Actions, § Movement Table, § Minor Move, § Dash,
§ Running, § List of Minor Actions (Changing Stance) (docs/rules/actions.md).
Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from heapq import heappop, heappush

from rules_core import injury as injury_rules
from rules_core._choices import choice
from rules_core.checks import (
    characteristic_modifier,
    check_modifier,
    competence,
    success_chance,
    within_check_range,
)
from rules_core.tables import constant, table

SPACE_METRES: Fraction = constant("movement_checks", "space_m")
"""The usual grid: each space is 1.5 m (Actions § Movement Actions)."""


class MoveAction(StrEnum):
    """Move is a minor action, Dash a significant action, Run a full action (Actions § Movement Table)."""

    MOVE = "move"
    DASH = "dash"
    RUN = "run"


class Load(StrEnum):
    """Carried load; medium and heavy share one column of the movement table."""

    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class Stance(StrEnum):
    """Standing, crouching, or prone (crawling)."""

    STANDING = "standing"
    CROUCHING = "crouching"
    PRONE = "prone"


class DistanceReading(StrEnum):
    """How to turn spaces into metres where the text prints a different figure (ruling ``dash-metres``).

    ``SPACES`` (default): Spaces times the space size: Dash under medium load is 7 spaces, 10.5 m.
    ``PRINTED``: The metres the text prints beside the spaces where it prints one: 10 m.
    """

    SPACES = "spaces"
    PRINTED = "printed"


class StanceReading(StrEnum):
    """How to cost stance changes the source does not list (ruling ``stance-prone-to-standing``).

    ``LISTED_STEPS`` (default): Go through the listed changes: crouching to prone 2 (via standing), prone
        to standing 3.
    ``DOWN_IS_ONE``: Any change to a lower stance costs 1; going up goes through the listed steps.
    """

    LISTED_STEPS = "listed_steps"
    DOWN_IS_ONE = "down_is_one"


class WoundedRounding(StrEnum):
    """How the seriously wounded 3/4 speed meets the grid (ruling ``wounded-movement``).

    ``DOWN`` (default): Whole spaces: 3/4 of the spaces rounded down, Move 4 becomes 3, Run 15 becomes 11.
    ``EXACT``: 3/4 of the distance as it is: Run 15 spaces becomes 11.25 spaces, 16.875 m.
    """

    DOWN = "down"
    EXACT = "exact"


@dataclass(frozen=True)
class Movement:
    """How far one movement action takes a character: spaces and metres (``None``: not possible)."""

    action: MoveAction
    load: Load
    stance: Stance
    scale_m: Fraction
    spaces: int | Fraction | None
    metres: Fraction | None
    seriously_wounded: bool = False
    immobile: bool = False
    """True when the injury allows no movement at all (critically wounded or dying)."""


def _column(load: Load, stance: Stance) -> str:
    if stance is Stance.PRONE:
        return "crawl"
    heavy = "light" if load is Load.LIGHT else "medium_heavy"
    return f"{heavy}_crouch" if stance is Stance.CROUCHING else heavy


def movement(
    action: MoveAction | str,
    load: Load | str = Load.LIGHT,
    stance: Stance | str = Stance.STANDING,
    *,
    scale_m: Fraction | int | str = SPACE_METRES,
    reading: DistanceReading | str = DistanceReading.SPACES,
    seriously_wounded: bool = False,
    wounded_rounding: WoundedRounding | str = WoundedRounding.DOWN,
    condition: injury_rules.InjuryCondition | str | None = None,
) -> Movement:
    """Spaces and metres of a Move, Dash or Run by load and stance, on 1.5 m or 4.5 m spaces.

    A light-load Move is 4 spaces (6 m), a Dash 10, a Run 15; medium or heavy
    load 3, 7 and 10; crouching roughly halves it; a prone character crawls.
    Actions § Movement Table. A seriously wounded character moves at 3/4 and
    cannot Dash (Outcomes § Seriously Wounded > Movement Effects); the 3/4 is
    rounded down to whole spaces, or kept exact with ``wounded_rounding="exact"``.
    ``condition`` (an injury condition) overrides ``seriously_wounded``: its limit comes from
    :func:`rules_core.injury.movement`, so a critically wounded or dying character does not move at all
    (``immobile``, no spaces).

    Raises:
        ValueError: for an unknown action, load, stance, reading or grid scale.
    """
    act = choice(MoveAction, action, "The movement action")
    carried = choice(Load, load, "The load")
    posture = choice(Stance, stance, "The stance")
    how = choice(DistanceReading, reading, "The distance reading")
    limit = injury_rules.movement(
        injury_rules.InjuryCondition.SERIOUSLY_WOUNDED
        if condition is None and seriously_wounded
        else (injury_rules.InjuryCondition.UNHURT if condition is None else condition)
    )
    rounding = choice(WoundedRounding, wounded_rounding, "The wounded rounding")
    try:
        scale = Fraction(scale_m)
    except (ValueError, TypeError, ZeroDivisionError):
        scale = Fraction(-1)
    rows = [r for r in table("movement").rows if r["action"] == act.value and r["scale_m"] == scale]
    if not rows:
        scales = sorted({float(r["scale_m"]) for r in table("movement").rows})
        raise ValueError(f"The grid scale must be one of {', '.join(f'{s:g} m' for s in scales)}.")
    row = rows[0]
    column = _column(carried, posture)
    spaces: int | None = row[column]
    metres = None if spaces is None else spaces * scale
    if how is DistanceReading.PRINTED and posture is Stance.STANDING:
        printed = row[f"printed_{column}_m"]
        metres = metres if printed is None else printed
    if not limit.factor:
        return Movement(act, carried, posture, scale, None, None, True, immobile=True)
    if limit.factor == 1 or spaces is None or metres is None:
        return Movement(act, carried, posture, scale, spaces, metres, False)
    if act is MoveAction.DASH and not limit.can_dash:
        return Movement(act, carried, posture, scale, None, None, True)
    share = limit.factor
    if rounding is WoundedRounding.EXACT:
        return Movement(act, carried, posture, scale, spaces * share, metres * share, True)
    whole = int(spaces * share)
    return Movement(act, carried, posture, scale, whole, whole * scale, True)


def stealth_movement(deliberate: bool, /) -> int:
    """Spaces (1.5 m) moved while sneaking: 2 with Minor Stealth, 4 with Deliberate Stealth.

    Actions § Minor Stealth > Movement; § Deliberate Stealth > Movement.
    """
    key = "deliberate_stealth_spaces" if deliberate else "minor_stealth_spaces"
    spaces: int = constant("movement_checks", key)
    return spaces


def dash_athletics_difficulty(conditions: int = 0, /) -> int:
    """Difficulty of the Athletics roll for a Dash over obstacles or bad footing: 8 plus conditions.

    Actions § Dash > Athletics Roll.

    Raises:
        ValueError: if the conditions are out of range.
    """
    check_modifier(conditions, "The conditions")
    base: int = constant("movement_checks", "athletics_difficulty")
    return base + conditions


def stance_change_cost(
    start: Stance | str, end: Stance | str, /, reading: StanceReading | str = StanceReading.LISTED_STEPS
) -> int:
    """Minor actions to change stance: standing to prone or crouching 1, prone to crouching 2,
    crouching to standing 1; other changes go through these steps.

    Actions § List of Minor Actions (Changing Stance).

    Raises:
        ValueError: for an unknown stance or reading.
    """
    origin = choice(Stance, start, "The stance")
    target = choice(Stance, end, "The stance")
    how = choice(StanceReading, reading, "The stance reading")
    order = list(Stance)
    if how is StanceReading.DOWN_IS_ONE and order.index(target) > order.index(origin):
        return 1
    edges = [(r["from_stance"], r["to_stance"], r["minor_actions"]) for r in table("stance_changes").rows]
    best = {origin.value: 0}
    queue = [(0, origin.value)]
    while queue:
        cost, here = heappop(queue)
        if here == target.value:
            return cost
        for frm, to, step in edges:
            if frm == here and cost + step < best.get(to, cost + step + 1):
                best[to] = cost + step
                heappush(queue, (cost + step, to))
    raise ValueError(f"No listed change leads from {origin.value} to {target.value}.")  # pragma: no cover


class RunCharacteristic(StrEnum):
    """Which characteristic leads the Run's Athletics roll (ruling ``run-roll``).

    ``BEST`` (default): The higher modifier of End and Dex.
    ``ENDURANCE``: End's modifier, whatever Dex is.
    ``DEXTERITY``: Dex's modifier, whatever End is.
    """

    BEST = "best"
    ENDURANCE = "endurance"
    DEXTERITY = "dexterity"


@dataclass(frozen=True)
class RunRoll:
    """The Athletics roll of a risky Run: what it adds, against what, and its exact chance."""

    characteristic: str
    """``"endurance"`` or ``"dexterity"``: the characteristic whose modifier is added."""
    characteristic_modifier: int
    competence: int
    """Characteristic modifier plus Athletics (or the unskilled penalty)."""
    wound_penalty: int
    modifier: int
    """Everything added to 2d6: competence plus the wound penalty."""
    difficulty: int
    chance: Fraction


def run_roll(
    endurance: int,
    dexterity: int,
    athletics: int | None,
    /,
    conditions: int = 0,
    *,
    damage: int = 0,
    characteristic: RunCharacteristic | str = RunCharacteristic.BEST,
) -> RunRoll:
    """The Athletics roll of a Run through obstacles, hazards or enemy fire.

    2d6 + Athletics (``None``: unskilled, -3) + End's or Dex's modifier (the higher by default) + the wound
    penalty, against the Dash's 8 + conditions. Actions § Running (Roll), § List of Full Actions (Run),
    § Dash (Athletics Roll); Outcomes § Character HP Thresholds. Rulings: the Run roll.

    Raises:
        ValueError: for a negative characteristic, an out-of-range skill, conditions or damage, or an
            unknown characteristic choice.
    """
    how = choice(RunCharacteristic, characteristic, "The Run characteristic")
    end_dm, dex_dm = characteristic_modifier(endurance), characteristic_modifier(dexterity)
    if how is RunCharacteristic.BEST:
        how = RunCharacteristic.ENDURANCE if end_dm >= dex_dm else RunCharacteristic.DEXTERITY
    chm = end_dm if how is RunCharacteristic.ENDURANCE else dex_dm
    skill = competence(chm, athletics)
    penalty = injury_rules.wound_penalty(damage)
    modifier = within_check_range(skill + penalty)
    difficulty = dash_athletics_difficulty(conditions)
    return RunRoll(how.value, chm, skill, penalty, modifier, difficulty, success_chance(modifier, difficulty))
