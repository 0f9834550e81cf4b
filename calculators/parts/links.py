"""Rule links that more than one calculator cites, each declared once (a link one calculator cites
stays in its module; the check, damage and injury links live in ``parts``, ``check_parts`` and
``damage_parts``)."""

from __future__ import annotations

from calculators import framework as fw

__all__ = [
    "AIM",
    "CAPACITY",
    "COSTLY",
    "COVER_DAMAGE",
    "DYING",
    "EXTENDED",
    "FIRST_AID",
    "INTENSIVE",
    "LEVELS",
    "RECKLESS",
    "SERIOUS",
    "TARGETED_DAMAGE",
]

AIM = fw.RuleLink("Aim", "rules/actions.md#aim")
EXTENDED = fw.RuleLink("Extended actions", "rules/actions.md#extended-actions")
RECKLESS = fw.RuleLink("Reckless action", "rules/actions.md#reckless-action")
COSTLY = fw.RuleLink("Costly success", "rules/mitigation.md#costly-success")
COVER_DAMAGE = fw.RuleLink("Cover takes the damage", "rules/mitigation.md#cover-takes-damage")
TARGETED_DAMAGE = fw.RuleLink("Targeted damage", "rules/damage.md#targeted-damage")
SERIOUS = fw.RuleLink("Seriously wounded", "rules/injury.md#seriously-wounded")
DYING = fw.RuleLink("Dying", "rules/injury.md#dying")
FIRST_AID = fw.RuleLink("First aid", "rules/healing.md#first-aid")
CAPACITY = fw.RuleLink("Care capacity", "rules/healing.md#care-capacity")
LEVELS = fw.RuleLink("Care levels", "rules/healing.md#care-levels")
INTENSIVE = fw.RuleLink("Intensive care", "rules/healing.md#intensive-care")
