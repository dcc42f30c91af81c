"""Reading the results tables: 13.2 bombardment, 13.4 defensive fire, 13.5 melee (values in data/tables.yaml)."""

from __future__ import annotations

from typing import Any, Mapping


def clamp(value: int) -> int:
    """10.8, 11.3, 12.6: modified rolls below one count as one, above six as six."""
    return max(1, min(6, value))


def _column(columns: list[Mapping[str, Any]], factors: int) -> Mapping[str, Any] | None:
    for column in columns:
        low, high = column["factors"]
        if factors >= low and (high is None or factors <= high):
            return column
    return None


def bombardment_result(tables: Mapping[str, Any], factors: int, die: int) -> int:
    """10.7: step losses for this many bombardment factors and this modified roll (0 = no effect)."""
    column = _column(tables["bombardment"], factors)
    return 0 if column is None else int(column["die"][clamp(die) - 1])


def defensive_fire_result(tables: Mapping[str, Any], factors: int, die: int) -> int:
    """11.4: step losses among one hex of attackers (0 = no effect)."""
    column = _column(tables["defensive_fire"], factors)
    return 0 if column is None else int(column["die"][clamp(die) - 1])


def split_result(text: str) -> tuple[int, int]:
    attacker, defender = text.split("/")
    return int(attacker), int(defender)


def odds(attack: int, defence: int) -> int:
    """12.7: the defender total divided into the attacker total, remainder dropped."""
    return attack // max(defence, 1)


def melee_result(tables: Mapping[str, Any], attack: int, defence: int, die: int | None) -> tuple[int, int, str]:
    """12.7-12.11: (attacker losses, defender losses, how) for these totals and modified roll.

    `how` is `poor-odds` (12.8), `high-odds` (12.9) or the odds column `N:1`. `die` may be None
    for the automatic results (no roll is made for them).
    """
    if attack < defence:
        a, d = split_result(str(tables["poor_odds_result"]))
        return a, d, "poor-odds"
    ratio = odds(attack, defence)
    if ratio > int(tables["max_odds"]):
        a, d = split_result(str(tables["high_odds_result"]))
        return a, d, "high-odds"
    assert die is not None
    a, d = split_result(str(tables["melee"][str(ratio)][clamp(die) - 1]))
    return a, d, f"{ratio}:1"


def automatic(attack: int, defence: int, max_odds: int) -> bool:
    """Whether the melee result needs no die roll (12.8, 12.9)."""
    return attack < defence or odds(attack, defence) > max_odds
