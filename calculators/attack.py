"""One attack, start to finish: roll, Effect, mitigation, damage rolls, armor, the injury odds.

On a success the attacker's weapon rolls damage against the adversary; on a
failure the adversary hits back: the fail effect is mitigated by conditions,
cover and skill, and what is left rolls the adversary's damage against the
character. Rules: Core Mechanics § Dice Roll, § Effect, § Mitigating Factors;
Actions § Attack Basics; Outcomes § Damage Rolls, § Armor, § Injury Conditions.
All maths is in :mod:`rules_core` (checks, mitigation, damage, injury).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import decimal, number, percent, plural, signed, term, two_decimals
from calculators.parts import (
    difficulty_input,
    modifier_input,
    threshold_reading_input,
)
from calculators.parts.damage_parts import (
    DAMAGE_OUTPUTS,
    ROLLED_OUTPUTS,
    chart_points,
    damage_steps,
    dice_input,
    dice_param,
    injury_outputs,
    per_roll_text,
    rate_input,
    rolled_outputs,
    rolls_input,
)
from calculators.parts.injury_parts import state_text
from calculators.parts.links import rule
from calculators.parts.mitigation_parts import (
    FACTOR_RULES,
    MITIGATED_OUTPUTS,
    cap_steps,
    defend_input,
    mitigated_outputs,
    reading_inputs,
)
from rules_core import action_options, aim, checks, damage, injury, limits, mitigation
from rules_core.tables import int_constant

__all__ = ["CALCULATOR"]

AIM_STEP = int_constant("aim", "aim_per_action")
"""The aim an action gains with a weapon that has no Aim modifier of its own (Actions § Aim)."""
AIM_READINGS = parts.enum_choices(aim.AimReading, step=AIM_STEP)
COSTLY_READINGS = parts.enum_choices(
    checks.CostlySuccessReading,
    "short",
    times=int_constant("check_constants", "costly_success_multiplier"),
    added=int_constant("check_constants", "costly_success_addend"),
)
RECKLESS_EFFECT_PENALTY = int_constant("action_options", "reckless_effect_penalty")
RECKLESS_READINGS = parts.enum_choices(
    action_options.RecklessReading, "short", penalty=RECKLESS_EFFECT_PENALTY
)
PAY_CHOICES = (("none", "No"), ("costly", "Costly success"), ("reckless", "Reckless action"))
MAX_AIM_ACTIONS = int_constant("aim", "max_aim_actions")
"""Aim counts for at most this many minor actions (Actions § Aim > Maximum Aim)."""


def _helpers(values: Mapping[str, Any]) -> tuple[int, list[fw.Step]]:
    """The DM with the helpers added: a characteristic's ChM (Core Mechanics § Characteristic Modifier)
    and the Aim actions taken before an attack (Actions § Aim)."""
    modifier, steps = values["modifier"], []
    characteristic, aimed = values["characteristic"], values["aim"] if values["side"] == "attack" else 0
    if characteristic is not None:
        with fw.on_field("characteristic"):
            chm = checks.characteristic_modifier(characteristic)
        steps.append(
            fw.Step(
                f"ChM of {characteristic}: {signed(chm)}, added to the DM {signed(modifier)}.", rule("chm")
            )
        )
        modifier += chm
    if aimed:
        with fw.on_field("weapon_aim"):
            bonus = aim.aim_bonus(aimed, values["weapon_aim"], values["aim_reading"])
        per = (
            f"{signed(AIM_STEP)} each"
            if values["weapon_aim"] is None
            else f"the weapon's {signed(values['weapon_aim'])}"
        )
        steps.append(
            fw.Step(f"Aim, {plural(aimed, 'minor action')} ({per}): {signed(bonus)} DM.", rule("aim")),
        )
        steps.append(
            fw.Step(
                "Aim counts for a ranged attack (thrown too), not a melee blow.", rule("attack.aim_ranged")
            )
        )
        modifier += bonus
    if values["side"] == "attack" and values["pay"] == "reckless":
        bonus = action_options.reckless_roll_modifier()
        steps.append(fw.Step(f"Reckless: {signed(bonus)} DM on the roll.", rule("reckless")))
        modifier += bonus
    if steps:
        with fw.on_field("modifier"):
            checks.check_modifier(modifier, "The DM with ChM, Aim and the reckless bonus")
        steps.append(fw.Step(f"The roll's DM: {signed(modifier)}.", rule("check")))
    return modifier, steps


def _roll_modifier(values: Mapping[str, Any]) -> tuple[int, list[fw.Step]]:
    """The roll's DM: the helpers (ChM, Aim) added; a Defend with skill counts the skill a second time
    (Actions § Defend Action)."""
    modifier, helped = _helpers(values)
    skill = values["skill"]
    if values["defend"] != mitigation.Defend.SKILL or not skill:
        return modifier, helped
    with fw.on_field("skill"):
        dm = checks.check_modifier(
            mitigation.defend_roll_modifier(modifier - skill, skill, mitigation.Defend.SKILL),
            "The roll's DM with the doubled skill",
        )
    text = (
        f"Defending with skill doubles it in the roll too: DM {signed(modifier)} + skill {skill} = "
        f"{signed(dm)}."
    )
    return dm, [*helped, fw.Step(text, rule("defend"))]


def _check(values: Mapping[str, Any], modifier: int) -> tuple[dict[str, str], list[fw.Step], fw.Chart]:
    difficulty = values["difficulty"]
    advantage, disadvantage, roll = values["advantage"], values["disadvantage"], values["roll"]
    with fw.on_field("advantage"):
        net = checks.net_advantage(advantage, disadvantage)
    with fw.on_field("difficulty"):
        chance = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    dice_text = parts.check_dice(net)
    steps = [
        fw.Step(
            f"Roll {dice_text}{term(modifier)} against difficulty {difficulty}: success chance "
            f"{percent(chance)}.",
            rule("check") if net == 0 else rule("advantage"),
        )
    ]
    return {"chance": percent(chance)}, steps, parts.check_chart(advantage, disadvantage, roll)


def _mitigate(
    values: Mapping[str, Any], degree: int, outputs: dict[str, str]
) -> tuple[mitigation.Mitigation, list[fw.Step]]:
    """The adversary's fail effect of ``degree`` mitigated: the rolls left, and the cover's damage when its
    HP are given, into ``outputs``; the steps."""
    with fw.on_field("conditions"):
        result = parts.mitigate(values, degree)
    steps = [fw.Step(f"The adversary hits back with a fail effect of {degree}.", rule("attack.on_failure"))]
    for step in result.steps:
        if step.modifier:
            steps.append(
                fw.Step(
                    f"{step.name.capitalize()} {step.modifier} removes {step.reduced_by}: "
                    f"{step.remaining} left.",
                    FACTOR_RULES[step.name],
                )
            )
    steps[1:1] = cap_steps(values, result)
    if result.cover_absorbed:
        steps.append(fw.Step(f"The cover takes {result.cover_absorbed} attack(s).", rule("cover_damage")))
    if result.ordinary_failure:
        steps.append(
            fw.Step("Nothing left: an ordinary failure, no damage to the character.", rule("ordinary"))
        )
    outputs.update(mitigated_outputs(result))
    if result.cover_absorbed and values["cover_hp"] is not None:
        steps.extend(_cover_damage(values, result.cover_absorbed, outputs))
    return result, steps


def _cover_damage(
    values: Mapping[str, Any], attacks: int, outputs: dict[str, str], side: str = ""
) -> list[fw.Step]:
    """The attacks a cover absorbed, rolled against its AR and HP (Outcomes § Cover Takes Damage).

    ``side`` is ``""`` for your cover (the adversary's damage) or ``"adversary_"`` for the
    adversary's cover (your weapon's damage; the rule "also applies to Adversaries").
    """
    expression = values["damage" if side else "adversary_damage"]
    armor, hp = values[f"{side}cover_armor"], values[f"{side}cover_hp"]
    with fw.on_field(f"{side}cover_hp"):
        hit = damage.protection_damage(expression, attacks, armor=armor, hp=hp)
    outputs[f"{side}cover_damage"] = two_decimals(hit.outcome.expected_total)
    outputs[f"{side}cover_left"] = two_decimals(hit.expected_left)
    outputs[f"{side}cover_broken"] = percent(hit.past_hp)
    whose = "The adversary's cover" if side else "The cover"
    return [
        fw.Step(
            f"{whose} takes {plural(attacks, 'attack')} of {per_roll_text(hit.outcome)}: "
            f"{outputs[f'{side}cover_damage']} damage on average; of its {number(hp)} HP, "
            f"{outputs[f'{side}cover_left']} left on average, {outputs[f'{side}cover_broken']} chance "
            "its damage passes its HP.",
            rule("cover_damage"),
        )
    ]


def _adversary_cover(values: Mapping[str, Any], outputs: dict[str, str]) -> list[fw.Step]:
    """On your success, the damage rolls the adversary's cover cost you go against that cover.

    The cover is in the Difficulty, so without it the Effect, and the damage rolls, would be higher by
    its value (at most 4): those rolls hit the cover (Outcomes § Cover Takes Damage > Application to
    Adversaries; ruling ``#adversary-cover-success``).
    """
    value = values["adversary_cover"]
    if not value:
        return []
    with fw.on_field("adversary_cover"):
        counted = mitigation.defence_modifier("cover", value, mitigation.Defend.NONE, values["cover_cap"])
    outputs["adversary_cover_rolls"] = number(counted)
    steps = [
        fw.Step(
            f"The adversary's cover {number(counted)} is in the Difficulty: without it your Effect would be "
            f"{number(counted)} higher, so {plural(counted, 'damage roll')} of your weapon go against the "
            "cover.",
            rule("attack.adversary_cover"),
        )
    ]
    if values["adversary_cover_hp"] is not None:
        steps.extend(_cover_damage(values, counted, outputs, "adversary_"))
    return steps


def _given_effect(values: Mapping[str, Any]) -> int | None:
    """The Effect the player gave: "Or the Effect" when attacking, "Or failed by N" (Effect -N) when
    attacked; ``None`` when the roll decides."""
    if values.get("side") == "attacked":
        failed_by = values.get("failed_by")
        return None if failed_by is None else -failed_by
    effect: int | None = values.get("effect")
    return effect


def _outcome(values: Mapping[str, Any], modifier: int, steps: list[fw.Step]) -> checks.CheckOutcome | None:
    """The check's outcome from the Effect when given (it wins over the roll), else from the roll."""
    difficulty, roll, given = values["difficulty"], values["roll"], _given_effect(values)
    if given is not None:
        with fw.on_field("effect" if values["side"] == "attack" else "failed_by"):
            outcome = checks.resolve_check(difficulty + given, difficulty)
        used = " (the roll field is not used)" if roll is not None else ""
        steps.append(fw.Step(f"Effect given: {signed(given)}{used}.", rule("effect")))
        return outcome
    if roll is None:
        steps.append(
            fw.Step(
                "Enter the two kept dice, or the Effect, to follow the attack through.", rule("attack.attack")
            )
        )
        return None
    with fw.on_field("roll"):
        outcome = checks.resolve_check(roll + modifier, difficulty)
    steps.append(
        fw.Step(
            f"Effect: roll {number(roll)} {term(modifier)} \u2212 difficulty {number(difficulty)} = "
            f"{signed(outcome.effect)}, a {'success' if outcome.success else 'failure'}.",
            rule("effect"),
        )
    )
    return outcome


def _paid(
    values: Mapping[str, Any], outcome: checks.CheckOutcome, steps: list[fw.Step]
) -> tuple[bool, int, int]:
    """The roll's result after a costly success or a reckless action: (a hit?, its success effect, the fail
    effect suffered). Core Mechanics § Costly Success; Actions § Reckless Action."""
    pay = values["pay"] if values["side"] == "attack" else "none"
    if pay == "costly" and not outcome.success:
        with fw.on_field("pay"):
            paid = checks.costly_success(outcome.effect, values["costly_reading"])
        steps.append(
            fw.Step(
                f"Costly success: the miss by {outcome.fail_degree} becomes a hit with success effect "
                f"{paid.success_effect}, at a fail effect of {paid.fail_degree}.",
                rule("costly"),
            )
        )
        return True, paid.success_effect, paid.fail_degree
    if pay == "costly":
        steps.append(fw.Step("The roll hit: no price to pay.", rule("costly")))
    if pay == "reckless":
        result = action_options.reckless_action(outcome.effect, values["reckless_reading"])
        if result.success:
            harm = f", and a fail effect of {result.fail_degree} as well" if result.fail_degree else ""
            text = f"Reckless success: success effect {result.success_effect}{harm}."
        else:
            text = f"Reckless failure: the fail effect grows to {result.fail_degree}."
        steps.append(fw.Step(text, rule("attack.reckless_ruling")))
        return result.success, result.success_effect, result.fail_degree
    return outcome.success, max(outcome.effect, 0), outcome.fail_degree


def _price(values: Mapping[str, Any], degree: int, outputs: dict[str, str]) -> list[fw.Step]:
    """The fail effect a hit paid for brings: mitigated like any other, then the adversary's damage rolls
    against you (ruling ``costly-success-mitigation``; Outcomes § Damage Rolls)."""
    outputs["price"] = str(degree)
    mitigated, steps = _mitigate(values, degree, outputs)
    steps.insert(
        1,
        fw.Step(
            "The price is an ordinary fail effect: conditions, cover, skill.", rule("attack.costly_mitigated")
        ),
    )
    if mitigated.ordinary_failure:
        return steps
    rate = values["adversary_rate"] or None
    with fw.on_field("adversary_damage"):
        hit = damage.damage_from_effect(
            values["adversary_damage"], -mitigated.remaining, rate_of_attack=rate, armor=values["own_armor"]
        )
    outputs["price_rolls"] = str(hit.rolls.kept)
    outputs["price_damage"] = two_decimals(hit.expected_total)
    steps.append(
        fw.Step(
            f"You take {plural(hit.rolls.kept, 'roll')} of {per_roll_text(hit)}: "
            f"{outputs['price_damage']} damage on average.",
            rule("attack.on_failure"),
        )
    )
    return steps


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The answer in words: hit or miss, the damage rolls and where they go, what the covers take."""
    if "effect" not in out:
        return (
            f"Chance to hit with DM {signed(_roll_modifier(values)[0])} against {values['difficulty']}: "
            f"{out['chance']}. Enter the roll or the Effect to see the damage."
        )
    hit = {"costly success": "Costly hit", "success": "Hit"}.get(out["outcome"], "Miss")
    head = f"{hit} (Effect {out['effect']})"
    if out["target"] == "nobody":
        return f"Defended (Effect {out['effect']}): you take no damage and deal none."
    if out["target"] == "reply":
        return f"{head}: the adversary's fail effect comes at you; follow “what comes at you” to work it out."
    if out["target"] == "adversary":
        text = f"{head}: {_rolls(out)} against the adversary, {_damage(out)}"
        if "adversary_cover_rolls" in out:
            text += f"; their cover takes {out['adversary_cover_rolls']} more"
    elif out["ordinary_failure"] == "yes":
        text = f"{head}: an ordinary failure, no damage to you"
    else:
        text = f"{head}: you take {_rolls(out)}, {_damage(out)}"
    if "price" in out:
        head = "the price" if out["outcome"] == "costly success" else "the harm"
        if out["ordinary_failure"] == "yes":
            text += f"; {head}, a fail effect of {out['price']}, is all mitigated"
        else:
            text += (
                f"; {head}: a fail effect of {out['price']}, {out['remaining']} after mitigation, "
                f"about {decimal(Fraction(out['price_damage']))} damage to you"
            )
    if out.get("cover_absorbs", "0") != "0":
        text += f"; your cover takes {out['cover_absorbs']}"
    return text + "."


def _damage(out: Mapping[str, str]) -> str:
    """The damage in words: exact from the rolls made, else the average as it is (never rounded)."""
    if "taken" in out:
        state = f": {out['state_now']}" if "state_now" in out else ""
        return f"your rolls deal {out['taken']} (largest {out['largest']}){state}"
    return f"about {decimal(Fraction(out['expected']))} damage on average"


def _rolls(out: Mapping[str, str]) -> str:
    kept = "" if out["kept"] == out["rolls"] else f" (the best {out['kept']} count)"
    return f"{plural(int(out['rolls']), 'roll')} of {out['per_roll']}{kept}"


def _param(value: Any) -> str:
    """An input's value as a link writes it (empty for a field left empty)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


_MITIGATION_NAMES = {"damage": "adversary_damage", "rate_of_attack": "adversary_rate"}
"""Mitigation's names for the attacker's dice and rate (it passes them on to the damage calculator)."""


def _reply(values: Mapping[str, Any], out: Mapping[str, str]) -> fw.Handoff:
    """A miss while attacking, handed to the I'm attacked side: the margin, and what this side was given
    that still counts there (the DM and Difficulty, the folded mitigating factors and readings), when set
    away from the form's own default (a default handed on would read as given)."""
    modifier, _ = _roll_modifier(values)
    outcome = _outcome(values, modifier, [])
    assert outcome is not None  # a miss was answered: the roll or the Effect is known
    failed_by = str(_paid(values, outcome, [])[2])  # a reckless failure's grown fail effect included
    defaults = {item.key: item.default for item in CALCULATOR.inputs}
    kept = ("modifier", "difficulty", "concealment", "skill", "defend", "order", "cover_cap", "reading")
    changed = ((key, _param(values[key])) for key in kept if values[key] != defaults[key])
    params = (("side", "attacked"), ("failed_by", failed_by), *changed)
    return fw.Handoff("what comes at you", "calculators/attack.md", params)


def _next(values: Mapping[str, Any], out: Mapping[str, str]) -> tuple[fw.Handoff, ...]:
    """Hand-offs carrying the whole situation as given: the mitigation of the fail effect, the damage
    rolls (dice, rate, armor, HP, damage already taken, the readings, the rolls made) and, when you are hit
    and the rolls are known, your injury state with the exact damage and the largest roll."""
    if out.get("target") == "reply":
        return (_reply(values, out),)
    if out.get("rolls") is None:
        return ()
    side = out["target"] == "adversary"
    # On a hit the rolls are 1 + the success effect (0 when costly, 3 less for a reduced reckless one).
    effect = str(int(out["rolls"]) - 1) if side else str(-int(out["remaining"]))
    hp = values["hp" if side else "own_hp"]
    situation = (
        ("damage", dice_param(values["damage" if side else "adversary_damage"])),
        ("rate_of_attack", str(values["rate_of_attack" if side else "adversary_rate"])),
        ("armor", str(values["armor" if side else "own_armor"])),
        ("hp", _param(hp)),
        ("current_damage", "0" if side else str(values["own_damage"])),
        ("rolled", " ".join(str(v) for v in values["rolled"] or ())),
        ("reading", values["reading"]),
        (parts.BEST_PHYSICAL_KEY, _param(values["best_physical"])),
    )
    carried = tuple((k, v) for k, v in situation if v)
    links = []
    if not side:
        factors = ("conditions", "concealment", "cover", "skill", "defend", "order", "cover_cap")
        mitigation_params = (
            ("fail_effect", str(-int(out["effect"].replace("\u2212", "-")))),
            *((key, str(values[key])) for key in factors),
            *((_MITIGATION_NAMES.get(key, key), text) for key, text in carried),
        )
        links.append(
            fw.Handoff("the mitigation, step by step", "calculators/mitigation.md", mitigation_params)
        )
    if "price" in out:
        factors = ("conditions", "concealment", "cover", "skill", "defend", "order", "cover_cap")
        price_params = (("fail_effect", out["price"]), *((key, str(values[key])) for key in factors))
        links.append(fw.Handoff("the price, step by step", "calculators/mitigation.md", price_params))
    effect_param = ("effect", effect.replace("\u2212", "-").lstrip("+"))
    links.append(
        fw.Handoff(
            "these damage rolls in the damage calculator", "calculators/damage.md", (effect_param, *carried)
        )
    )
    if not side and "taken" in out:
        now = values["own_damage"] + int(out["taken"])
        params = [("damage", str(now)), ("largest_roll", out["largest"])]
        if hp is not None:
            params.append(("hp", str(hp)))
        params.append(("reading", values["reading"]))
        if values["best_physical"] is not None:
            params.append((parts.BEST_PHYSICAL_KEY, str(values["best_physical"])))
        links.append(
            fw.Handoff(
                f"your injury state with {number(now)} damage", "calculators/thresholds.md", tuple(params)
            )
        )
    return tuple(links)


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The check's chance; given a roll or the Effect, its outcome and everything that follows."""
    modifier, defend_steps = _roll_modifier(values)
    outputs, steps, dice_chart = _check(values, modifier)
    steps[:0] = defend_steps
    charts = [dice_chart]
    if (
        _given_effect(values) is not None
    ):  # the Effect is known: the chance of a roll nobody is making is moot
        outputs, steps, charts = {}, list(defend_steps), []
    outcome = _outcome(values, modifier, steps)
    if outcome is None:
        return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
    outputs["effect"] = signed(outcome.effect)
    outputs["outcome"] = "success" if outcome.success else "failure"
    hits, success_effect, fail_degree = _paid(values, outcome, steps)
    if hits and not outcome.success:
        outputs["outcome"] = "costly success"
    if outcome.success and values["defend"] != mitigation.Defend.NONE:
        outputs["target"] = "nobody"
        steps.append(fw.Step("A successful Defend: you take no damage and deal none.", rule("defend")))
        return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
    if hits:
        expression, rate_raw, armor, hp_key, current = (
            values["damage"],
            values["rate_of_attack"],
            values["armor"],
            "hp",
            0,
        )
        effect_for_damage, field = success_effect, "damage"
        outputs["target"] = "adversary"
        steps.append(
            fw.Step("A hit: your weapon rolls damage against the adversary.", rule("attack.on_success"))
        )
        steps.extend(_adversary_cover(values, outputs))
        if fail_degree:
            steps.extend(_price(values, fail_degree, outputs))
    elif values["side"] == "attack":
        # A miss while attacking: the adversary's reply comes at you, but this side of the form holds
        # nothing about it (the I'm attacked fields are hidden): no hidden default decides it; the
        # answer hands the margin to the I'm attacked side instead.
        outputs["target"] = "reply"
        steps.append(
            fw.Step(
                f"A miss: failed by {fail_degree}, the adversary's fail effect comes at you. Work it "
                "out as “I'm attacked” with that margin (your conditions, cover, their damage, your "
                "armor).",
                rule("attack.on_failure"),
            )
        )
        return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
    else:
        mitigated, more = _mitigate(values, fail_degree, outputs)
        steps.extend(more)
        outputs["target"] = "you"
        if mitigated.ordinary_failure:
            return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
        expression, rate_raw, armor, hp_key, current = (
            values["adversary_damage"],
            values["adversary_rate"],
            values["own_armor"],
            "own_hp",
            values["own_damage"],
        )
        effect_for_damage, field = -mitigated.remaining, "adversary_damage"
    rate = rate_raw or None
    with fw.on_field(field):
        hit = damage.damage_from_effect(expression, effect_for_damage, rate_of_attack=rate, armor=armor)
    outputs.update(
        {
            "rolls": str(hit.rolls.made),
            "kept": str(hit.rolls.kept),
            "per_roll": per_roll_text(hit),
            "expected": two_decimals(hit.expected_total),
        }
    )
    steps.extend(damage_steps(hit, effect_for_damage, rate, str(armor)))
    if values["rolled"] is not None:
        with fw.on_field("rolled"):
            more_rolled, rolled_steps = rolled_outputs(hit, values["rolled"])
        outputs.update(more_rolled)
        steps.extend(rolled_steps)
        if not hits:
            outputs["damage_now"] = number(current + int(more_rolled["taken"]))
    hp = values[hp_key]
    if hp is not None:
        if values["reading"] == injury.ThresholdReading.BEST_PHYSICAL and values["best_physical"] is None:
            with fw.on_field("best_physical"):
                raise ValueError("The table reading needs the best physical characteristic.")
        with fw.on_field(hp_key):
            more_out, more_steps = injury_outputs(
                hit, hp, current, injury.ThresholdReading(values["reading"]), values["best_physical"]
            )
        outputs.update({k: v for k, v in more_out.items() if k in _OUTPUT_KEYS})
        steps.extend(more_steps)
        if "taken" in outputs:
            now = current + int(outputs["taken"])
            with fw.on_field("rolled"):
                state = injury.injury_condition(
                    now, hp, reading=values["reading"], best_physical=values["best_physical"]
                )
            outputs["state_now"] = state_text(state)
            whose = "the adversary's" if hits else "your"
            steps.append(
                fw.Step(
                    f"{number(now)} damage in all of {whose} {hp} HP: {outputs['state_now']}.",
                    rule("thresholds"),
                )
            )
    whom = "the adversary" if hits else "the character"
    charts.append(
        fw.Chart(
            key="total",
            caption=f"Chance of each damage total against {whom}",
            x_label="Total damage",
            y_label="Chance",
            points=chart_points(hit.total),
        )
    )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))


def _unused(values: Mapping[str, Any]) -> frozenset[str]:
    """What the answer does not read: the roll once the Effect is given, the other side's way of giving it
    (a mistake there is marked but does not blank the answer)."""
    attacking = frozenset({"effect", "aim", "weapon_aim", "pay"})
    other = frozenset({"failed_by"}) if values.get("side") == "attack" else attacking
    return other | ({"roll"} if _given_effect(values) is not None else frozenset())


OUTPUTS = (
    fw.Output("chance", "Chance of success"),
    fw.Output("effect", "Effect"),
    fw.Output("outcome", "Outcome"),
    fw.Output("price", "Fail effect to pay"),
    *MITIGATED_OUTPUTS,
    fw.Output("cover_damage", "Damage to the cover (average)"),
    fw.Output("cover_left", "Cover HP left (average)"),
    fw.Output("cover_broken", "Cover past its HP"),
    fw.Output("adversary_cover_rolls", "Your rolls on their cover"),
    fw.Output("adversary_cover_damage", "Damage to their cover (average)"),
    fw.Output("adversary_cover_left", "Their cover's HP left (average)"),
    fw.Output("adversary_cover_broken", "Their cover past its HP"),
    fw.Output("target", "Damage goes to"),
    *DAMAGE_OUTPUTS,
    *ROLLED_OUTPUTS,
    fw.Output("price_rolls", "Rolls you take for it"),
    fw.Output("price_damage", "Damage to you (average)"),
    fw.Output("damage_now", "Your damage now"),
    fw.Output("bleeding", "Bleeding"),
)
_OUTPUT_KEYS = frozenset(o.key for o in OUTPUTS)


def _cover_inputs(prefix: str, whose: str, attacks: str) -> tuple[fw.IntInput, fw.OptionalIntInput]:
    """A cover's armor and optional HP, for the rolls it absorbs (Outcomes § Cover Takes Damage)."""
    return (
        fw.IntInput(
            f"{prefix}cover_armor",
            f"{whose} cover's armor",
            0,
            0,
            damage.MAX_ARMOR,
            help="Its AR, in plain points.",
        ),
        fw.OptionalIntInput(
            f"{prefix}cover_hp",
            f"{whose} cover's HP",
            1,
            injury.MAX_HIT_POINTS,
            help=f"Optional: roll {attacks} it absorbs against it.",
        ),
    )


CALCULATOR = fw.Calculator(
    title="One attack, start to finish",
    summary="Roll, Effect, mitigation, damage rolls, armor and the injury odds of one attack.",
    inputs=(
        fw.ChoiceInput(
            "side",
            "The question",
            (("attack", "I attack"), ("attacked", "I'm attacked")),
            "attack",
            help="I'm attacked: your roll failed, the adversary's fail effect comes at you.",
        ),
        modifier_input(
            "modifier",
            "Modifier (DM)",
            0,
            help="Every DM on the roll, your skill counted once (a skill Defend adds it again).",
        ),
        fw.IntInput(
            "aim",
            "Aim (minor actions)",
            0,
            0,
            MAX_AIM_ACTIONS,
            help="Aim actions before this attack: each adds to the DM (Actions, Aim).",
        ),
        fw.OptionalIntInput(
            "weapon_aim",
            "Weapon aim modifier",
            1,
            aim.MAX_WEAPON_AIM,
            help=f"Blank: the weapon has none ({signed(AIM_STEP)} an aim action).",
        ),
        fw.OptionalIntInput(
            "characteristic",
            "Characteristic, for its ChM",
            0,
            limits.MAX_CHARACTERISTIC,
            help="Optional: its ChM is added to the DM (leave empty when the DM has it already).",
            placeholder="in the DM",
        ),
        difficulty_input(
            f"{checks.default_difficulty()} + every condition against your roll, "
            "the adversary's cover included. Range, size, cover: the referee's call."
        ),
        parts.roll_input("Roll (two kept dice)", "The two dice you kept.", "not rolled"),
        parts.optional_modifier_input(
            "effect",
            "Or the Effect",
            help="If you know it: 2 for a success by 2, \u22125 for a failure by 5 (wins over the roll).",
            placeholder="from the roll",
        ),
        fw.ChoiceInput(
            "pay",
            "Pay for it",
            PAY_CHOICES,
            "none",
            help="Costly: a miss hits anyway, at a larger fail effect. "
            f"Reckless: {signed(action_options.reckless_roll_modifier())} DM, "
            f"{RECKLESS_EFFECT_PENALTY} off the Effect.",
        ),
        fw.OptionalIntInput(
            "failed_by",
            "Or failed by",
            1,
            mitigation.MAX_FAIL_EFFECT,
            help="If you know it: 4 for a failure by 4 (Effect \u22124; wins over the roll).",
            placeholder="from the roll",
        ),
        dice_input(
            "damage",
            "Your weapon's damage",
            "3d6",
            "Rolled on a success. No weapon lists in the rules: the referee's dice.",
        ),
        fw.IntInput(
            "armor", "Adversary's armor", 0, 0, damage.MAX_ARMOR, help="In plain points (DAR 2 is 20)."
        ),
        parts.injury_hp_input("hp", "Adversary's HP"),
        parts.factor_input(
            "conditions",
            "Your conditions",
            0,
            "What shields you from a fail effect (range, movement…); not the Difficulty's. "
            "How much: the referee's call.",
        ),
        parts.factor_input("cover", "Your cover", 0, "No cover values in the rules: the referee's call."),
        dice_input(
            "adversary_damage",
            "Adversary's damage",
            "2d6",
            "Rolled against you on a failure: the referee's dice.",
        ),
        fw.IntInput("own_armor", "Your armor", 0, 0, damage.MAX_ARMOR, help="In plain points."),
        parts.injury_hp_input("own_hp", "Your HP"),
        fw.IntInput("own_damage", "Damage you already have", 0, 0, injury.MAX_DAMAGE),
        rolls_input(),
        *parts.advantage_inputs(),
        rate_input("rate_of_attack", "Your rate of attack"),
        fw.IntInput(
            "adversary_cover",
            "Adversary's cover",
            0,
            0,
            mitigation.MAX_MITIGATION,
            help="Already in the Difficulty; on a hit the rolls it costs you go against it.",
        ),
        *_cover_inputs("adversary_", "Their", "your attacks"),
        parts.factor_input("concealment", "Concealment", 0),
        *_cover_inputs("", "Your", "the attacks"),
        parts.factor_input("skill", "Your defensive skill", 0),
        defend_input(),
        rate_input("adversary_rate", "Adversary's rate of attack"),
        parts.best_physical_input("Only for the table reading.", placeholder="optional"),
        *reading_inputs(),
        threshold_reading_input("Injury thresholds (ruling)"),
        fw.ChoiceInput("aim_reading", "Weapon aim modifier counts (ruling)", AIM_READINGS, "per_action"),
        fw.ChoiceInput("costly_reading", "Costly fail effect (ruling)", COSTLY_READINGS, "degree"),
        fw.ChoiceInput("reckless_reading", "Reckless success (ruling)", RECKLESS_READINGS, "full_success"),
    ),
    outputs=OUTPUTS,
    compute=_compute,
    answer=_summary,
    handoffs=_next,
    unused=_unused,
    shown_when={
        **dict.fromkeys(
            ("aim", "weapon_aim", "pay", "effect", "damage", "armor", "hp"), (("side", "attack"),)
        ),
        **dict.fromkeys(("failed_by", "own_hp", "own_damage"), (("side", "attacked"),)),
        # A price paid for a hit (a costly success, a reckless action) is a fail effect coming at you:
        # the fields that mitigate it and roll its damage show for it too.
        **dict.fromkeys(
            ("conditions", "cover", "adversary_damage", "own_armor"),
            (("side", "attacked"), ("pay", "costly"), ("pay", "reckless")),
        ),
    },
    folded=frozenset(
        {
            "characteristic",
            "weapon_aim",
            "advantage",
            "disadvantage",
            "rate_of_attack",
            "adversary_cover",
            "adversary_cover_armor",
            "adversary_cover_hp",
            "concealment",
            "cover_armor",
            "cover_hp",
            "skill",
            "defend",
            "adversary_rate",
            parts.BEST_PHYSICAL_KEY,
        }
    ),
    folded_label="More: ChM, weapon aim, advantage, rates of attack, concealment, skill, Defend, the covers",
    uses=(
        "rules_core.checks.success_chance",
        "rules_core.checks.resolve_check",
        "rules_core.checks.characteristic_modifier",
        "rules_core.aim.aim_bonus",
        "rules_core.checks.costly_success",
        "rules_core.action_options.reckless_action",
        "rules_core.checks.check_distribution",
        "rules_core.mitigation.mitigate",
        "rules_core.damage.damage_from_effect",
        "rules_core.damage.protection_damage",
        "rules_core.damage.injury_chances",
    ),
    rules=(
        rule("attack.attack"),
        rule("attack.on_success"),
        rule("attack.on_failure"),
        rule("effect"),
        rule("damage_rolls"),
        rule("thresholds"),
        rule("aim"),
        rule("chm"),
        rule("costly"),
        rule("reckless"),
    ),
)
