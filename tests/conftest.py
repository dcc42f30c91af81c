"""Shared fixtures: the test-only `duel` ruleset and ready-made games."""

from __future__ import annotations

from pathlib import Path

from pbem.core import ruleset

ruleset.register("duel", "tests.rulesets.duel:Duel")

DUEL_SCENARIO = Path(__file__).parent / "rulesets" / "duel-scenario.yaml"
