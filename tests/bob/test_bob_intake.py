"""A bob orders file with a malformed key, through the real pre-check (`pbem check`): the answer
names the file, line and column, the order and the key probably meant, and changes nothing."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from pbem.cli import main
from pbem.core import yamlio
from pbem.core.players import orders_document, read_view

TURNS = Path(__file__).resolve().parents[2] / "samples" / "bob" / "game" / "turns"


def _operations_view() -> Path:
    """The first recorded American view that asks for an impulse."""
    for folder in sorted(TURNS.iterdir()):
        path = folder / "american.yaml"
        view = read_view(path)
        if view.doc["state"]["phase"] == "operations" and view.doc["state"]["active"] == "american":
            return path
    raise AssertionError("no American operations view in the sample")


def _check(*args: Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["check", *[str(a) for a in args]])
    return code, out.getvalue()


def test_a_misspelt_key_is_named_with_file_line_and_column(tmp_path: Path) -> None:
    view_path = _operations_view()
    view = read_view(view_path)
    unit = sorted(uid for uid, u in view.doc["state"]["units"].items() if u["status"] == "active")[0]
    text = yamlio.dump(orders_document(view, [{"used": unit, "hxe": "0101"}]))
    path = tmp_path / "orders.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "hxe:" in row)
    column = text.splitlines()[line - 1].index("hxe") + 1
    before = path.read_bytes()
    code, said = _check(view_path, path)
    assert code != 0, said
    assert f"{path}:{line}:{column}" in said, said
    assert 'unknown key "hxe" in a used order' in said, said
    assert path.read_bytes() == before


def test_the_same_file_without_the_typo_passes(tmp_path: Path) -> None:
    view_path = _operations_view()
    view = read_view(view_path)
    low = int(view.doc["state"]["setup"]["ops_range"]["american"][0])
    units = sorted(uid for uid, u in view.doc["state"]["units"].items() if u["status"] == "active" and not u["used"]
                   and not u["opfire"])[:max(low, 1)]
    path = tmp_path / "orders.yaml"
    path.write_text(yamlio.dump(orders_document(view, [{"used": uid} for uid in units])), encoding="utf-8")
    code, said = _check(view_path, path)
    assert code == 0, said


def test_a_facing_on_a_squads_move_is_named_with_file_line_column_section_and_what_is_legal(tmp_path: Path) -> None:
    view_path = _operations_view()
    view = read_view(view_path)
    state = view.doc["state"]
    squad = sorted(uid for uid, u in state["units"].items()
                   if u["status"] == "active" and not u["used"] and not u["opfire"] and "facing" not in u
                   and not u["type"].startswith("decoy") and "mortar" not in u["type"])[0]
    text = yamlio.dump(orders_document(view, [{"move": squad, "path": [state["units"][squad]["hex"]], "facing": 2}]))
    path = tmp_path / "orders.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "facing:" in row)
    column = text.splitlines()[line - 1].index("facing: 2") + len("facing: ") + 1  # at the value
    before = path.read_bytes()
    code, said = _check(view_path, path)
    assert code != 0, said
    assert f"{path}:{line}:{column}" in said, said
    assert "has no facing" in said and "V4" in said and "leave `facing` out" in said, said
    assert path.read_bytes() == before
