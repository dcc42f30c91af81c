"""The fast canonical emitter writes exactly the bytes of the reference (pure-Python SafeDumper) path.

`yamlio.dump` takes `_fast_dump` for plain documents and `_reference_dump` (PyYAML's
pure-Python emitter with pbem's representers: the definition of canonical text) for anything
else. These tests compare the two on generated documents full of awkward strings and on every
YAML file of the recorded sample games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.core import yamlio

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

# Strings that trip YAML emitters: indicators, things that resolve to other types in YAML 1.1
# or in pbem's loader, quotes, whitespace at either end, breaks of every kind, non-ASCII.
AWKWARD = [
    "", " ", "  ", " x", "x ", "a b", "a  b", ":", "a:", ":a", "a: b", "a:b", "a :b", "#", "#a", "a #b", "a#b",
    "-", "- ", "-a", "- a", "--", "---", "---a", "...", "...a", "?", "? a", "?a", "a?", ",", "[", "]", "{", "}",
    "[a]", "{a: 1}", "&a", "*a", "!a", "!!str", "|", ">", "'", "''", "'a'", '"', '""', '"a"', "%", "@", "`",
    "a'b", 'a"b', "\\", "a\\b", "\t", "a\tb", "\n", "a\nb", "a\n", "\na", "\r", "a\r\nb", "\x85", "\u2028",
    "\u2029", "\ufeff", "\xa0", "a\xa0", "\x00", "\x07", "\x1b", "\x7f", "\x9f", "é", "ü ñ", "日本語", "😀",
    "\U0010ffff", "\ue000", "\ufffd", "\ufffe", "\ud7ff",
    "null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "no", "NO",
    "on", "Off", "y", "n", "Y", "N", "=", "<<", "0", "1", "-1", "+1", "10", "010", "0x1F", "0o17", "0b101",
    "1_000", "1.5", ".5", "1.", "1e3", "1E3", "-1e-3", ".inf", "-.inf", ".nan", ".NaN", "1:30", "-1:30:00",
    "190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "12345678901234567890",
    "sha256:" + "ab" * 32, "ab" * 32, "A1", "2717", "hex 0101", "x" * 79, "x" * 80, "x " * 40, "y" * 122,
    "y" * 123, "y" * 127, "y" * 128, "z" * 300, "a " * 200 + "b",
]

texts = st.one_of(
    st.sampled_from(AWKWARD),
    st.text(max_size=12),
    st.text(alphabet=st.sampled_from(list(" :#-?'\"\\\t\n\r,[]{}&*!|>%@`.0123456789eE+_abxyé😀\x85\u2028\ufeff")),
            max_size=12),
    st.builds(lambda a, b: a + b, st.sampled_from(AWKWARD), st.sampled_from(AWKWARD)),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=-2**70, max_value=2**70), texts)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(texts, inner, max_size=5)),
    max_leaves=40,
)


def _same(obj: Any) -> None:
    reference = yamlio._reference_dump(obj)
    assert yamlio.dump(obj) == reference
    try:
        fast = yamlio._fast_dump(obj)
    except yamlio._Fallback:
        return
    assert fast == reference


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
@example({"a": [[1, [2, {}]], {"b": []}, [], {}], "c": {"d": {"e": None}}})
@example([[["x"]], {"k": [{"j": [[]]}]}])
@example({"y" * 100: 1, "z" * 101: 2})
def test_fast_dump_is_the_reference_dump(obj: Any) -> None:
    _same(obj)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(texts, scalars, min_size=1, max_size=8))
def test_flat_documents_take_the_fast_path_when_keys_are_plain(obj: dict[str, Any]) -> None:
    _same(obj)
    if all(0 < len(key) <= 100 and "\n" not in key and "\r" not in key and "\x85" not in key
           and "\u2028" not in key and "\u2029" not in key and "\ufeff" not in key for key in obj):
        assert yamlio._fast_dump(obj) == yamlio._reference_dump(obj)


@pytest.mark.parametrize("text", AWKWARD)
def test_every_awkward_string_as_key_and_value(text: str) -> None:
    _same({text: text, "list": [text, {text: [text]}], "nested": {"k": text}})
    _same([text, [text], {"k": text}])


def test_layout_that_falls_back_still_matches() -> None:
    # Scalar documents, empty containers, long keys, tuples, subclasses, deep nesting.
    deep: Any = "leaf"
    for _ in range(yamlio.MAX_DEPTH - 1):
        deep = [deep]
    class Str(str):
        pass
    for obj in ["x", 1, None, True, {}, [], ("a", ("b",)), {"k" * 130: 1}, {"": 1}, {Str("k"): Str("v")}, deep,
                {"t": (1, 2)}]:
        _same(obj)
    too_deep: Any = []
    for _ in range(yamlio.MAX_DEPTH + 1):
        too_deep = [too_deep]
    with pytest.raises(ValueError):
        yamlio.dump(too_deep)
    with pytest.raises(TypeError):
        yamlio.dump({"a": [1.5]})
    with pytest.raises(TypeError):
        yamlio.dump({1: "a"})


def _sample_files() -> list[Path]:
    return sorted(SAMPLES.glob("*/game/**/*.yaml"))


def test_samples_exist() -> None:
    assert len(_sample_files()) > 100


@pytest.mark.parametrize("path", _sample_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_files_dump_the_same(path: Path) -> None:
    data = yamlio.load_file(path).data
    reference = yamlio._reference_dump(data)
    assert yamlio._fast_dump(data) == reference  # every recorded file takes the fast path
    assert yamlio.dump(data) == reference
