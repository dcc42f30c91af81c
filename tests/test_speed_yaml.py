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
from pbem.core.errors import YamlError

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


# --- files shipped inside pbem: `yamlio.load_packaged` reads what the strict loader reads ------------------

PACKAGE_ROOT = Path(yamlio.__file__).resolve().parent.parent


def _typed(value: Any) -> Any:
    """`value` with every scalar paired with its exact type, so True and 1 (or "1" and 1) never compare equal."""
    if type(value) is dict:
        return ("dict", [(key, type(key).__name__, _typed(item)) for key, item in value.items()])
    if type(value) is list:
        return ("list", [_typed(item) for item in value])
    return (type(value).__name__, value)


def _reading(read: Any, data: bytes) -> Any:
    """What a loader gives: the data (typed), or its error's text."""
    try:
        return _typed(read(data))
    except YamlError as error:
        return ("error", str(error))


def _strict(data: bytes) -> Any:
    return yamlio.load_bytes(data, "f.yaml").data


def _packaged(data: bytes) -> Any:
    return yamlio.load_packaged(data, "f.yaml")


def _packaged_files() -> list[Path]:
    return sorted(PACKAGE_ROOT.glob("**/*.yaml"))


def test_every_ruleset_ships_yaml_files() -> None:
    found = {path.relative_to(PACKAGE_ROOT).parts[1] for path in _packaged_files() if path.parts[-4:-3] == ("rulesets",)}
    assert {"fbsm", "toc", "bob", "bst", "wtj1916"} <= found


@pytest.mark.parametrize("path", _packaged_files(), ids=lambda p: str(p.relative_to(PACKAGE_ROOT)))
def test_every_packaged_file_reads_as_the_strict_loader_reads_it(path: Path) -> None:
    data = path.read_bytes()
    strict = _typed(_strict(data))
    assert _typed(yamlio.load_plain(data)) == strict  # the quick way, not its fallback
    assert _typed(_packaged(data)) == strict
    package = ".".join(path.relative_to(PACKAGE_ROOT.parent).parent.parts)
    assert yamlio.read_packaged(package, path.name) == data
    from pbem.rulesets.kit.tables import packaged_yaml

    assert _typed(packaged_yaml(package, path.name)) == strict


# Documents the quick way must leave to the strict loader (or read exactly as it does).
CORNERS = [
    "a: 1", "a: '1'", 'a: "1"', "a: 1.5", "a: .5", "a: 1e3", "a: .inf", "a: 2001-12-14", "a: 1:30", "a: 010",
    "a: 0x1F", "a: 1_000", "a: yes", "a: ~", "a:", "a: null", "a: True", "a: FALSE", "a: [1, '2', x, ~, true]",
    "1: a", "'1': a", "true: a", "null: a", "~: a", ": a", "? [a]\n: b", "? {a: 1}\n: b", "a: 1\na: 2",
    "a: {b: 1, b: 2}", "'a': 1\na: 2", "<<: {a: 1}", "a: <<", "a: !!str 1", "a: !foo x", "!!map {a: 1}",
    "a: &x 1\nb: *x", "a: &x [1]\nb: *x", "a: *x", "&x a: 1", "a: 1\n---\nb: 2", "---\na: 1\n...\n", "",
    "# only a comment", "a", "- a\n- b", "[1, [2, [3]]]", "'x'", "|\n  text\n", "a: |\n  one\n  two\n",
    "a: >\n  folded\n  text\n", 'a: "\\ud800"', 'a: "\\t"', 'a: "x\\\\y"', "a: 'it''s'", "\ufeffa: 1",
    "a: b: c", "a: [1, 2", "\ta: 1", "a:\n\t- 1", "a: \x07", "a: \u00e9\u65e5\U0001f600", "a: 12345678901234567890",
    "a: -0", "a: +1", "a: -1", "a: 0", "a: '0'", "x" * 50 + ": 1",
    "[" * (yamlio.MAX_DEPTH) + "]" * (yamlio.MAX_DEPTH), "[" * (yamlio.MAX_DEPTH + 1) + "]" * (yamlio.MAX_DEPTH + 1),
]


@pytest.mark.parametrize("text", CORNERS)
def test_corner_documents_read_the_same_either_way(text: str) -> None:
    data = text.encode("utf-8")
    assert _reading(_packaged, data) == _reading(_strict, data)


def test_bytes_that_are_no_utf8_text_read_the_same_either_way() -> None:
    for data in (b"a: \xff", b"\xff\xfea\x00", b"a: \xc3", "a: \x85".encode("utf-8"), b"a: 1\x00"):
        assert _reading(_packaged, data) == _reading(_strict, data)


def test_too_many_values_read_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "MAX_NODES", 5)
    for text in ("[1, 2, 3]", "[1, 2, 3, 4]", "[1, 2, 3, 4, 5]", "{a: 1, b: 2}", "{a: 1, b: 2, c: 3}"):
        data = text.encode("utf-8")
        assert _reading(_packaged, data) == _reading(_strict, data)


@pytest.mark.parametrize("text", AWKWARD)
def test_every_awkward_string_reads_the_same_either_way(text: str) -> None:
    for layout in ("{t}", "k: {t}", "{t}: v", "- {t}", "k: [{t}, x]", "k: {{{t}: v}}", "k: '{t}'", 'k: "{t}"'):
        data = layout.format(t=text).encode("utf-8")
        assert _reading(_packaged, data) == _reading(_strict, data)
    data = yamlio.dump({text: [text, {"k": text}]}).encode("utf-8")
    assert _reading(_packaged, data) == _reading(_strict, data)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_dumped_documents_read_the_same_either_way(obj: Any) -> None:
    data = yamlio.dump(obj).encode("utf-8")
    assert _reading(_packaged, data) == _reading(_strict, data)


# --- hash-shaped strings written without PyYAML's analysis -------------------------------------------------

_HEX = "0123456789abcdef"


def _hash_shaped() -> list[str]:
    """64-hex and `sha256:` texts: random ones, and the corners a number or prefix could hide in."""
    import hashlib

    texts = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(3000)]
    texts += ["sha256:" + text for text in texts[:500]]
    corners = ["0" * 64, "1" * 64, "e" * 64, "b" * 64, "0b" + "01" * 31, "0b" + "1" * 61 + "a", "1e" + "9" * 62,
               "12e3" + "4" * 60, "0" * 63 + "a", "a" + "0" * 63, "f" * 64, "d" + "e" * 63, "0x" + "f" * 62,
               "9" * 63 + "c", "be" * 32, "0e" + "1" * 62, "c" * 63, "a" * 65, "sha256:" + "0" * 64,
               "sha256:" + "f" * 63, "sha256:" + "A" * 64, "SHA256:" + "a" * 64, "sha256: " + "a" * 63]
    for position in (0, 1, 2, 31, 63):
        for letter in _HEX:
            corners.append("0" * position + letter + "1" * (63 - position))
            corners.append("1" * position + letter + "e" * (63 - position))
    return texts + corners


def test_hash_shaped_strings_are_written_as_pyyamls_analysis_writes_them() -> None:
    taken = 0
    for text in _hash_shaped():
        expected = yamlio._analyzed_scalar_text(text)
        yamlio._SCALAR_CACHE.pop(text, None)
        if yamlio._plain_hash(text):
            taken += 1
            assert expected == text, text  # the shortcut writes it plain: so does the analysis
        assert yamlio._scalar_text(text) == expected, text
        assert yamlio.dump({"h": text, "l": [text]}) == yamlio._reference_dump({"h": text, "l": [text]}), text
    assert taken > 3000  # the shortcut was taken for most of them


@given(st.text(alphabet=_HEX + "sha256:x-. ", min_size=60, max_size=72))
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_any_nearly_hash_shaped_string_is_written_as_the_reference_writes_it(text: str) -> None:
    assert yamlio.dump({"h": text}) == yamlio._reference_dump({"h": text})


def _resolved(text: str) -> Any:
    try:
        return ("value", type(yamlio._resolve_plain(text)), yamlio._resolve_plain(text))
    except yamlio._Refused as refused:
        return ("refused", str(refused))


_NUMBERISH = st.text(alphabet="0123456789+-._:eEoObBxXtTZ aAcdfFinNg,\t", min_size=1, max_size=24)


@given(st.one_of(_NUMBERISH, st.text(min_size=1, max_size=12)))
@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@example("0b1c")
@example("0x1c")
@example("1e5")
@example("3f" + "0" * 62)
@example("2026-01-01")
@example("12:30")
@example("+.inf")
@example("0o7a")
@example("0.1.0")
@example("1.5")
@example("1.5.")
@example("10.10 g at 2:1")
@example("2026-01-01 12:00:00.5")
@example("1:30.5")
@example(".inf")
@example("-.Inf")
def test_plain_scalars_resolve_the_same_without_the_refusal_patterns_shortcut(text: str) -> None:
    quick = _resolved(text)
    real = yamlio._surely_string
    try:
        setattr(yamlio, "_surely_string", lambda _: False)  # every pattern is asked
        assert _resolved(text) == quick
    finally:
        setattr(yamlio, "_surely_string", real)
