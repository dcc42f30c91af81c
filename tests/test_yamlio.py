"""The strict YAML loader and canonical dumper (pbem.core.yamlio)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.core import yamlio
from pbem.core.errors import YamlError
from pbem.core.yamlio import MAX_ALIAS_NODES, MAX_DEPTH, Document, Mark, dump, load_bytes, load_file
from tests.test_work_meter import metered


def load(text: str, file: str = "t.yaml") -> Any:
    return load_bytes(text.encode("utf-8"), file).data


def refusal(text: str) -> YamlError:
    with pytest.raises(YamlError) as info:
        load_bytes(text.encode("utf-8"), "t.yaml")
    return info.value


# --------------------------------------------------------------------------------------
# What plain scalars mean


@pytest.mark.parametrize("text", ["null", "Null", "NULL", "~", ""])
def test_nulls(text: str) -> None:
    assert load(f"a: {text}\n") == {"a": None}


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False)],
)
def test_booleans(text: str, value: bool) -> None:
    assert load(f"a: {text}\n") == {"a": value}


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("7", 7), ("-12", -12), ("+5", 5), ("-0", 0), ("123456789012345678901234567890", 123456789012345678901234567890)],
)
def test_integers(text: str, value: int) -> None:
    data = load(f"a: {text}\n")
    assert data == {"a": value} and type(data["a"]) is int


@pytest.mark.parametrize(
    "text",
    ["yes", "no", "on", "off", "y", "n", "Yes", "NO", "On", "OFF", "Y", "N", "tRuE", "nan", "inf", "1.2.3", "=", ".", "+", "a:b", "ü"],
)
def test_yaml11_words_stay_strings(text: str) -> None:
    assert load(f"a: {text}\n") == {"a": text}


@pytest.mark.parametrize("text", ["'1.5'", '"010"', "'2001-12-14'", '"1:30"', "'yes'", "'null'", "'true'", "'<<'", "'0x1F'"])
def test_quoted_scalars_are_strings(text: str) -> None:
    assert load(f"a: {text}\n") == {"a": text[1:-1]}


def test_block_scalars_are_strings() -> None:
    assert load("a: |\n  1.5\nb: >\n  010\n  x\n") == {"a": "1.5\n", "b": "010 x\n"}


def test_quoted_keys_are_strings() -> None:
    assert load('"2717": x\n"<<": y\n"null": z\n') == {"2717": "x", "<<": "y", "null": "z"}


# --------------------------------------------------------------------------------------
# Refusals, each at its line:column with a hint of what to write


REFUSED_VALUES = [
    ("1.5", "no floats"),
    (".5", "no floats"),
    ("-1.", "no floats"),
    ("1e3", "no floats"),
    ("-2E-4", "no floats"),
    (".inf", "no floats"),
    ("-.Inf", "no floats"),
    (".nan", "no floats"),
    ("1_000.5", "no floats"),
    ("2001-12-14", "date"),
    ("2001-12-14t21:59:43.10-05:00", "date"),
    ("2001-12-14 21:59:43.10 -5", "date"),
    ("1:30", "base-60"),
    ("190:20:30", "base-60"),
    ("-1:30.5", "base-60"),
    ("010", "leading zero"),
    ("0101", "leading zero"),
    ("00", "leading zero"),
    ("0o17", "hexadecimal, octal or binary"),
    ("0x1F", "hexadecimal, octal or binary"),
    ("-0xff", "hexadecimal, octal or binary"),
    ("0b101", "hexadecimal, octal or binary"),
    ("1_000", "no underscores"),
    ("<<", "merge key"),
]


@pytest.mark.parametrize(("text", "fragment"), REFUSED_VALUES)
def test_refused_plain_scalars(text: str, fragment: str) -> None:
    error = refusal(f"top:\n  list:\n  - fine\n  - {text}\n")
    [problem] = error.problems
    assert (problem.file, problem.line, problem.column) == ("t.yaml", 4, 5)
    assert problem.path == ("top", "list", 1)
    assert fragment in problem.message
    assert "quote it" in problem.message or "write" in problem.message


def test_float_message_says_what_to_write() -> None:
    [problem] = refusal("a: 1.5\n").problems
    assert "use whole numbers: 1 or 2;" in problem.message and '"1.5"' in problem.message
    [problem] = refusal("a: -700.25\n").problems
    assert "use whole numbers: -700 or -701;" in problem.message
    [problem] = refusal("a: 3.00\n").problems
    assert "use whole numbers: 3;" in problem.message


def test_leading_zero_message_says_quote_it_first() -> None:
    [problem] = refusal("path: [0912]\n").problems
    assert 'quote it: "0912"' in problem.message and "912" not in problem.message.replace("0912", "")


def test_underscore_message_offers_the_plain_number() -> None:
    [problem] = refusal("a: 1_000\n").problems
    assert "write 1000" in problem.message


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: !!str 5\n", 1, 4),
        ("a:\n  b: !foo x\n", 2, 6),
        ("a: !!binary aGk=\n", 1, 4),
        ("a: !!map {b: 1}\n", 1, 4),
        ("a: ! x\n", 1, 4),
        ("- !!seq [1]\n", 1, 3),
        ("a: !<tag:yaml.org,2002:int> '3'\n", 1, 4),
    ],
)
def test_tags_refused(text: str, line: int, column: int) -> None:
    [problem] = refusal(text).problems
    assert (problem.line, problem.column) == (line, column)
    assert "tags are not allowed" in problem.message


def test_int_key_says_quote_it() -> None:
    [problem] = refusal("hexes:\n  2717: clear\n").problems
    assert (problem.line, problem.column) == (2, 3)
    assert 'quote it: "2717"' in problem.message
    assert problem.path == ("hexes", "2717")


@pytest.mark.parametrize(("key", "fragment"), [("true", 'quote it: "true"'), ("~", 'quote it: "~"'), ("null", 'quote it: "null"')])
def test_other_non_string_keys(key: str, fragment: str) -> None:
    [problem] = refusal(f"a: 1\n{key}: 2\n").problems
    assert (problem.line, problem.column) == (2, 1)
    assert fragment in problem.message


def test_collection_key_refused() -> None:
    [problem] = refusal("? [1, 2]\n: x\n").problems
    assert (problem.line, problem.column) == (1, 3)
    assert "a key must be a string" in problem.message


def test_empty_key_refused() -> None:
    [problem] = refusal("?\n: x\n").problems
    assert "empty key" in problem.message


def test_merge_key_refused() -> None:
    [problem] = refusal("base: &b {x: 1}\nunit:\n  <<: *b\n  y: 2\n").problems
    assert (problem.line, problem.column) == (3, 3)
    assert "merge key" in problem.message


def test_duplicate_key_names_both_lines() -> None:
    [problem] = refusal("a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n").problems
    assert (problem.line, problem.column) == (5, 3)
    assert problem.path == ("b", "c")
    assert 'duplicate key "c"' in problem.message and "line 3" in problem.message
    assert "5" in str(problem).split(":")[1]


def test_several_problems_collected_and_sorted() -> None:
    error = refusal("a: 1.5\nb: [yes, 010]\n2717: x\nb: 2\n")
    where = [(p.line, p.column) for p in error.problems]
    assert where == [(1, 4), (2, 10), (3, 1), (4, 1)]
    assert len(str(error).splitlines()) == 4


def test_problem_collection_is_bounded() -> None:
    error = refusal("".join(f"k{i}: {i}.5\n" for i in range(500)))
    assert len(error.problems) == yamlio.MAX_PROBLEMS + 1
    assert "too many problems" in error.problems[-1].message


# --------------------------------------------------------------------------------------
# Documents, encodings, syntax errors


def test_exactly_one_document() -> None:
    [problem] = refusal("a: 1\n---\nb: 2\n").problems
    assert (problem.line, problem.column) == (2, 1)
    assert "exactly one document" in problem.message
    assert load("---\na: 1\n...\n") == {"a": 1}


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_no_document_refused(text: str) -> None:
    [problem] = refusal(text).problems
    assert "no YAML document" in problem.message


def test_explicit_empty_document_is_null() -> None:
    assert load("---\n") is None


def test_utf8_bom_accepted() -> None:
    assert load_bytes(b"\xef\xbb\xbfa: \xc3\xbc\n", "t.yaml").data == {"a": "ü"}


def test_utf16_refused() -> None:
    with pytest.raises(YamlError, match="UTF-8"):
        load_bytes("a: 1\n".encode("utf-16"), "t.yaml")


def test_invalid_utf8_located() -> None:
    with pytest.raises(YamlError) as info:
        load_bytes(b"a: 1\nb: caf\xe9\n", "t.yaml")
    [problem] = info.value.problems
    assert (problem.line, problem.column) == (2, 7)
    assert "UTF-8" in problem.message


def test_control_character_located() -> None:
    with pytest.raises(YamlError) as info:
        load_bytes(b"a: 1\nb: x\x00y\n", "t.yaml")
    [problem] = info.value.problems
    assert (problem.line, problem.column) == (2, 5)
    assert "U+0000" in problem.message


def test_syntax_error_is_one_based() -> None:
    [problem] = refusal("a: 1\nb: c: d\n").problems
    assert (problem.file, problem.line, problem.column) == ("t.yaml", 2, 5)
    assert "YAML syntax error" in problem.message


def test_unclosed_flow_reports_where_it_opened() -> None:
    [problem] = refusal("a: [1, 2\nb: 3\n").problems
    assert "YAML syntax error" in problem.message and "line 1, column 4" in problem.message


def test_tab_indentation_hint() -> None:
    [problem] = refusal("a:\n\tb: 1\n").problems
    assert (problem.line, problem.column) == (2, 1)
    assert "tabs" in problem.message


def test_problems_before_a_syntax_error_are_kept() -> None:
    error = refusal("a: 1.5\nb: [\n")
    assert "no floats" in error.problems[0].message
    assert "YAML syntax error" in error.problems[-1].message


# --------------------------------------------------------------------------------------
# Aliases, depth, size


def test_small_aliases_expand_to_fresh_copies() -> None:
    data = load("base: &b {armour: 2, moves: [1, 2]}\nunits:\n- *b\n- *b\nname: &n x\nalso: *n\n")
    assert data["units"] == [data["base"], data["base"]]
    assert data["units"][0] is not data["base"] and data["units"][0]["moves"] is not data["base"]["moves"]
    assert data["also"] == "x"


def test_alias_as_key_is_fine_when_string() -> None:
    assert load("a: &k name\n*k : 2\n") == {"a": "name", "name": 2}


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_refused_fast() -> None:
    with metered(memory=True) as work:
        error = refusal(BILLION_LAUGHS)
    # Refused at the first alias past the expansion bound (its line 4): the root, then a, b and c (a key,
    # a list and 9 items each; b's and c's expand to 90 and 819 nodes), then d, its list and its first *c.
    assert work.most_nodes == 1 + 3 * 11 + 3, work
    assert work.peak_bytes is not None and work.peak_bytes < 2**20, work.peak_bytes
    [problem] = error.problems
    assert "alias expansion too large" in problem.message
    assert problem.line == 4


def test_alias_bound_is_exact() -> None:
    ok = "a: &a x\nb: [" + ", ".join(["*a"] * MAX_ALIAS_NODES) + "]\n"
    assert len(load(ok)["b"]) == MAX_ALIAS_NODES
    too_many = "a: &a x\nb: [" + ", ".join(["*a"] * (MAX_ALIAS_NODES + 1)) + "]\n"
    assert "alias expansion too large" in refusal(too_many).problems[0].message


def test_undefined_alias() -> None:
    [problem] = refusal("a: 1\nb: *nope\n").problems
    assert (problem.line, problem.column) == (2, 4)
    assert '"*nope"' in problem.message


def test_recursive_alias_refused() -> None:
    [problem] = refusal("a: &x\n  b: *x\n").problems
    assert "recursive" in problem.message


def test_anchor_redefined_refused() -> None:
    [problem] = refusal("a: &x 1\nb: &x 2\nc: *x\n").problems
    assert (problem.line, problem.column) == (2, 4)
    assert "defined twice" in problem.message and "line 1" in problem.message


def test_deep_flow_nesting_refused_cleanly() -> None:
    text = "[" * 10000 + "]" * 10000
    with metered() as work, contextlib.suppress(YamlError):
        load_bytes(text.encode("utf-8"), "t.yaml")
    assert work.most_nodes == MAX_DEPTH + 1, work  # stopped at the first list too deep
    [problem] = refusal(text).problems
    assert "nesting too deep" in problem.message
    assert (problem.line, problem.column) == (1, MAX_DEPTH + 1)


def test_deep_block_nesting_refused() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(200))
    assert "nesting too deep" in refusal(text).problems[0].message


def test_depth_bound_is_exact() -> None:
    assert load("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert "nesting too deep" in refusal("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)).problems[0].message


def test_depth_through_alias_refused() -> None:
    inner = "[" * 40 + "]" * 40
    text = f"a: &a {inner}\nb: {'[' * 30}*a{']' * 30}\n"
    assert "nesting too deep" in refusal(text).problems[0].message


def test_load_bytes_size_bound() -> None:
    with pytest.raises(YamlError) as info:
        load_bytes(b"a: 1\n" * 10, "t.yaml", max_bytes=20)
    assert "50 bytes" in str(info.value) and "20 bytes" in str(info.value)
    exactly = b"a: 1\n#" + b"x" * 13 + b"\n"
    assert len(exactly) == 20
    assert load_bytes(exactly, "t.yaml", max_bytes=20).data == {"a": 1}


def test_load_file_refuses_huge_file_without_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: no 50 MB actually written
    with metered(memory=True) as work, pytest.raises(YamlError) as info:
        load_file(big)
    # refused by its size: nothing parsed, and not even the bound's worth of bytes read (4 MiB)
    assert work.parses == 0, work
    assert work.peak_bytes is not None and work.peak_bytes < 2**20, work.peak_bytes
    [problem] = info.value.problems
    assert str(52428800) in problem.message and str(yamlio.MAX_FILE_BYTES) in problem.message
    assert problem.file == str(big)


def test_load_file_reads_small_file(tmp_path: Path) -> None:
    path = tmp_path / "orders.yaml"
    path.write_bytes(b"kind: orders\nseq: 3\n")
    doc = load_file(path)
    assert doc.data == {"kind": "orders", "seq": 3}
    assert doc.file == str(path)
    assert doc.problem("bad", ("seq",)).line == 2


def test_load_file_missing_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_file(tmp_path / "missing.yaml")


# --------------------------------------------------------------------------------------
# Marks


NESTED = """\
kind: orders
orders:
- unit: A1
  path: ['0101', '0102']
- unit: B2
  note: |
    two lines
    here
standing: {losses: strongest}
"""


def test_marks_for_nested_paths() -> None:
    doc = load_bytes(NESTED.encode(), "o.yaml")
    assert doc.mark(()) == Mark(1, 1)
    assert doc.mark(("kind",)) == Mark(1, 7)
    assert doc.mark(("orders",)) == Mark(3, 1)
    assert doc.mark(("orders", 0)) == Mark(3, 3)
    assert doc.mark(("orders", 0, "unit")) == Mark(3, 9)
    assert doc.mark(("orders", 0, "path", 1)) == Mark(4, 18)
    assert doc.mark(("orders", 1, "note")) == Mark(6, 9)
    assert doc.mark(("standing", "losses")) == Mark(9, 20)
    assert doc.key_mark(("orders", 0, "path")) == Mark(4, 3)
    assert doc.key_mark(("standing", "losses")) == Mark(9, 12)


def test_mark_falls_back_to_nearest_ancestor() -> None:
    doc = load_bytes(NESTED.encode(), "o.yaml")
    assert doc.mark(("orders", 0, "missing", 3)) == Mark(3, 3)
    assert doc.key_mark(("orders", 0, "missing")) == Mark(3, 3)


def test_marks_count_characters_not_bytes() -> None:
    doc = load_bytes("ü: é\nb: [ü, 3]\n".encode(), "u.yaml")
    assert doc.mark(("ü",)) == Mark(1, 4)
    assert doc.mark(("b", 1)) == Mark(2, 8)


def test_alias_contents_are_marked_at_the_alias() -> None:
    doc = load_bytes(b"a: &x {b: [1]}\nc: *x\n", "t.yaml")
    assert doc.mark(("c", "b", 0)) == Mark(2, 4)


def test_document_problem_is_located() -> None:
    doc = load_bytes(NESTED.encode(), "o.yaml")
    problem = doc.problem("no such unit", ("orders", 1, "unit"), section="7.2")
    assert (problem.file, problem.line, problem.column, problem.section) == ("o.yaml", 5, 9, "7.2")
    assert str(problem) == "o.yaml:5:9: at orders[1].unit: no such unit (rule 7.2)"
    assert doc.problem("key", ("orders", 1, "unit"), at_key=True).column == 3
    assert Document({"a": 1}, "x.yaml").problem("m", ("a",)).line is None


def test_pure_python_loader_gives_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = yamlio._load_strictly(NESTED.encode(), "o.yaml")  # the strict builder itself, on either loader
    monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    slow = yamlio._load_strictly(NESTED.encode(), "o.yaml")
    assert (slow.data, dict(slow.marks), dict(slow.key_marks)) == (fast.data, dict(fast.marks), dict(fast.key_marks))
    assert "no floats" in refusal("a: 1.5\n").problems[0].message


# --------------------------------------------------------------------------------------
# Dumping


TRICKY = [
    "yes", "no", "on", "off", "y", "n", "Y", "NO", "2717", "0101", "1:30", "190:20:30", "null", "Null", "~", "",
    "-", "a: b", "#x", "x #y", "true", "True", "1.5", ".5", "1e3", ".inf", "-.Inf", ".NaN", "010", "0o17", "0x1F",
    "0b101", "1_000", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "<<", "=", "---", "...", "- a", "? x", "'", '"',
    "&a", "*a", "!x", "%x", "@x", "`x", "|", "> x", "[", "{", "}", ",", "a\nb", "a \nb", "a\n\nb\n", " a", "a ",
    "\t", "x\r\ny", "\u2028", "\x85", "\ufeff", "-----BEGIN PBEM SIGNED FILE-----", "a" * 300, "ü", "日本語", "\x00",
    "+1", "-0", "+", "0", "-1", "1.2.3", "\\", "a\tb", "\U0001f600",
]
KEYS = st.sampled_from(TRICKY) | st.text()
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**300), max_value=10**300)
    | st.sampled_from(TRICKY)
    | st.text()
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5), max_leaves=30
)


def assert_canonical(text: str) -> None:
    assert text.endswith("\n") and not text.endswith("\n\n"), repr(text)
    assert "\r" not in text, repr(text)
    for line in text.split("\n"):
        assert not line.endswith((" ", "\t")), repr(text)
        assert not line.startswith("-----"), repr(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(VALUES)
def test_dump_load_round_trip(value: Any) -> None:
    text = dump(value)
    assert_canonical(text)
    assert load_bytes(text.encode("utf-8"), "dumped.yaml").data == value
    assert dump(load_bytes(text.encode("utf-8"), "dumped.yaml").data) == text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(VALUES)
def test_round_trip_without_libyaml(monkeypatch: pytest.MonkeyPatch, value: Any) -> None:
    monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    monkeypatch.setattr(yamlio, "_Dumper", yamlio._make_dumper(yaml.SafeDumper))
    text = dump(value)
    assert_canonical(text)
    assert load_bytes(text.encode("utf-8"), "dumped.yaml").data == value


@pytest.mark.parametrize("text", TRICKY)
def test_every_tricky_string_round_trips_as_key_and_value(text: str) -> None:
    value = {text: [text, {"k": text}], "n": {text: None}}
    out = dump(value)
    assert_canonical(out)
    assert load(out) == value


def test_dump_is_block_style_in_insertion_order() -> None:
    value = {"zeta": 1, "alpha": [True, None, "yes", "2717", "x"], "mid": {"b": "", "a": []}}
    assert dump(value) == (
        "zeta: 1\n"
        "alpha:\n"
        "- true\n"
        "- null\n"
        "- 'yes'\n"
        '- "2717"\n'
        "- x\n"
        "mid:\n"
        '  b: ""\n'
        "  a: []\n"
    )


def test_dump_keeps_unicode_and_long_lines() -> None:
    long = "word " * 100 + "end"
    text = dump({"name": "Müller 日本", "long": long})
    assert "Müller 日本" in text
    assert text.count("\n") == 2 and long in text


def test_dump_multiline_strings_stay_on_one_line() -> None:
    text = dump({"note": "first line\n  second\n"})
    assert text == 'note: "first line\\n  second\\n"\n'


def test_dump_shared_objects_without_anchors() -> None:
    shared = [1, 2]
    text = dump({"a": shared, "b": shared})
    assert "&" not in text and "*" not in text
    assert load(text) == {"a": [1, 2], "b": [1, 2]}


def test_dump_normalises_subclasses_and_tuples() -> None:
    import enum

    class Colour(str, enum.Enum):
        RED = "red"

    class Size(enum.IntEnum):
        BIG = 3

    assert dump({"c": Colour.RED, "s": Size.BIG, "t": (1, 2)}) == "c: red\ns: 3\nt:\n- 1\n- 2\n"


@pytest.mark.parametrize(
    ("value", "error", "fragment"),
    [
        ({"a": 1.5}, TypeError, "float"),
        ({1: "x"}, TypeError, "keys must be strings"),
        ({"a": {"b": {1, 2}}}, TypeError, "set"),
        ({"a": b"x"}, TypeError, "bytes"),
    ],
)
def test_dump_refuses_what_cannot_be_loaded(value: Any, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        dump(value)


def test_dump_refuses_cycles_and_excess_depth() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="deeper"):
        dump(cycle)
    deep: Any = "x"
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(ValueError, match="deeper"):
        dump(deep)
