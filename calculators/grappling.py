"""Grappling: the Difficulty of a grappling roll, its chance, and what its Effect buys and deals.

Rules: Actions § Grappling (Step 1 the action, Step 2 the roll, Step 3 the outcome); Core Mechanics
§ Competence, § Unskilled Penalty. Rulings: the grapple as a melee roll, the adversary's Str or Dex, pistols,
sweep, damage and bind Difficulty, what a fail effect buys, armor against grappling damage and untargeted
damage. All maths is in :mod:`rules_core.grappling` and :mod:`rules_core.checks`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import MINUS, decimal, fraction_text, percent, plural, signed, term
from calculators.format import dice as dice_notation
from calculators.parts import (
    characteristic_input,
    check_chart,
    enum_choices,
    modifier_input,
    roll_input,
    skill_input,
)
from calculators.parts.check_parts import chm_text
from calculators.parts.links import rule
from rules_core import checks, dice, grappling, limits

__all__ = ["CALCULATOR"]


G = grappling.GrappleEffect
EFFECT_NAMES = dict(enum_choices(grappling.GrappleEffect))
MANOEUVRES = (
    ("none", "Nothing declared"),
    *((k, v[:1].upper() + v[1:]) for k, v in EFFECT_NAMES.items()),
)
WEAPONS = enum_choices(grappling.GrappleWeapon)
PISTOL_READINGS = enum_choices(grappling.PistolReading)
SWEEP_READINGS = enum_choices(grappling.SweepReading, difficulty=grappling.manoeuvre_difficulty(G.SWEEP))
ARMOR_READINGS = enum_choices(grappling.UntargetedArmorReading)


def _difficulty(values: Mapping[str, Any]) -> tuple[int, list[fw.Step]]:
    """The grappling Difficulty, factor by factor, each from rules_core."""
    adversary = grappling.adversary_modifier(values["adversary_strength"], values["adversary_dexterity"])
    base = checks.default_difficulty()
    steps = [
        fw.Step(
            f"{chm_text('Adversary Str', values['adversary_strength'])}; "
            f"{chm_text('Dex', values['adversary_dexterity'])}: the higher, {signed(adversary)}, raises the "
            f"Difficulty from {base}.",
            rule("grappling.str_or_dex"),
        )
    ]
    common = {
        "adversary_unskilled": values["adversary_unskilled"],
        "own_weapon": values["own_weapon"],
        "adversary_weapon": values["adversary_weapon"],
        "pistol": values["pistol"],
    }
    before = base + adversary
    with fw.on_field("adversary_strength"):
        plain = grappling.grapple_difficulty(adversary, **common)
    if plain != before:
        steps.append(
            fw.Step(
                f"Unskilled adversary and weapons held: {base + adversary}{term(plain - before)} = {plain}.",
                rule("grappling.pistol")
                if "pistol" in (values["own_weapon"], values["adversary_weapon"])
                else rule("grappling.action"),
            )
        )
    if values["manoeuvre"] == "none":
        return plain, steps
    with fw.on_field("manoeuvre"):
        total = grappling.grapple_difficulty(
            adversary,
            **common,
            manoeuvre=values["manoeuvre"],
            dex=values["adversary_dexterity"],
            sweep=values["sweep"],
        )
    name = EFFECT_NAMES[G(values["manoeuvre"])]
    link = {
        G.SWEEP: rule("grappling.sweep"),
        G.DAMAGE: rule("grappling.manoeuvre"),
        G.BIND: rule("grappling.manoeuvre"),
    }.get(G(values["manoeuvre"]), rule("grappling.grappling"))
    steps.append(fw.Step(f"Declared {name}: {plain}{term(total - plain)} = {total}.", link))
    return total, steps


def _damage_short(found: grappling.GrappleDamage) -> str:
    """The damage as dice with the armor taken off: ``2d3\u22122``, ``1d3``."""
    return dice_notation(
        found.expression.count, found.expression.sides, found.expression.modifier - found.armor
    )


def _damage_text(found: grappling.GrappleDamage) -> str:
    low, high = min(found.distribution), max(found.distribution)
    armor = "armor ignored" if found.ignores_armor else f"less armor {found.armor}, never below 0"
    return (
        f"{found.expression}, {armor}: {low} to {high}, {decimal(dice.mean(found.distribution))} on average"
    )


def _share_text(kind: grappling.GrappleEffect, value: int) -> str:
    """A throw's or a sweep's cost worked out: ``a throw costs ⅙ of 21 HP, rounded up: 4``."""
    basis, share = grappling.cost_share(kind) or ("", 0)
    cost = grappling.grapple_effect_cost(kind, hp=value, dex=value)
    label = "HP" if basis == "hp" else "Dex"
    return f"a {kind.value} costs {fraction_text(share)} of {label} {value}, rounded up: {cost}"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Difficulty, chance, the Effect's purchases, throw and sweep costs and the damage they deal."""
    difficulty, steps = _difficulty(values)
    with fw.on_field("skill"):
        competence = checks.competence(values["modifier"], values["skill"])
    skill = "unskilled" if values["skill"] is None else f"skill {values['skill']}"
    with fw.on_field("modifier"):
        chance = checks.success_chance(
            checks.within_check_range(competence), checks.check_difficulty(difficulty)
        )
    steps.append(
        fw.Step(
            f"Your roll: 2d6 + DM {signed(values['modifier'])} + {skill} = 2d6 {signed(competence)} "
            f"against {difficulty}: {percent(chance)}.",
            rule("competence"),
        )
    )
    hp, dex = values["adversary_hp"], values["adversary_dexterity"]
    throw_cost = grappling.grapple_effect_cost(G.THROW, hp=hp)
    sweep_cost = grappling.grapple_effect_cost(G.SWEEP, dex=dex)
    outputs = {
        "difficulty": str(difficulty),
        "chance": percent(chance),
        "throw_cost": str(throw_cost),
        "sweep_cost": str(sweep_cost),
    }
    throw_text = _share_text(G.THROW, hp)
    steps.append(
        fw.Step(
            f"{throw_text[:1].upper()}{throw_text[1:]}; {_share_text(G.SWEEP, dex)}.",
            rule("grappling.grappling"),
        )
    )
    with fw.on_field("armor"):
        throw = grappling.grapple_damage(G.THROW, armor=values["armor"])
        twist = grappling.grapple_damage(G.DAMAGE, armor=values["armor"], targeted=True)
        body = grappling.grapple_damage(
            G.DAMAGE, armor=values["armor"], untargeted_armor=values["untargeted_armor"]
        )
    outputs |= {
        "throw_damage": _damage_short(throw),
        "twist_damage": _damage_short(twist),
        "body_damage": _damage_short(body),
    }
    steps.append(fw.Step(f"A throw deals {_damage_text(throw)}.", rule("grappling.throw_armor")))
    steps.append(
        fw.Step(f"Damage to a named limb or extremity: {_damage_text(twist)}.", rule("grappling.grappling"))
    )
    steps.append(fw.Step(f"Damage with no limb named: {_damage_text(body)}.", rule("grappling.untargeted")))
    if values["roll"] is not None:
        effect = checks.effect(values["roll"] + competence, difficulty)
        outputs["effect"] = signed(effect)
        advantage, _ = grappling.grapple_next_round(effect >= 0)
        if effect >= 0:
            bought = grappling.affordable_effects(effect, hp=hp, dex=dex)
            outputs["buys"] = plural(len(bought), "effect")
            outputs["next_round"] = "advantage"
            listed = ", ".join(f"{EFFECT_NAMES[k]} ({c})" for k, c in bought) or "none"
            steps.append(
                fw.Step(
                    f"Roll {values['roll']} {signed(competence)} against {difficulty}: Effect "
                    f"{signed(effect)}; {plural(advantage, 'advantage roll')} next round. Within reach, each "
                    f"on its own: {listed}; buy several while their costs add up to {effect} at most.",
                    rule("grappling.grappling"),
                )
            )
        else:
            degree = checks.fail_degree(values["roll"] + competence, difficulty)
            outputs["buys"] = "none"
            outputs["next_round"] = "disadvantage"
            steps.append(
                fw.Step(
                    f"Roll {values['roll']} {signed(competence)} against {difficulty}: failed by {degree}. "
                    "Mitigate it; what is left buys effects against you, instead of damage rolls.",
                    rule("grappling.fail"),
                )
            )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(check_chart(0, 0, values["roll"]),))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The grapple's odds, and what a rolled Effect buys, in one line."""
    text = f"Grappling against {out['difficulty']}: {out['chance']} to succeed"
    if "effect" in out and out["effect"].startswith(MINUS):
        degree = out["effect"].removeprefix(MINUS)
        text += f"; failed: the adversary spends fail effect {degree}, after mitigation, on you"
    elif "effect" in out:
        effect = int(out["effect"])
        bought = grappling.affordable_effects(
            effect, hp=values["adversary_hp"], dex=values["adversary_dexterity"]
        )
        listed = ", ".join(f"{EFFECT_NAMES[k]} ({c})" for k, c in bought) or "nothing"
        text += f"; Effect {out['effect']} buys {listed}"
    return text + "."


CALCULATOR = fw.Calculator(
    title="Grappling",
    summary="The Difficulty and chance of a grapple, what its Effect buys, what a throw or a twist deals.",
    inputs=(
        modifier_input("modifier", "Your Str or Dex DM", 0, help="The characteristic DM of your melee roll."),
        skill_input(
            "skill",
            "Natural Weapons skill",
            help=f"Blank: no unarmed-combat skill (unskilled, {signed(checks.unskilled_penalty())}).",
            default=0,
        ),
        characteristic_input("adversary_strength", "Adversary's Str"),
        characteristic_input("adversary_dexterity", "Adversary's Dex"),
        fw.IntInput(
            "adversary_hp", "Adversary's HP", 21, 1, limits.MAX_HIT_POINTS, help="Sets a throw's cost."
        ),
        fw.IntInput("armor", "Adversary's armor", 0, 0, limits.MAX_ARMOR),
        fw.BoolInput("adversary_unskilled", "Adversary has no unarmed-combat skill"),
        fw.ChoiceInput("own_weapon", "You hold", WEAPONS, grappling.GrappleWeapon.NONE.value),
        fw.ChoiceInput(
            "adversary_weapon", "The adversary holds", WEAPONS, grappling.GrappleWeapon.NONE.value
        ),
        fw.ChoiceInput("manoeuvre", "Manoeuvre declared", MANOEUVRES, "none"),
        roll_input(),
        fw.ChoiceInput("pistol", "A pistol (ruling)", PISTOL_READINGS, grappling.PistolReading.EDGE.value),
        fw.ChoiceInput(
            "sweep", "Sweep Difficulty (ruling)", SWEEP_READINGS, grappling.SweepReading.TWO.value
        ),
        fw.ChoiceInput(
            "untargeted_armor",
            "Armor against damage with no limb named (ruling)",
            ARMOR_READINGS,
            grappling.UntargetedArmorReading.COUNTS.value,
        ),
    ),
    outputs=(
        fw.Output("difficulty", "Difficulty"),
        fw.Output("chance", "Chance to succeed"),
        fw.Output("effect", "Effect"),
        fw.Output("buys", "Within reach"),
        fw.Output("next_round", "Next round"),
        fw.Output("throw_cost", "Throw costs (Effect)"),
        fw.Output("sweep_cost", "Sweep costs (Effect)"),
        fw.Output("throw_damage", "Throw damage"),
        fw.Output("twist_damage", "Twist damage"),
        fw.Output("body_damage", "Damage, no limb named"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.grappling.adversary_modifier",
        "rules_core.grappling.grapple_difficulty",
        "rules_core.grappling.grapple_effect_cost",
        "rules_core.grappling.grapple_damage",
        "rules_core.grappling.affordable_effects",
        "rules_core.grappling.grapple_next_round",
        "rules_core.checks.competence",
        "rules_core.checks.success_chance",
    ),
    rules=(
        rule("grappling.grappling"),
        rule("grappling.action"),
        rule("competence"),
        rule("grappling.opposed"),
        rule("grappling.str_or_dex"),
        rule("grappling.fail"),
    ),
)
