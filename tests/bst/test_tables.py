"""The tables (docs/bst.md, "Tables"): every assumed value is named on the page, and a
scenario's overrides reach the rules."""

from __future__ import annotations

from pathlib import Path

from pbem.rulesets.bst.tables import TABLES, Tables

DOC = (Path(__file__).resolve().parents[2] / "docs" / "bst.md").read_text(encoding="utf-8")


def test_every_assumed_value_is_on_the_page() -> None:
    missing = []
    for path, value, _ in TABLES.assumed():
        parts = path.split(".")
        named = parts[-1] if parts[0] != "weapons" else parts[1]
        if parts[0] == "weapons":
            label = {"smg": "SMG", "rifles": "rifles", "auto-rifle": "auto rifle", "bar": "B.A.R.",
                     "lmg-magazine": "LMG (magazine)", "lmg-belt": "LMG (belt)", "hmg": "HMG",
                     "tank-mg": "tank MG (V4)", "crew-rifles": "crew rifles (W1)"}[named]
            row = next((line for line in DOC.splitlines() if line.startswith(f"| {label} |")), "")
            if str(value) not in row:
                missing.append(f"{path} = {value}")
        elif named not in DOC:
            missing.append(path)
    assert missing == []


def test_a_scenario_overrides_a_value_and_keeps_the_rest() -> None:
    tables = Tables.load({"weapons": {"rifles": {"long": 1}}, "short_range": 250})
    assert tables.weapon("rifles").long == 1 and tables.weapon("rifles").short == 3
    assert tables.number("short_range") == 250 and tables.number("contact") == 30
