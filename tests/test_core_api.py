"""The public core (`pbem.core.api`): inspecting a file without storing it, the read-only archive,
the starting position as a turn, and that a crash in a picture or a report surfaces."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Mapping

import pytest

from pbem.core import api
from pbem.mail.report import map_picture, text_report
from pbem.render import has_map
from pbem.render.adapters import Adapter, Picture, View
from tests.rulesets.duel import Duel
from tests.test_mail_kit import (ADDRESSES, deliver, make_world, maildir_judge, plain_mail, signed_orders,
                                 take_outbox)

ROOT = Path(__file__).resolve().parent.parent / "pbem"


def files_of(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


# --- inspect: what submit would do, nothing stored --------------------------------------------------


def test_inspect_says_who_signed_what_is_stored_and_what_would_be_refused(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    good, good_sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    bad, bad_sig = signed_orders(world, "blue", [{"place": "hq", "cell": 99}])
    for name, data, sig in (("good", good, good_sig), ("bad", bad, bad_sig)):
        (tmp_path / f"{name}.yaml").write_bytes(data)
        (tmp_path / f"{name}.yaml.sig").write_text(sig)
    before = files_of(world.root)

    [seen] = api.inspect(world.root, tmp_path / "good.yaml", now=world.clock)
    assert (seen.signer, seen.stored, seen.refused, seen.checked) == ("red", None, None, True)
    [seen] = api.inspect(world.root, tmp_path / "bad.yaml", now=world.clock)
    assert seen.signer == "blue" and seen.stored is None
    assert isinstance(seen.refused, api.OrdersError) and "cell 99 is off the board" in str(seen.refused)
    [quick] = api.inspect(world.root, tmp_path / "bad.yaml", check=False)
    assert (quick.signer, quick.refused, quick.checked) == ("blue", None, False)
    assert files_of(world.root) == before  # nothing written, not even a receipt

    result = api.submit(world.root, tmp_path / "good.yaml", now=world.clock)
    [receipt] = result.receipts
    [seen] = api.inspect(world.root, tmp_path / "good.yaml", now=world.clock)
    assert seen.stored == api.StoredCopy(receipt.rel, "orders", "red", receipt.hash, receipt.rel)
    assert seen.refused is None  # the same file again: the same receipt, nothing new

    (tmp_path / "forged.yaml").write_bytes(good.replace(b"cell: 2", b"cell: 3"))
    (tmp_path / "forged.yaml.sig").write_text(good_sig)
    [seen] = api.inspect(world.root, tmp_path / "forged.yaml", now=world.clock)
    assert seen.signer is None and seen.stored is None and isinstance(seen.refused, api.SignatureError)


def test_inspect_raises_what_submit_would_say_of_an_unreadable_file(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    (tmp_path / "plain.yaml").write_text("kind: orders\n")
    with pytest.raises(api.SignatureError, match="no signature") as raised:
        api.inspect(world.root, tmp_path / "plain.yaml")
    assert [str(error) for error in api.submit(world.root, tmp_path / "plain.yaml").errors] == [str(raised.value)]


# --- the archive, read only; the starting position as a turn ------------------------------------------


def test_archive_view_lists_and_reads_but_cannot_write(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    view = api.ArchiveView(world.root)
    assert not [name for name in dir(view) if any(word in name for word in ("write", "sweep", "lock", "secret"))]
    assert view.latest_seq() == 0 and view.turn_seqs() == [] and view.orders_files(1) == []
    assert view.views(0) == [("blue", "views/0000/blue.yaml"), ("red", "views/0000/red.yaml")]
    assert view.views(1) == []
    data, signature = view.read_signed(api.view_rel(0, "red"))
    assert data == (world.root / "views/0000/red.yaml").read_bytes()
    assert signature == (world.root / "views/0000/red.yaml.sig").read_bytes()
    with pytest.raises(api.ArchiveError):
        view.read("../keys/referee")
    assert api.referee_folder(world.root) == world.root / ".referee"


def test_turn_record_of_the_start_and_of_a_turn(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    game = api.load_game(world.root)
    start, data = api.turn_record(game, 0)
    assert data is None and start["events"] == [] and start["orders"] == []
    assert start["state"] == api.current_position(game).state
    assert start["next"]["awaiting"] == ["red", "blue"]
    for side, cell in (("red", 2), ("blue", 4)):
        orders, sig = signed_orders(world, side, [{"place": "hq", "cell": cell}])
        (tmp_path / f"{side}.yaml").write_bytes(orders)
        (tmp_path / f"{side}.yaml.sig").write_text(sig)
        assert not api.submit(world.root, tmp_path / f"{side}.yaml", now=world.clock).errors
    report = api.lapse(world.root, world.referee, now=world.clock)  # nothing to lapse: adjudicates as usual
    assert report.committed and report.seq == 1
    assert api.ArchiveView(world.root).views(1) == [("blue", "turns/0001/blue.yaml"), ("red", "turns/0001/red.yaml")]
    turn, data = api.turn_record(game, 1)
    assert data == (world.root / api.turn_rel(1)).read_bytes() and turn["seq"] == 1
    assert api.decisions(game, 1) == {}


# --- pictures and words: no picture is None, a crash is a crash -----------------------------------------


def a_view(tmp_path: Path) -> dict[str, Any]:
    world = make_world(tmp_path)
    data = (world.root / api.view_rel(0, "red")).read_bytes()
    view: dict[str, Any] = api.yamlio.load_bytes(data, "red.yaml").data
    return view


class Broken(Adapter):
    ruleset_id = "duel"

    def picture(self, view: View) -> Picture:
        raise RuntimeError("the adapter drew off the page")

    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        raise RuntimeError("the adapter lost its words")

    def state_lines(self, view: View) -> list[str]:
        raise RuntimeError("the adapter lost its words")


def test_a_ruleset_without_pictures_gets_the_report_and_no_map(tmp_path: Path) -> None:
    view = a_view(tmp_path)
    assert not has_map(view) and map_picture(view, "map") is None
    assert "What comes next:" in text_report(view)


def test_a_crash_in_a_picture_or_a_report_surfaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    view = a_view(tmp_path)
    monkeypatch.setattr(Duel, "picture", lambda self, context: Broken())
    with pytest.raises(RuntimeError, match="drew off the page"):
        map_picture(view, "map")
    with pytest.raises(RuntimeError, match="lost its words"):
        text_report(view)
    monkeypatch.setattr(Duel, "picture", lambda self, context: "not an adapter")
    with pytest.raises(TypeError, match="not a pbem.render.adapters.Adapter"):
        map_picture(view, "map")


def test_the_judge_does_not_swallow_a_crash_in_a_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    maildir_judge(world, maildir).run(once=True)
    take_outbox(maildir)  # the welcomes
    for side, cell in (("red", 2), ("blue", 4)):
        data, sig = signed_orders(world, side, [{"place": "hq", "cell": cell}])
        deliver(maildir, plain_mail(ADDRESSES[side], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    monkeypatch.setattr(Duel, "picture", lambda self, context: Broken())
    with pytest.raises(RuntimeError, match="lost its words|drew off the page"):
        maildir_judge(world, maildir).run(once=True)


# --- one definition each --------------------------------------------------------------------------------


def classes_defined() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(str(path.relative_to(ROOT.parent)))
    return found


def test_game_outcome_and_signed_file_are_each_defined_once() -> None:
    found = classes_defined()
    assert found["Game"] == ["pbem/core/game.py"]
    assert found["Outcome"] == ["pbem/core/adjudicator.py"]
    assert found["SignedFile"] == ["pbem/core/ledger.py"]
    assert "Held" not in found


def test_the_api_exports_what_it_lists() -> None:
    missing = [name for name in api.__all__ if not hasattr(api, name)]
    assert missing == []
    doc = api.__doc__ or ""
    own = [name for name, value in vars(api).items()
           if callable(value) and getattr(value, "__module__", "") == api.__name__ and not name.startswith("_")]
    assert own and [name for name in own if name not in doc] == [], "document every function api.py defines"
    assert [name for name in own if name not in api.__all__] == []


DRAWING = {"text_report", "map_picture", "report_text", "map_svg", "has_map", "report", "render", "picture",
           "write_post", "_results", "_announce", "_tick", "round", "run"}


def test_no_broad_except_around_a_picture_or_a_report() -> None:
    # message.py's handlers read hostile mail (the email package raises anything on broken input) and the
    # judge's one around `intake.handle` logs the bug and answers the sender; none wraps drawing or words.
    wrong = []
    for path in sorted((ROOT / "mail").glob("*.py")) + sorted((ROOT / "render").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Try):
                continue
            broad = [h for h in node.handlers if h.type is None
                     or (isinstance(h.type, ast.Name) and h.type.id in ("Exception", "BaseException"))]
            called = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
                      for statement in node.body for n in ast.walk(statement) if isinstance(n, ast.Call)}
            if broad and called & DRAWING:
                wrong.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} catches {sorted(called & DRAWING)}")
    assert wrong == []


def test_mail_and_render_import_each_other_plainly() -> None:
    # No importlib hooks (an optional module found at run time): mail imports pbem.render like any module.
    found = [str(path.relative_to(ROOT.parent)) for folder in ("mail", "render")
             for path in sorted((ROOT / folder).glob("*.py")) if "importlib" in path.read_text(encoding="utf-8")]
    assert found == []
