"""The rules tables of the rules pages, rendered from ``rules_core``'s data and functions.

``TABLES`` maps a name (the ``<!-- table: NAME -->`` marker) to a function returning a
markdown pipe table. Every figure is written by :mod:`calculators.format`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calculators.format import EMPTY, MINUS, fraction_text, metres, number, percent, signed
from calculators.format import dice as dice_notation
from rules_core import checks, damage, dice, healing, injury, movement, odds, targeting
from rules_core.tables import table
from sitebuild.reference.markdown import label, markdown_table, stacked_table, wide_and_narrow

__all__ = ["TABLES"]

_TIMES = "\u00d7"
_EN_DASH = "\u2013"


def _thousands(value: int) -> str:
    """A large whole number with thousands separators: ``1,000``."""
    return number(value) if abs(value) < 1000 else f"{value:,}".replace("-", MINUS)


def _count_or_na(value: int | None) -> str:
    """A movement count, ``NA`` where the table says it cannot be done."""
    return "NA" if value is None else number(value)


# ---------------------------------------------------------------- checks


def _difficulty_odds() -> str:
    rows = odds.odds_table(range(3, 17), (0,))
    return markdown_table(
        ["Difficulty", "Name", "2d6", "Adv.", "Disadv."],
        (
            (
                number(r.difficulty),
                r.label or "",
                percent(r.plain),
                percent(r.advantage),
                percent(r.disadvantage),
            )
            for r in rows
        ),
        "rlrrr",
    )


def _difficulty_odds_compact() -> str:
    rows = odds.odds_table(range(3, 13), (0,))
    return markdown_table(
        ["Diff", "2d6", "Adv", "Dis"],
        (
            (number(r.difficulty), percent(r.plain), percent(r.advantage), percent(r.disadvantage))
            for r in rows
        ),
        "rrrr",
    )


def _characteristic_modifiers() -> str:
    groups: dict[int, list[int]] = {}
    for value in range(0, 18):
        groups.setdefault(checks.characteristic_modifier(value), []).append(value)
    return markdown_table(
        ["Characteristic", *(f"{number(v[0])}{_EN_DASH}{number(v[-1])}" for v in groups.values())],
        [["ChM", *(signed(m) for m in groups)]],
        "l" + "c" * len(groups),
    )


# ---------------------------------------------------------------- actions and movement


def _action_types() -> str:
    data = table("action_costs")
    return markdown_table(
        ["Action", "Minor actions", "What it is"],
        (
            (f"{label(r['action_type'])} action", number(r["minor_actions"]), r["description"])
            for r in data.rows
        ),
        "lcl",
    )


_MOVEMENT_KEYS = ("light", "medium_heavy", "light_crouch", "medium_heavy_crouch", "crawl")


def _movement() -> str:
    """Spaces by action, load and stance; on a phone the space size joins the action (one column fewer)."""
    rows = [
        (metres(r["scale_m"]), label(r["action"]), *map(_count_or_na, (r[k] for k in _MOVEMENT_KEYS)))
        for r in table("movement").rows
    ]
    wide = markdown_table(
        ["Space", "Action", "Light", "Med/Hvy", "Light, crouched", "Med/Hvy, crouched", "Crawl"],
        rows,
        "llccccc",
    )
    narrow = markdown_table(
        ["Action", "Light", "Med/ Hvy", "Crouch, light", "Crouch, med/ hvy", "Crawl"],
        ((f"{action}, {space}", *counts) for space, action, *counts in rows),
        "lccccc",
    )
    return wide_and_narrow(wide, narrow)


def _movement_compact() -> str:
    rows = [r for r in table("movement").rows if r["scale_m"] == movement.SPACE_METRES]
    return markdown_table(
        ["Action", "Light", "Med/Hvy", "Crouch L", "Crouch M/H", "Crawl"],
        ((label(r["action"]), *(_count_or_na(r[k]) for k in _MOVEMENT_KEYS)) for r in rows),
        "lccccc",
    )


def _stance_changes() -> str:
    listed = {(r["from_stance"], r["to_stance"]) for r in table("stance_changes").rows}
    order = list(movement.Stance)
    rows = [
        (
            f"{start.value} → {end.value}",
            number(movement.stance_change_cost(start, end)),
            "listed" if (start.value, end.value) in listed else "through the listed steps",
        )
        for start in order
        for end in order
        if start is not end
    ]
    return markdown_table(["Change", "Minor actions", "Source"], rows, "lcl")


# ---------------------------------------------------------------- attacks


def _hit_locations() -> str:
    return markdown_table(
        ["2d6", "Chance", "Difficulty", "Location"],
        (
            (number(h.roll), percent(h.odds), signed(h.difficulty), h.location + ("\\*" if h.sided else ""))
            for h in targeting.hit_locations()
        ),
        "rrcl",
    )


def _hit_locations_compact() -> str:
    return markdown_table(
        ["2d6", "Location", "Diff"],
        (
            (number(h.roll), h.location + ("\\*" if h.sided else ""), signed(h.difficulty))
            for h in targeting.hit_locations()
        ),
        "rlc",
    )


def _grappling_effects() -> str:
    data = table("grappling")

    def cost(r: Any) -> str:
        if r["effect_cost"] is not None:
            return number(r["effect_cost"])
        basis = {"hp": "HP", "dex": "Dex"}[r["cost_basis"]]
        return f"{fraction_text(r['cost_fraction'])} of {basis}, rounded up"

    def dmg(r: Any) -> str:
        if r["damage"] is None:
            return ""
        text: str = r["damage"]
        return text + (" (armor does not count)" if r["ignores_armor"] else "")

    headers = ["Effect", "Target", "Effect needed", "Difficulty", "Damage", "Result"]
    rows = [
        (label(r["effect"]), r["target"], cost(r), signed(r["difficulty"]), dmg(r), r["outcome"])
        for r in data.rows
    ]
    return wide_and_narrow(markdown_table(headers, rows, "llccll"), stacked_table(headers, rows))


def _tactics_risk() -> str:
    data = table("tactics_risk")
    return markdown_table(
        ["Chosen difficulty", "Largest Effect (advantage or disadvantage rolls)"],
        ((number(r["difficulty"]), number(r["max_effect"])) for r in data.rows),
        "cc",
    )


# ---------------------------------------------------------------- damage


def _success_rolls() -> str:
    effects = range(0, 4)
    return markdown_table(
        ["Success effect", *(number(e) for e in effects)],
        [["Damage rolls", *(number(damage.rolls_from_success_effect(e).made) for e in effects)]],
        "lcccc",
    )


def _fail_rolls() -> str:
    effects = range(1, 4)
    return markdown_table(
        ["Fail effect", *(number(e) for e in effects)],
        [
            [
                "Damage rolls against the character",
                *(number(damage.rolls_from_fail_effect(e).made) for e in effects),
            ]
        ],
        "lccc",
    )


def _scale() -> str:
    data = table("damage_scale")
    return markdown_table(
        ["Prefix", "Name", "Multiplies by"],
        ((r["prefix"] or "(none)", r["name"], _thousands(r["factor"])) for r in data.rows),
        "llr",
    )


_SCALE_EXAMPLES = (
    ("D 3d3", "DAR 2", "20 DHP"),
    ("H 2d6-2", "HAR 9", "3 HHP"),
    ("K 5d6-4", "KAR 3", "67 KHP"),
)
"""The notation examples of Outcomes § Damage Scale, § Armor Scale and § Hit Point Scale."""


def _scale_examples() -> str:
    def dmg(text: str) -> str:
        expr = dice.parse_dice(text)
        plain = dice_notation(expr.count, expr.sides, expr.modifier)
        inner = f"({plain})" if expr.modifier else plain
        written = f"{expr.scale} {plain}" if expr.scale else plain
        return f"{written} = {inner} {_TIMES} {_thousands(dice.scale_factor(expr.scale))}"

    def armor(text: str) -> str:
        return f"{text} = AR {_thousands(damage.parse_scaled_value(text))}"

    def hp(text: str) -> str:
        return f"{text} = {_thousands(damage.parse_scaled_value(text))} HP"

    return markdown_table(
        ["Damage", "Armor", "Hit points"],
        ((dmg(d), armor(a), hp(h)) for d, a, h in _SCALE_EXAMPLES),
    )


def _targeted_damage() -> str:
    data = table("targeted_effects")
    return markdown_table(
        ["Area hit", "One hit of at least", "Effect"],
        ((r["label"], f"{fraction_text(r['hp_fraction'])} HP", r["effect"].capitalize()) for r in data.rows),
        "lcl",
    )


# ---------------------------------------------------------------- injury

_EXAMPLE_HP = 24


def _injury_thresholds() -> str:
    data = table("injury_thresholds")
    example = injury.injury_thresholds(_EXAMPLE_HP)

    def rule(r: Any) -> str:
        if r["hp_fraction"] is None:
            return "any damage"
        sign = "≥" if r["comparison"] == "at_least" else ">"
        of = "HP" if r["hp_fraction"] == 1 else f"{fraction_text(r['hp_fraction'])} HP, rounded down"
        return f"{sign} {of}"

    return markdown_table(
        ["State", "Damage taken", f"With HP {number(_EXAMPLE_HP)}: from"],
        ((r["label"], rule(r), number(getattr(example, r["condition"]))) for r in data.rows),
        "llc",
    )


def _injury_thresholds_characteristics() -> str:
    data = table("injury_thresholds")
    strength, dexterity, endurance = 7, 8, 9
    best = max(strength, dexterity, endurance)
    example = injury.injury_thresholds(
        injury.hit_points(strength, dexterity, endurance),
        reading=injury.ThresholdReading.BEST_PHYSICAL,
        best_physical=best,
    )

    def rule(r: Any) -> str:
        if r["condition"] == "dying":
            return "> HP"
        multiple = r["best_physical_multiple"]
        if multiple is None:
            return "any damage"
        times = "" if multiple == 1 else f"{number(multiple)} {_TIMES} "
        return f"≥ {times}the best physical characteristic"

    return markdown_table(
        [
            "State",
            "Damage taken",
            f"Str {number(strength)}, Dex {number(dexterity)}, End {number(endurance)}: from",
        ],
        ((r["label"], rule(r), number(getattr(example, r["condition"]))) for r in data.rows),
        "llc",
    )


# ---------------------------------------------------------------- healing

_ACTIVITY_COLUMNS = (
    ("Moderate activity", healing.Activity.MODERATE, False),
    ("Moderate + care", healing.Activity.MODERATE, True),
    ("Light activity", healing.Activity.LIGHT, False),
    ("Light + care", healing.Activity.LIGHT, True),
    ("Full rest", healing.Activity.FULL_REST, False),
    ("Full rest + care", healing.Activity.FULL_REST, True),
)


def _injured_conditions() -> list[injury.InjuryCondition]:
    return [c for c in injury.InjuryCondition if c is not injury.InjuryCondition.UNHURT]


def _rate_text(rate: healing.HealingRate) -> str:
    if rate.status == "no_healing":
        return "no healing"
    if rate.status == "immobile":
        return "immobile"
    per = "day" if rate.days == 1 else f"{number(rate.days)} days"
    return f"{number(-rate.damage)} / {per}"


def _healing_rates() -> str:
    """States down, activities across; on a phone the same figures transposed (activities down)."""
    labels = {r["condition"]: r["label"] for r in table("injury_thresholds").rows}
    states = _injured_conditions()
    rates = {
        (cond, name): _rate_text(healing.healing_rate(cond, act, care=care))
        for cond in states
        for name, act, care in _ACTIVITY_COLUMNS
    }
    names = [c[0] for c in _ACTIVITY_COLUMNS]
    wide = markdown_table(
        ["State", *names],
        ((labels[cond.value], *(rates[cond, name] for name in names)) for cond in states),
        "l" + "c" * len(names),
    )
    narrow = markdown_table(
        ["Activity", *(labels[cond.value] for cond in states)],
        ((name, *(rates[cond, name] for cond in states)) for name in names),
        "l" + "c" * len(states),
    )
    return wide_and_narrow(wide, narrow)


def _short_rate(rate: healing.HealingRate) -> str:
    if rate.status != "heals":
        return EMPTY
    per = "d" if rate.days == 1 else f"{number(rate.days)} d"
    return f"{number(rate.damage)} per {per}"


def _healing_rates_compact() -> str:
    columns = [c for c in _ACTIVITY_COLUMNS if c[1] is not healing.Activity.MODERATE]
    short = {
        "Light activity": "Light",
        "Light + care": "+ care",
        "Full rest": "Rest",
        "Full rest + care": "+ care",
    }
    return markdown_table(
        ["State", *(short[c[0]] for c in columns)],
        (
            (
                label(cond.value),
                *(_short_rate(healing.healing_rate(cond, act, care=care)) for _, act, care in columns),
            )
            for cond in _injured_conditions()
        ),
        "lcccc",
    )


def _care_levels() -> str:
    labels = {r["condition"]: r["label"] for r in table("injury_thresholds").rows}
    data = table("care_levels")
    return markdown_table(
        ["Care level", "For a patient who is", "Counts as (light-care patients)"],
        ((r["label"], labels[r["injury_condition"]].lower(), number(r["load"])) for r in data.rows),
        "llc",
    )


TABLES: dict[str, Callable[[], str]] = {
    "action-types": _action_types,
    "care-levels": _care_levels,
    "characteristic-modifiers": _characteristic_modifiers,
    "difficulty-odds": _difficulty_odds,
    "difficulty-odds-compact": _difficulty_odds_compact,
    "fail-rolls": _fail_rolls,
    "grappling-effects": _grappling_effects,
    "healing-rates": _healing_rates,
    "healing-rates-compact": _healing_rates_compact,
    "hit-locations": _hit_locations,
    "hit-locations-compact": _hit_locations_compact,
    "injury-thresholds": _injury_thresholds,
    "injury-thresholds-characteristics": _injury_thresholds_characteristics,
    "movement": _movement,
    "movement-compact": _movement_compact,
    "scale": _scale,
    "scale-examples": _scale_examples,
    "stance-changes": _stance_changes,
    "success-rolls": _success_rolls,
    "tactics-risk": _tactics_risk,
    "targeted-damage": _targeted_damage,
}
"""Table markers: name -> function rendering a markdown table from ``rules_core``."""
