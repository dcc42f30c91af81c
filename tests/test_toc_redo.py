"""ToC 9.2: a move may be done over only while the opponent has not seen it.

By mail a side's whole movement phase arrives as one signed file, and the opponent sees nothing
of it until the referee adjudicates. So doing a move over needs nobody's permission until then:
the side sends a new file, and the newest accepted one is what is carried out. Once the phase
is adjudicated its result is signed into the archive and no order can move those units back.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import signing, yamlio
from pbem.core.adjudicator import adjudicate
from pbem.core.archive import Archive, turn_rel
from pbem.core.audit import audit
from pbem.core.intake import submit
from pbem.core.players import bot_orders_file
from pbem.core.position import current_position
from pbem.core.game import load_game
from pbem.demo import default_scenario, setup_demo


def test_a_second_orders_file_redoes_the_moves_before_adjudication(tmp_path: Path) -> None:
    game = setup_demo("toc", default_scenario("toc"), tmp_path, say=lambda _: None, seed=b"toc redo")
    while True:
        position = current_position(load_game(game.root))
        if position.awaiting() == ["german"] and position.next()["phase"] == "german-movement":
            break
        assert game.round()
    first = bot_orders_file(game.root, "german", game.players["german"], tmp_path / "first.yaml")
    doc = yamlio.load_file(first).data
    moves = [order for order in doc["orders"] if "move" in order]
    assert len(moves) >= 2, "the bot should move more than one stack"
    dropped, kept = moves[0], moves[1:]
    doc["orders"] = kept
    second = tmp_path / "second.yaml"
    data = yamlio.dump(doc).encode("utf-8")
    second.write_bytes(data)
    namespace = signing.namespace("orders", doc["game"])
    second.with_name("second.yaml.sig").write_text(signing.sign(data, game.players["german"], namespace))
    assert submit(game.root, first).errors == []
    receipt = submit(game.root, second)
    assert receipt.errors == []
    assert "replaces orders/" in str(receipt.receipts[0]) and "german-0001.yaml" in str(receipt.receipts[0])
    report = adjudicate(game.root, game.referee)
    assert report.committed
    turn = yamlio.load_bytes(Archive(game.root).read(turn_rel(report.seq)), "turn").data
    german = next(entry for entry in turn["orders"] if entry["side"] == "german")
    assert german["file"].endswith("german-0002.yaml")
    moved = [event["units"] for event in turn["events"] if event["type"] == "move"]
    assert dropped["move"] not in moved
    assert [order["move"] for order in kept if order["move"] in moved]
    assert audit(game.root) == []
