"""`yamlio.load_with_refusals`: a player's pre-check reads past refused plain scalars, and past nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import yamlio


def test_a_refused_scalar_is_read_as_its_text_with_its_problem() -> None:
    data = b'orders:\n- {setup: US02, hex: 0933}\n- {fire: 1.5, at: 2026-01-01}\n'
    doc, problems = yamlio.load_with_refusals(data, "o.yaml")
    assert doc.data == {"orders": [{"setup": "US02", "hex": "0933"}, {"fire": "1.5", "at": "2026-01-01"}]}
    assert [(p.line, p.column, p.path) for p in problems] == [
        (2, 22, ("orders", 0, "hex")), (3, 10, ("orders", 1, "fire")), (3, 19, ("orders", 1, "at"))]
    assert "leading zero" in problems[0].message and "quote it" in problems[0].message
    assert doc.mark(("orders", 0, "hex")) == yamlio.Mark(2, 22)
    with pytest.raises(yamlio.YamlError) as strict:  # what every reader that accepts a file says
        yamlio.load_bytes(data, "o.yaml")
    assert strict.value.problems == problems


def test_a_clean_file_reads_as_load_bytes_reads_it() -> None:
    data = b'orders:\n- {setup: US02, hex: "0933"}\n'
    doc, problems = yamlio.load_with_refusals(data, "o.yaml")
    assert problems == [] and doc.data == yamlio.load_bytes(data, "o.yaml").data


@pytest.mark.parametrize("data", [
    b"a: 1\na: 2\nb: 0933\n",  # a duplicate key beside a refused scalar
    b"a: !!str 0933\n",  # a tag
    b"a: [1, 2\n",  # a syntax error
    b"a: 0933\n---\nb: 1\n",  # two documents
    b"",  # none
    b"a: *nowhere\n",  # an alias to no anchor
])
def test_any_other_problem_is_raised_as_load_bytes_raises_it(data: bytes) -> None:
    with pytest.raises(yamlio.YamlError) as salvaged:
        yamlio.load_with_refusals(data, "o.yaml")
    with pytest.raises(yamlio.YamlError) as strict:
        yamlio.load_bytes(data, "o.yaml")
    assert salvaged.value.problems == strict.value.problems


def test_too_many_refusals_stop_as_load_bytes_stops() -> None:
    data = b"".join(b"k%d: 0%d\n" % (n, n + 1) for n in range(yamlio.MAX_PROBLEMS + 5))
    with pytest.raises(yamlio.YamlError) as salvaged:
        yamlio.load_with_refusals(data, "o.yaml")
    assert "too many problems" in str(salvaged.value)


def test_a_player_s_check_tells_a_refused_value_once_and_every_other_problem(tmp_path: Path) -> None:
    """`players.check_orders`: the refused value is told by YAML's words only (not again by the rules,
    which read it as its text), and the rest of the file is still checked."""
    from pbem.core.players import check_orders, read_view

    sample = Path(__file__).resolve().parent.parent / "samples" / "fbsm" / "game"
    text = (sample / "orders" / "0001" / "us-0001.yaml").read_text(encoding="utf-8")
    text = text.replace('hex: "3726"', "hex: 37.26", 1).replace("setup: HW02", "setup: HW2", 1)
    orders = tmp_path / "orders.yaml"
    orders.write_text(text, encoding="utf-8")
    found = check_orders(read_view(sample / "views" / "0000" / "us.yaml"), orders)
    at_first = [problem for problem in found if problem.path == ("orders", 0, "hex")]
    assert len(at_first) == 1 and "decimal" in at_first[0].message, [str(p) for p in found]
    assert any("HW2" in problem.message and "HW02" in problem.message for problem in found), [str(p) for p in found]
