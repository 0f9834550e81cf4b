"""The action economy and movement: Actions § Action Types, § Movement Table, § Changing Stance."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.actions import (
    ActionType,
    RoundPlan,
    action_cost,
    minor_actions_per_round,
    named_action,
    named_actions,
    plan_round,
    round_seconds,
)
from rules_core.movement import (
    SPACE_METRES,
    DistanceReading,
    Load,
    MoveAction,
    Stance,
    StanceReading,
    dash_athletics_difficulty,
    movement,
    stance_change_cost,
    stealth_movement,
)
from rules_core.tables import table


# Actions § Action Types
@pytest.mark.parametrize(
    ("action_type", "cost"),
    [(ActionType.FREE, 0), (ActionType.MINOR, 1), (ActionType.SIGNIFICANT, 2), ("full", 3)],
)
def test_each_action_type_costs_its_minor_actions(action_type: ActionType | str, cost: int) -> None:
    assert action_cost(action_type) == cost


def test_a_round_is_six_seconds_with_three_minor_actions() -> None:
    assert (round_seconds(), minor_actions_per_round()) == (6, 3)


def test_a_significant_and_a_minor_action_fill_a_round() -> None:
    assert plan_round(["significant", "minor"]) == RoundPlan((ActionType.SIGNIFICANT, ActionType.MINOR), 3, 0)


def test_three_minor_actions_fill_a_round_at_the_loss_of_the_significant_action() -> None:
    """Actions § Minor Actions: up to three minor actions, at the loss of a significant action."""
    assert plan_round(["minor"] * 3).remaining == 0
    with pytest.raises(ValueError, match="need 4 minor actions; a round has 3"):
        plan_round(["minor"] * 4)


def test_free_actions_cost_nothing_beside_a_full_action() -> None:
    assert plan_round([ActionType.FULL, ActionType.FREE, ActionType.FREE]).used == 3


def test_two_significant_actions_do_not_fit_in_a_round() -> None:
    with pytest.raises(ValueError, match="need 4 minor actions"):
        plan_round(["significant", "significant"])


def test_an_empty_round_leaves_three_minor_actions() -> None:
    assert plan_round([]).remaining == 3


def test_an_unknown_action_type_is_rejected_naming_the_types() -> None:
    with pytest.raises(ValueError, match="action type must be one of: free, minor, significant, full"):
        action_cost("bonus")


@pytest.mark.parametrize(
    ("action", "action_type"),
    [
        ("quick_phrase", "free"),
        ("aim", "minor"),
        ("minor_move", "minor"),
        ("quick_scan", "minor"),
        ("dash", "significant"),
        ("defend", "significant"),
        ("attack", "significant"),
        ("use_tactics", "significant"),
        ("run", "full"),
        ("full_skill_action", "full"),
    ],
)
def test_each_named_action_has_the_type_its_list_gives_it(action: str, action_type: str) -> None:
    """Actions § List of Minor Actions, § List of Significant Actions, § List of Full Actions."""
    found = named_action(action)
    assert found.action_type == action_type
    assert found.minor_actions == action_cost(action_type)


def test_the_action_list_names_every_action_once() -> None:
    keys = [a.action for a in named_actions()]
    assert len(keys) == len(set(keys)) == 21


def test_named_actions_plan_a_round() -> None:
    """Actions § Plan/Wait > Common Use: aim (minor) and attack (significant) fill a round."""
    assert plan_round(["aim", "attack", "quick_phrase"]).used == 3
    with pytest.raises(ValueError, match="need 4 minor actions"):
        plan_round(["dash", "attack"])


def test_an_unknown_named_action_is_rejected() -> None:
    with pytest.raises(ValueError, match="Unknown action 'fly'"):
        named_action("fly")
    with pytest.raises(ValueError, match="action type must be one of"):
        plan_round(["fly"])


def test_more_than_fifty_listed_actions_are_rejected() -> None:
    with pytest.raises(ValueError, match="at most 50 actions"):
        plan_round(iter(["free"] * 10**6))


MOVEMENT_TABLE: dict[tuple[str, str], tuple[int | None, ...]] = {
    ("3/2", "move"): (4, 3, 2, 1, None),
    ("3/2", "dash"): (10, 7, 5, 3, 2),
    ("3/2", "run"): (15, 10, 7, 5, 3),
    ("9/2", "move"): (1, 1, None, None, None),
    ("9/2", "dash"): (3, 2, 2, 1, None),
    ("9/2", "run"): (5, 3, 3, 2, 1),
}
"""Actions § Movement Table as printed: spaces by grid scale (1.5 m, 4.5 m) and action, one column each for
:data:`MOVEMENT_COLUMNS` (None: NA)."""

MOVEMENT_COLUMNS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("light",), "standing"),
    (("medium", "heavy"), "standing"),
    (("light",), "crouching"),
    (("medium", "heavy"), "crouching"),
    (("light", "medium", "heavy"), "prone"),
)
"""The table's columns: the loads each holds (medium and heavy share one) and the stance (prone: crawl)."""


@pytest.mark.parametrize(
    ("scale", "action", "load", "stance", "spaces"),
    [
        (scale, action, load, stance, row[column])
        for (scale, action), row in MOVEMENT_TABLE.items()
        for column, (loads, stance) in enumerate(MOVEMENT_COLUMNS)
        for load in loads
    ],
)
def test_the_movement_table_on_one_and_a_half_and_four_and_a_half_metre_spaces(
    scale: str, action: str, load: str, stance: str, spaces: int | None
) -> None:
    result = movement(action, load, stance, scale_m=scale)
    assert result.spaces == spaces
    assert result.metres == (None if spaces is None else spaces * Fraction(scale))


def test_a_light_minor_move_is_six_metres_and_a_medium_one_four_and_a_half() -> None:
    """Actions § List of Minor Actions (Minor Movement): 6 m or 4 spaces, 4.5 m or 3 spaces."""
    assert movement(MoveAction.MOVE).metres == 6
    assert movement(MoveAction.MOVE, Load.MEDIUM).metres == Fraction(9, 2)


def test_a_medium_load_dash_is_ten_and_a_half_metres_by_default_and_ten_as_printed() -> None:
    """Actions § Dash > Movement Rates prints 7 spaces or 10 m; 7 spaces are 10.5 m."""
    assert movement("dash", "medium").metres == Fraction(21, 2)
    assert movement("dash", "medium", reading=DistanceReading.PRINTED).metres == 10


def test_a_light_run_is_twenty_two_and_a_half_metres_either_way() -> None:
    """Actions § Running > Movement Rates: 15 spaces or 22.5 m."""
    assert movement("run").metres == movement("run", reading="printed").metres == Fraction(45, 2)


def test_the_printed_reading_falls_back_to_spaces_off_the_standing_columns() -> None:
    assert movement("dash", "light", "crouching", reading="printed").metres == Fraction(15, 2)
    assert movement("dash", scale_m=Fraction(9, 2), reading="printed").metres == Fraction(27, 2)


def test_crouching_halves_the_standing_figure_rounded_down_on_the_usual_grid() -> None:
    """Actions § Minor Move > Crouching: crouching halves movement."""
    for action in MoveAction:
        for load in Load:
            standing = movement(action, load).spaces
            assert standing is not None
            assert movement(action, load, Stance.CROUCHING).spaces == standing // 2


@pytest.mark.parametrize("scale", ["2", "abc", None, 0])
def test_an_unknown_grid_scale_is_rejected_naming_the_scales(scale: object) -> None:
    with pytest.raises(ValueError, match=r"grid scale must be one of 1.5 m, 4.5 m"):
        movement("move", scale_m=scale)  # type: ignore[arg-type]


def test_an_unknown_load_is_rejected() -> None:
    with pytest.raises(ValueError, match="load must be one of: light, medium, heavy"):
        movement("move", "extreme")


def test_the_usual_space_is_one_and_a_half_metres() -> None:
    assert Fraction(3, 2) == SPACE_METRES
    assert {row["scale_m"] for row in table("movement").rows} == {Fraction(3, 2), Fraction(9, 2)}


def test_minor_stealth_moves_two_spaces_and_deliberate_stealth_four() -> None:
    """Actions § Minor Stealth > Movement (3 m); § Deliberate Stealth > Movement (6 m)."""
    assert stealth_movement(False) * SPACE_METRES == 3
    assert stealth_movement(True) * SPACE_METRES == 6


def test_the_dash_athletics_roll_is_difficulty_eight_plus_conditions() -> None:
    """Actions § Dash > Athletics Roll."""
    assert dash_athletics_difficulty() == 8
    assert dash_athletics_difficulty(2) == 10
    with pytest.raises(ValueError, match="conditions must be between"):
        dash_athletics_difficulty(99)


# Actions § List of Minor Actions (Changing Stance)
@pytest.mark.parametrize(
    ("start", "end", "cost"),
    [
        ("standing", "prone", 1),
        ("standing", "crouching", 1),
        ("prone", "crouching", 2),
        ("crouching", "standing", 1),
        ("prone", "standing", 3),
        ("crouching", "prone", 2),
        ("standing", "standing", 0),
    ],
)
def test_changing_stance_costs_the_listed_minor_actions_or_their_sum(start: str, end: str, cost: int) -> None:
    assert stance_change_cost(start, end) == cost


def test_going_down_costs_one_under_the_down_is_one_reading() -> None:
    assert stance_change_cost(Stance.CROUCHING, Stance.PRONE, StanceReading.DOWN_IS_ONE) == 1
    assert stance_change_cost("prone", "standing", "down_is_one") == 3


def test_an_unknown_stance_is_rejected() -> None:
    with pytest.raises(ValueError, match="stance must be one of: standing, crouching, prone"):
        stance_change_cost("kneeling", "standing")


@given(st.sampled_from(list(MoveAction)), st.sampled_from(list(Load)), st.sampled_from(list(Stance)))
def test_a_lower_stance_or_heavier_load_never_moves_farther(
    action: MoveAction, load: Load, stance: Stance
) -> None:
    def spaces(a: MoveAction, ld: Load, s: Stance) -> int:
        return movement(a, ld, s).spaces or 0

    assert (
        spaces(action, Load.HEAVY, stance)
        <= spaces(action, load, stance)
        <= spaces(action, Load.LIGHT, stance)
    )
    order = list(Stance)
    for lower in order[order.index(stance) :]:
        assert spaces(action, load, lower) <= spaces(action, load, stance)
