"""`pbem render` and `pbem report` as commands (pbem.render.cli.add_commands)."""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.core import yamlio
from pbem import cli
from pbem.rulesets.fbsm import Fbsm, selfplay
from pbem.testing import view_bytes

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
STATE = next(s for i, s in enumerate(selfplay.games_states(SCENARIO, b"cli")) if i == 10)


@pytest.fixture()
def view_file(tmp_path: Path) -> Path:
    path = tmp_path / "us.yaml"
    path.write_bytes(view_bytes(Fbsm(), STATE, "us", ["us", "german"]))
    return path


def test_commands_are_added_to_a_parser() -> None:
    from pbem.render import cli as render_cli

    parser = argparse.ArgumentParser(prog="pbem")
    render_cli.add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["render", "v.yaml", "--area", "2030-2640", "--out", "m.svg"])
    assert args.handler is render_cli.cmd_render and args.area == "2030-2640"
    args = parser.parse_args(["report", "v.yaml", "--format", "markdown"])
    assert args.handler is render_cli.cmd_report and args.format == "markdown"


def test_render_writes_an_svg(view_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    assert cli.main(["render", str(view_file), "--out", str(out), "--area", "3020-4234"]) == 0
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg")
    assert cli.main(["render", str(view_file)]) == 0
    assert view_file.with_suffix(".svg").exists()


def test_render_png_when_cairosvg_is_there(view_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "map.svg"
    assert cli.main(["render", str(view_file), "--out", str(out), "--png"]) == 0
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_prints(view_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["report", str(view_file), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ") and "## What comes next" in out


def test_a_file_that_is_not_a_view_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("kind: turn\n")
    assert cli.main(["report", str(path)]) == 2
