"""Canonical text read without PyYAML (`pbem.core.canonical_read`), and strings written without it.

The reader is safe by construction (it keeps a value only if dumping it gives the file back byte
for byte); these tests check that it agrees with the strict loader wherever it answers, that it
answers for the files pbem writes (else it would be dead weight), that it refuses without harm
what it does not take, and that positions for messages are still found, the strict loader's own.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.core import yamlio
from pbem.core.canonical_read import max_bytes, read_canonical
from pbem.core.errors import YamlError

from .test_speed_yaml import AWKWARD, documents

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
# Words PyYAML's resolver (YAML 1.1) reads as no string: bools, nulls, the merge and value keys.
YAML11_WORDS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF "
                         "null Null NULL ~ << =".split())
SAMPLE_FILES = sorted(SAMPLES.rglob("*.yaml"))


def _strict(data: bytes) -> Any:
    return yamlio._load_strictly(data, "file.yaml").data


def _same_with_types(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(_same_with_types(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same_with_types(x, y) for x, y in zip(a, b))
    return bool(a == b)


def test_samples_exist() -> None:
    assert len(SAMPLE_FILES) > 500


def test_every_sample_file_reads_as_the_strict_loader_reads_it() -> None:
    taken = 0
    for path in SAMPLE_FILES:
        data = path.read_bytes()
        found = read_canonical(data)
        if found is not None:
            taken += 1
            assert _same_with_types(found, _strict(data)), path
    assert taken > 0.95 * len(SAMPLE_FILES)


def test_every_file_pbem_writes_is_read_as_canonical_text() -> None:
    written = [p for p in SAMPLE_FILES if "/game/turns/" in str(p) or "/game/views/" in str(p)
               or p.name in ("game.yaml",) or p.name.endswith(".receipt.yaml")]
    assert len(written) > 300
    assert [p for p in written if read_canonical(p.read_bytes()) is None] == []


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
@example({"a": [[1, [2, {}]], {"b": []}, [], {}], "c": {"d": {"e": None}}})
@example([[["x"]], {"k": [{"j": [[]]}]}, [{"a": 1, "b": [1, 2]}, "z"]])
@example({"'q'": 1, "it's": "'", "a''b": "''", '"': "x"})
def test_what_dump_writes_reads_back(obj: Any) -> None:
    text = yamlio.dump(obj)
    found = read_canonical(text.encode("utf-8"))
    if found is not None:
        assert _same_with_types(found, obj)
    elif yamlio.fast_dump(obj) == text and "\\" not in text:
        # The fast emitter wrote it with no escape: the reader must take it.
        pytest.fail(f"not read back: {text!r}")


def _mutations(text: str, rng: random.Random) -> list[str]:
    found = []
    for _ in range(12):
        at = rng.randrange(len(text) + 1)
        found.append(text[:at] + rng.choice([" ", "-", ":", "#", "'", '"', "\n", "  ", "- ", "x", "\t"]) + text[at:])
        found.append(text[:at] + text[at + 1:])
    lines = text.split("\n")
    if len(lines) > 3:
        i = rng.randrange(len(lines) - 2)
        swapped = lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:]
        found.append("\n".join(swapped))
        found.append("\n".join(lines[:i] + ["  " + lines[i]] + lines[i + 1:]))
    return found


def test_damaged_canonical_text_is_refused_or_read_as_the_strict_loader_reads_it() -> None:
    rng = random.Random(17)
    checked = 0
    for path in SAMPLE_FILES[::7]:
        text = path.read_text("utf-8")
        for damaged in _mutations(text, rng):
            data = damaged.encode("utf-8")
            found = read_canonical(data)
            if found is None:
                continue
            checked += 1
            assert _same_with_types(found, _strict(data)), (path, damaged)
    assert checked > 0  # some damage leaves canonical text (a key renamed), and it reads the same


@pytest.mark.parametrize("data", [
    b"- " * 20000 + b"a\n",
    b"a:\n" + b"".join(b"  " * i + b"b:\n" for i in range(1, 300)) + b"  " * 300 + b"c: 1\n",
    b"a: 1\na: 2\n",
    b"1: a\n",
    b"a: 1",
    b"",
    b"\n",
    b"a: [1, 2]\n",
    b"a: 1 # note\n",
    b"a: \"x\\ty\"\n",
    b"\xef\xbb\xbfa: 1\n",
    b"a: \xff\n",
    b"a: b\n...\n",
    b"---\na: 1\n",
    b"a: 010\n",
    b"a: 1.5\n",
    b"a: &x 1\nb: *x\n",
    b"x: 1\n" * (max_bytes() // 5 + 1),
], ids=lambda data: repr(data[:24]))
def test_what_is_not_canonical_text_is_left_to_the_strict_loader(data: bytes) -> None:
    assert read_canonical(data) is None


def test_a_document_read_as_canonical_text_still_names_positions() -> None:
    data = (SAMPLES / "fbsm" / "game" / "turns" / "0001" / "turn.yaml").read_bytes()
    fast = yamlio.load_bytes(data, "turn.yaml")
    assert type(fast.marks).__name__ == "_Marks"  # the canonical path was taken
    strict = yamlio._load_strictly(data, "turn.yaml")
    assert fast.data == strict.data
    assert dict(fast.marks) == dict(strict.marks) and dict(fast.key_marks) == dict(strict.key_marks)
    problem = fast.problem("bad", ("state", "phase"), at_key=True)
    where = strict.key_mark(("state", "phase"))
    assert where is not None and (problem.line, problem.column) == (where.line, where.column)


def test_a_file_too_large_is_refused_before_reading() -> None:
    with pytest.raises(YamlError, match="too large"):
        yamlio.load_bytes(b"a: 1\n" * 10, "big.yaml", max_bytes=20)


# --- strings written without PyYAML's analysis -------------------------------------------------


def _reference_scalar_text(text: str) -> str:
    """`_analyzed_scalar_text` as it was before the shortcut: PyYAML's analysis and resolver."""
    if yamlio._BREAKS_RE.search(text) or not yamlio._plain_is_string(text):
        return yamlio._quoted(text, '"')
    analyzer, resolver = yamlio._analysis_tools()
    analysis = analyzer.analyze_scalar(text)
    implicit = resolver.resolve(yamlio._pyyaml().ScalarNode, text, (True, False)) == yamlio._STR_TAG
    if implicit and analysis.allow_block_plain:
        return text
    return yamlio._quoted(text, "'" if analysis.allow_single_quoted else '"')


def _sample_strings() -> set[str]:
    found: set[str] = set()

    def walk(value: Any) -> None:
        if type(value) is str:
            found.add(value)
        elif type(value) is dict:
            found.update(value)
            for item in value.values():
                walk(item)
        elif type(value) is list:
            for item in value:
                walk(item)

    for path in SAMPLE_FILES:
        walk(_strict(path.read_bytes()))
    return found


def test_every_sample_string_is_written_as_pyyamls_analysis_writes_it() -> None:
    taken = 0
    for text in sorted(_sample_strings()):
        simple = yamlio._simple_scalar_text(text)
        if simple is not None:
            taken += 1
            assert simple == _reference_scalar_text(text), text
    assert taken > 1000


_EDGY = list("aAbBeEfFnNoOtTxXyYzZ019_.:-+ #,'\"\\/()[]{}&*!|>%@`?~<=é") + [
    "\xa0", "\t", "Ā", "ɏ", "\u00d7", "日", "😀", "\ue000", "\ufeff", "\u2028", "\x85", "\x7f", "\u3000", "\ufffd",
    "\U0010fffd", "\U000e0001", "\u0301", "\u200b"]


def test_strings_on_every_edge_are_written_as_pyyamls_analysis_writes_them() -> None:
    rng = random.Random(5)
    words = sorted(YAML11_WORDS) + ["0.1.0", "1.2.3", "10.10", "0305", "1.5", "0x1F", "2026-11-27",
                                            "1:30", "1_000", ".inf", "...", "---", "- a", "a:", "a #b"]
    taken = 0
    for text in AWKWARD + words:
        simple = yamlio._simple_scalar_text(text)
        if simple is not None:
            assert simple == _reference_scalar_text(text), text
    for _ in range(40000):
        if rng.random() < 0.25:
            text = rng.choice(words) + "".join(rng.choice(_EDGY) for _ in range(rng.randint(0, 2)))
        else:
            text = "".join(rng.choice(_EDGY) for _ in range(rng.randint(1, 7)))
        simple = yamlio._simple_scalar_text(text)
        if simple is not None:
            taken += 1
            assert simple == _reference_scalar_text(text), text
    assert taken > 15000


def test_the_non_printable_pattern_is_the_complement_of_yamls_printable_set() -> None:
    printable = re.compile("[\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    every = "".join(map(chr, range(0x110000)))
    refused = {m.start() for m in re.finditer(yamlio._NON_PRINTABLE, every)}
    allowed = {m.start() for m in printable.finditer(every)}
    assert refused.isdisjoint(allowed) and len(refused) + len(allowed) == 0x110000


def test_pyyaml_s_reader_takes_the_lent_pattern() -> None:
    """`yamlio._lend_printable_pattern`: the pattern lent is PyYAML's own, and PyYAML's reader takes it."""
    import ast
    import importlib.util
    import subprocess
    import sys

    spec = importlib.util.find_spec("yaml.reader")
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text(encoding="utf-8")
    literals = [ast.literal_eval(node.args[0]) for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "compile" and node.args]
    assert literals == [yamlio._PYYAML_NON_PRINTABLE]  # PyYAML's pattern, as its reader writes it
    probe = ("import sys; from pbem.core import yamlio; assert 'yaml' not in sys.modules; "
             "yaml = yamlio._pyyaml(); print(yaml.reader.Reader.NON_PRINTABLE.pattern == yamlio._NON_PRINTABLE)")
    taken = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert taken.strip() == "True"
