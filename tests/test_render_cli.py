"""`pbem render` and `pbem report` as commands (pbem.render.cli.add_commands)."""

from __future__ import annotations

import argparse
import sys
import types
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


# --- --png and --out: a refused command writes nothing ------------------------------------------------------------


def without_cairosvg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # `import cairosvg` fails, as without the render extra


def fake_cairosvg(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in cairosvg whose PNG is the SVG's length, so the happy path runs on a machine without it."""
    fake = types.ModuleType("cairosvg")
    fake.svg2png = lambda bytestring: b"\x89PNG" + str(len(bytestring)).encode()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cairosvg", fake)


def test_png_without_cairosvg_is_refused_before_the_svg_is_written(view_file: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    without_cairosvg(monkeypatch)
    before = sorted(view_file.parent.iterdir())
    assert cli.main(["render", str(view_file), "--png"]) == 2
    err = capsys.readouterr().err
    assert "cairosvg" in err and "pip install -e '.[render]'" in err
    assert "pbem[render]" not in err  # PyPI's "pbem" is not this clone
    assert sorted(view_file.parent.iterdir()) == before


def test_an_out_naming_a_png_is_refused_with_the_svg_name(view_file: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    fake_cairosvg(monkeypatch)
    before = sorted(tmp_path.iterdir())
    for png in ([], ["--png"]):
        assert cli.main(["render", str(view_file), "--out", str(tmp_path / "map.PNG"), *png]) == 2
        err = capsys.readouterr().err
        assert "--out names the SVG" in err and f"--out {tmp_path / 'map.svg'}" in err
    assert sorted(tmp_path.iterdir()) == before


def test_png_is_written_beside_the_svg_under_its_name(view_file: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    fake_cairosvg(monkeypatch)
    out = tmp_path / "map.svg"
    assert cli.main(["render", str(view_file), "--out", str(out), "--png"]) == 0
    svg = out.read_bytes()
    assert svg.startswith(b"<") and (tmp_path / "map.png").read_bytes() == b"\x89PNG" + str(len(svg)).encode()
    assert capsys.readouterr().out.split() == [str(out), str(tmp_path / "map.png")]


def test_a_bad_area_with_png_writes_nothing(view_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_cairosvg(monkeypatch)
    before = sorted(tmp_path.iterdir())
    assert cli.main(["render", str(view_file), "--png", "--out", str(tmp_path / "m.svg"), "--area", "9990-9999"]) == 2
    assert sorted(tmp_path.iterdir()) == before
