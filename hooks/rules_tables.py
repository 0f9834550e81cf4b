"""MkDocs hook: fill rules tables and worked-example results from ``rules_core`` at build time.

Two placeholders may appear in any page:

- a line ``<!-- table: NAME -->`` (alone on its line, indented or not) is replaced by a
  markdown table rendered from ``rules_core``'s data and functions;
- ``<!-- value: NAME -->`` anywhere in a line is replaced by one computed figure.

An unknown NAME fails the build with the page and the name. The pages therefore show
exactly the figures the calculators compute: one source of truth. Placeholders inside
fenced code blocks are left alone so that they can be documented.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from mkdocs.exceptions import PluginError

from rules_core import (
    action_options,
    checks,
    damage,
    dice,
    grappling,
    healing,
    initiative,
    injury,
    mitigation,
    movement,
    odds,
    tactics,
    targeting,
    thrown,
    time_checks,
)
from rules_core.tables import table

__all__ = [
    "TABLES",
    "VALUES",
    "on_page_markdown",
    "render_markdown",
    "render_table",
    "render_value",
]

TABLE_LINE = re.compile(r"^(?P<indent>[ \t]*)<!--\s*table:\s*(?P<name>[\w.-]+)\s*-->\s*$")
VALUE_MARK = re.compile(r"<!--\s*value:\s*(?P<name>[\w.-]+)\s*-->")
STRAY_TABLE = re.compile(r"<!--\s*table:")
FENCE = re.compile(r"^[ \t]*(```|~~~)")

# ---------------------------------------------------------------- formatting

_NICE_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 6): "⅙",
    Fraction(1, 10): "⅒",
}
_MINUS = "\u2212"
_TIMES = "\u00d7"
_EN_DASH = "\u2013"


def percent(p: Fraction) -> str:
    """A probability as a percentage with two decimals (``41.67%``); 0 and 1 are exact."""
    if p == 0:
        return "—"
    if p == 1:
        return "100%"
    return f"{float(p) * 100:.2f}%"


def signed(n: int) -> str:
    """An integer with its sign, negatives with a true minus sign (U+2212) rather than a hyphen."""
    if n > 0:
        return f"+{n}"
    return f"{_MINUS}{-n}" if n < 0 else "0"


def fraction_text(f: Fraction) -> str:
    """A fraction as a vulgar-fraction character where one exists (⅓), else ``a/b``."""
    if f.denominator == 1:
        return str(f.numerator)
    return _NICE_FRACTIONS.get(f, f"{f.numerator}/{f.denominator}")


def metres(f: Fraction) -> str:
    """A length in metres without a trailing ``.0`` (``1.5 m``, ``6 m``)."""
    return f"{f.numerator} m" if f.denominator == 1 else f"{float(f):g} m"


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A pipe table; ``align`` gives one letter per column (``l``, ``c``, ``r``), left by default."""
    marks = {"l": "---", "c": ":---:", "r": "---:"}
    spec = align.ljust(len(headers), "l")
    lines = [
        "| " + " | ".join(headers) + " |",
        "| " + " | ".join(marks[a] for a in spec) + " |",
    ]
    for row in rows:
        cells = [str(c).replace("|", "\\|") for c in row]
        if len(cells) != len(headers):
            raise ValueError(f"row {row!r} has {len(cells)} cells for {len(headers)} columns")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _label(snake: str) -> str:
    return snake.replace("_", " ").capitalize()


# ---------------------------------------------------------------- tables


def _difficulty_odds() -> str:
    rows = odds.odds_table(range(3, 17), (0,))
    return markdown_table(
        ["Difficulty", "Name", "2d6", "Adv.", "Disadv."],
        (
            (
                r.difficulty,
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
        ((r.difficulty, percent(r.plain), percent(r.advantage), percent(r.disadvantage)) for r in rows),
        "rrrr",
    )


def _action_types() -> str:
    data = table("action_costs")
    return markdown_table(
        ["Action", "Minor actions", "What it is"],
        ((f"{_label(r['action_type'])} action", r["minor_actions"], r["description"]) for r in data.rows),
        "lcl",
    )


def _movement() -> str:
    data = table("movement")

    def cell(v: int | None) -> str:
        return "NA" if v is None else str(v)

    return markdown_table(
        ["Space", "Action", "Light", "Med/Hvy", "Light, crouched", "Med/Hvy, crouched", "Crawl"],
        (
            (
                metres(r["scale_m"]),
                _label(r["action"]),
                cell(r["light"]),
                cell(r["medium_heavy"]),
                cell(r["light_crouch"]),
                cell(r["medium_heavy_crouch"]),
                cell(r["crawl"]),
            )
            for r in data.rows
        ),
        "llccccc",
    )


def _hit_locations() -> str:
    return markdown_table(
        ["2d6", "Chance", "Difficulty", "Location"],
        (
            (h.roll, percent(h.odds), signed(h.difficulty), h.location + ("\\*" if h.sided else ""))
            for h in targeting.hit_locations()
        ),
        "rrcl",
    )


def _grappling_effects() -> str:
    data = table("grappling")

    def cost(r: Any) -> str:
        if r["effect_cost"] is not None:
            return str(r["effect_cost"])
        basis = {"hp": "HP", "dex": "Dex"}[r["cost_basis"]]
        return f"{fraction_text(r['cost_fraction'])} of {basis}, rounded up"

    def dmg(r: Any) -> str:
        if r["damage"] is None:
            return ""
        return r["damage"] + (" (armor does not count)" if r["ignores_armor"] else "")

    return markdown_table(
        ["Effect", "Target", "Effect needed", "Difficulty", "Damage", "Result"],
        (
            (_label(r["effect"]), r["target"], cost(r), signed(r["difficulty"]), dmg(r), r["outcome"])
            for r in data.rows
        ),
        "llccll",
    )


def _tactics_risk() -> str:
    data = table("tactics_risk")
    return markdown_table(
        ["Chosen difficulty", "Largest Effect (advantage or disadvantage rolls)"],
        ((r["difficulty"], r["max_effect"]) for r in data.rows),
        "cc",
    )


def _targeted_damage() -> str:
    data = table("targeted_effects")
    return markdown_table(
        ["Area hit", "One hit of at least", "Effect"],
        ((r["label"], f"{fraction_text(r['hp_fraction'])} HP", r["effect"].capitalize()) for r in data.rows),
        "lcl",
    )


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
        ["State", "Damage taken", f"With HP {_EXAMPLE_HP}: from"],
        ((r["label"], rule(r), getattr(example, r["condition"])) for r in data.rows),
        "llc",
    )


_ACTIVITY_COLUMNS = (
    ("Moderate activity", healing.Activity.MODERATE, False),
    ("Moderate + care", healing.Activity.MODERATE, True),
    ("Light activity", healing.Activity.LIGHT, False),
    ("Light + care", healing.Activity.LIGHT, True),
    ("Full rest", healing.Activity.FULL_REST, False),
    ("Full rest + care", healing.Activity.FULL_REST, True),
)


def _rate_text(rate: healing.HealingRate) -> str:
    if rate.status == "no_healing":
        return "no healing"
    if rate.status == "immobile":
        return "immobile"
    per = "day" if rate.days == 1 else f"{rate.days} days"
    return f"{_MINUS}{rate.damage} / {per}"


def _healing_rates() -> str:
    labels = {r["condition"]: r["label"] for r in table("injury_thresholds").rows}
    conditions = [c for c in injury.InjuryCondition if c is not injury.InjuryCondition.UNHURT]
    return markdown_table(
        ["State", *(c[0] for c in _ACTIVITY_COLUMNS)],
        (
            (
                labels[cond.value],
                *(
                    _rate_text(healing.healing_rate(cond, act, care=care))
                    for _, act, care in _ACTIVITY_COLUMNS
                ),
            )
            for cond in conditions
        ),
        "lcccccc",
    )


def _care_levels() -> str:
    labels = {r["condition"]: r["label"] for r in table("injury_thresholds").rows}
    data = table("care_levels")
    return markdown_table(
        ["Care level", "For a patient who is", "Counts as (light-care patients)"],
        ((r["label"], labels[r["injury_condition"]].lower(), r["load"]) for r in data.rows),
        "llc",
    )


def _scale() -> str:
    data = table("damage_scale")
    return markdown_table(
        ["Prefix", "Name", "Multiplies by"],
        ((r["prefix"] or "(none)", r["name"], f"{r['factor']:,}") for r in data.rows),
        "llr",
    )


def _movement_compact() -> str:
    rows = [r for r in table("movement").rows if r["scale_m"] == movement.SPACE_METRES]

    def cell(v: int | None) -> str:
        return "NA" if v is None else str(v)

    return markdown_table(
        ["Action", "Light", "Med/Hvy", "Crouch L", "Crouch M/H", "Crawl"],
        (
            (
                _label(r["action"]),
                *(
                    cell(r[k])
                    for k in ("light", "medium_heavy", "light_crouch", "medium_heavy_crouch", "crawl")
                ),
            )
            for r in rows
        ),
        "lccccc",
    )


def _hit_locations_compact() -> str:
    return markdown_table(
        ["2d6", "Location", "Diff"],
        (
            (h.roll, h.location + ("\\*" if h.sided else ""), signed(h.difficulty))
            for h in targeting.hit_locations()
        ),
        "rlc",
    )


def _short_rate(rate: healing.HealingRate) -> str:
    if rate.status != "heals":
        return "—"
    per = "d" if rate.days == 1 else f"{rate.days} d"
    return f"{rate.damage} per {per}"


def _healing_rates_compact() -> str:
    columns = [c for c in _ACTIVITY_COLUMNS if c[1] is not healing.Activity.MODERATE]
    conditions = [c for c in injury.InjuryCondition if c is not injury.InjuryCondition.UNHURT]
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
                _label(cond.value),
                *(_short_rate(healing.healing_rate(cond, act, care=care)) for _, act, care in columns),
            )
            for cond in conditions
        ),
        "lcccc",
    )


def _stance_changes() -> str:
    listed = {(r["from_stance"], r["to_stance"]) for r in table("stance_changes").rows}
    order = list(movement.Stance)
    rows = [
        (
            f"{start.value} → {end.value}",
            movement.stance_change_cost(start, end),
            "listed" if (start.value, end.value) in listed else "through the listed steps",
        )
        for start in order
        for end in order
        if start is not end
    ]
    return markdown_table(["Change", "Minor actions", "Source"], rows, "lcl")


def _characteristic_modifiers() -> str:
    groups: dict[int, list[int]] = {}
    for value in range(0, 18):
        groups.setdefault(checks.characteristic_modifier(value), []).append(value)
    return markdown_table(
        ["Characteristic", *(f"{v[0]}{_EN_DASH}{v[-1]}" for v in groups.values())],
        [["ChM", *(signed(m) for m in groups)]],
        "l" + "c" * len(groups),
    )


def _success_rolls() -> str:
    effects = range(0, 4)
    return markdown_table(
        ["Success effect", *(str(e) for e in effects)],
        [["Damage rolls", *(str(damage.rolls_from_success_effect(e).made) for e in effects)]],
        "lcccc",
    )


def _fail_rolls() -> str:
    effects = range(1, 4)
    return markdown_table(
        ["Fail effect", *(str(e) for e in effects)],
        [
            [
                "Damage rolls against the character",
                *(str(damage.rolls_from_fail_effect(e).made) for e in effects),
            ]
        ],
        "lccc",
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
        plain = f"{expr.count}d{expr.sides}" + (signed(expr.modifier) if expr.modifier else "")
        inner = f"({plain})" if expr.modifier else plain
        return f"{text.replace('-', _MINUS)} = {inner} {_TIMES} {dice.scale_factor(expr.scale):,}"

    return markdown_table(
        ["Damage", "Armor", "Hit points"],
        (
            (
                dmg(d),
                f"{a} = AR {damage.parse_scaled_value(a):,}",
                f"{h} = {damage.parse_scaled_value(h):,} HP",
            )
            for d, a, h in _SCALE_EXAMPLES
        ),
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
        times = "" if multiple == 1 else f"{multiple} {_TIMES} "
        return f"≥ {times}the best physical characteristic"

    return markdown_table(
        ["State", "Damage taken", f"Str {strength}, Dex {dexterity}, End {endurance}: from"],
        ((r["label"], rule(r), getattr(example, r["condition"])) for r in data.rows),
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
"""Table placeholders: name -> function rendering a markdown table from ``rules_core``."""

# ---------------------------------------------------------------- values


def _mitigation_step(name: str) -> Callable[[], str]:
    def value() -> str:
        result = mitigation.mitigate(7, conditions=3, cover=2, skill=2)
        if name == "start":
            return str(result.fail_effect)
        return str(next(s.remaining for s in result.steps if s.name == name))

    return value


def _damage_example(effect: int, expression: str, rate: int | None, armor: int) -> damage.DamageOutcome:
    if effect >= 0:
        return damage.damage_outcome(expression, success_effect=effect, rate_of_attack=rate, armor=armor)
    return damage.damage_outcome(expression, fail_effect=-effect, rate_of_attack=rate, armor=armor)


def _one_decimal(value: Fraction | None) -> str:
    if value is None:
        raise ValueError("the worked example never finishes")
    return f"{float(value):.1f}"


def _whole(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _healing_days() -> str:
    hp = injury.hit_points(7, 8, 9)
    return str(healing.healing_timeline(10, hp, healing.Activity.FULL_REST).days)


VALUES: dict[str, Callable[[], str]] = {
    # Checks
    "chm-of-10": lambda: str(checks.characteristic_modifier(10)),
    "effect-example": lambda: str(checks.effect(9 + 2, 10)),
    "odds-8-plain": lambda: percent(checks.success_chance(0, 8)),
    "odds-8-advantage": lambda: percent(checks.success_chance(0, 8, advantage=1)),
    "odds-8-disadvantage": lambda: percent(checks.success_chance(0, 8, disadvantage=1)),
    # Failure and mitigation
    "fail-effect-example": lambda: str(checks.fail_degree(5, 8)),
    "mitigation-example-start": _mitigation_step("start"),
    "mitigation-example-after-conditions": _mitigation_step("conditions"),
    "mitigation-example-after-cover": _mitigation_step("cover"),
    "mitigation-example-remaining": _mitigation_step("skill"),
    "shield-example-cover": lambda: str(mitigation.mitigate(3, cover=2).cover_absorbed),
    "shield-example-character": lambda: str(mitigation.mitigate(3, cover=2).remaining),
    "costly-success-example": lambda: str(checks.costly_success(-2).fail_degree),
    "defend-skill-example": lambda: str(mitigation.defend_roll_modifier(0, 2, mitigation.Defend.SKILL)),
    # Actions
    "ambush-example": lambda: str(initiative.ambush_initiative(checks.characteristic_modifier(9))),
    "ambush-tactics-example": lambda: str(
        initiative.ambush_initiative(
            checks.characteristic_modifier(9), tactics_bonus=initiative.tactics_initiative_bonus(2)
        )
    ),
    "reckless-example-success-effect": lambda: str(action_options.reckless_action(2).success_effect),
    "reckless-example-harm": lambda: str(action_options.reckless_action(2).fail_degree),
    "reckless-example-big-harm": lambda: str(action_options.reckless_action(4).fail_degree),
    "reckless-example-failure": lambda: str(action_options.reckless_action(-2).fail_degree),
    "time-example-plus-one": lambda: str(time_checks.task_duration(1).units),
    "time-example-zero": lambda: str(time_checks.task_duration(0).units),
    "time-example-minus-one": lambda: str(time_checks.task_duration(-1).units),
    "time-example-minus-three": lambda: str(time_checks.task_duration(-3).units),
    # Attacks
    "grapple-throw-example": lambda: str(grappling.grapple_effect_cost("throw", hp=24)),
    "tactics-example-rolls": lambda: str(tactics.tactics_rolls(5, 10, skill=1).advantage_rolls),
    "tactics-example-attempts": lambda: str(tactics.tactics_attempts(1)),
    "thrown-example-short": lambda: _whole(thrown.thrown_range(7, "0.5").straight_m),
    "thrown-example-short-lobbed": lambda: _whole(thrown.thrown_range(7, "0.5").lobbed_m),
    "thrown-example-long": lambda: _whole(thrown.thrown_range(7, "1.5").straight_m),
    "thrown-example-long-lobbed": lambda: _whole(thrown.thrown_range(7, "1.5").lobbed_m),
    # Movement
    "movement-example-dash": lambda: str(movement.movement("dash", "medium", "crouching").spaces),
    # Damage
    "rifle-example-rolls": lambda: str(_damage_example(2, "3d6-2", 4, 0).rolls.kept),
    "broadsword-example-per-roll": lambda: _damage_example(1, "3d3-2", None, 3).per_roll_text,
    "roa-example-kept": lambda: str(_damage_example(-3, "3d6", 2, 0).rolls.kept),
    "rifle-armor-per-roll": lambda: _damage_example(3, "3d6", 3, 5).per_roll_text,
    "flak-example-per-roll": lambda: _damage_example(-3, "3d3-2", None, 4).per_roll_text,
    "flak-example-expected": lambda: f"{float(_damage_example(-3, '3d3-2', None, 4).expected_total):.2f}",
    # Injury
    "injury-example-hp": lambda: str(injury.hit_points(7, 8, 9)),
    "injury-example-serious": lambda: str(
        injury.injury_thresholds(injury.hit_points(7, 8, 9)).seriously_wounded
    ),
    "injury-example-critical": lambda: str(
        injury.injury_thresholds(injury.hit_points(7, 8, 9)).critically_wounded
    ),
    "wound-penalty-example": lambda: signed(injury.wound_penalty(10)),
    "dying-example-chance": lambda: percent(injury.dying_roll_chance(9, 25)),
    # Healing
    "healing-example-days": _healing_days,
    "first-aid-minimum": lambda: str(healing.first_aid_healing(0)),
    "first-aid-expected-rounds": lambda: _one_decimal(healing.first_aid_duration(0).expected_rounds),
    "surgery-example": lambda: str(healing.surgery_outcome(2, 1, 5).healed),
    "surgery-fail-minutes": lambda: str(healing.surgery_outcome(-4, 1, 5).minutes),
    "surgery-fail-harm": lambda: str(healing.surgery_outcome(-4, 1, 5).harm),
    "care-capacity-example": lambda: str(healing.care_capacity(2)),
}
"""Value placeholders: name -> function returning one figure computed by ``rules_core``."""

# ---------------------------------------------------------------- hook


def _unknown(kind: str, name: str, known: Iterable[str], where: str) -> PluginError:
    return PluginError(f"{where}: unknown {kind} placeholder {name!r} (known: {', '.join(sorted(known))})")


def render_table(name: str, where: str = "page") -> str:
    """The markdown table for placeholder ``name``; ``PluginError`` if unknown."""
    if name not in TABLES:
        raise _unknown("table", name, TABLES, where)
    return TABLES[name]()


def render_value(name: str, where: str = "page") -> str:
    """The figure for placeholder ``name``; ``PluginError`` if unknown."""
    if name not in VALUES:
        raise _unknown("value", name, VALUES, where)
    return VALUES[name]()


def render_markdown(markdown: str, where: str = "page") -> str:
    """Replace every table and value placeholder of a page outside fenced code."""
    out: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        opening = FENCE.match(line)
        if opening:
            marker = opening.group(1)
            fence = marker if fence is None else (None if marker == fence else fence)
            out.append(line)
            continue
        if fence is not None:
            out.append(line)
            continue
        whole = TABLE_LINE.match(line)
        if whole:
            indent = whole.group("indent")
            rendered = render_table(whole.group("name"), where)
            out.extend(indent + row for row in rendered.split("\n"))
            continue
        if STRAY_TABLE.search(line):
            raise PluginError(f"{where}: a table placeholder must stand alone on its line: {line.strip()!r}")
        out.append(VALUE_MARK.sub(lambda m: render_value(m.group("name"), where), line))
    return "\n".join(out)


def on_page_markdown(markdown: str, /, *, page: Any = None, **_: Any) -> str:
    """MkDocs event: fill the page's placeholders before it is converted to HTML."""
    where = getattr(getattr(page, "file", None), "src_uri", "page")
    return render_markdown(markdown, where)
