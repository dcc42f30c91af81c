"""Tables shipped as data, each value carrying where it came from (docs/writing-a-ruleset.md, "Tables").

A table entry is either plain data or `{value: ..., source: "10.10"}` / `{value: ..., assumed:
true, note: ...}`. Rules code works on the plain values; documentation and tests list the
assumed ones, so an assumed number is never passed off as the publisher's.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
from functools import lru_cache
from typing import Any, Mapping, NamedTuple

from pbem.core import canonical_read, scalar_style, yamlio


def setup_with_tables(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the scenario's `setup`, carrying its `tables` overrides (if any) the way a state does."""
    setup = copy.deepcopy(dict(scenario.get("setup") or {}))
    tables = dict(scenario.get("tables") or {})
    if tables:
        setup["tables"] = copy.deepcopy(tables)
    return setup


@lru_cache(maxsize=None)
def packaged_yaml(package: str, name: str) -> Any:
    """A YAML data file shipped inside a package, read once. Shared: never mutate it.

    Shipped with the code and as trusted, so read by `yamlio.load_packaged`: the strict loader's data,
    built without its marks (a scenario's own map or tables always go through the strict loader),
    and kept on disk beside the package's byte-code (`kept_copy`) for the next process.
    """
    return packaged_doc(package, name, yamlio.packaged_file(package, name), yamlio.read_packaged(package, name))


def packaged_doc(package: str, name: str, path: str | None, data: bytes) -> Any:
    """What `data`, the bytes of the packaged file `name` (at `path`, if on disk), reads to: its kept
    copy, else the loader's reading (kept for the next process). A new object at every call."""
    if path is not None:
        kept = kept_copy(path, data)
        if kept is not None:
            return kept
    found = yamlio.load_packaged(data, f"{package.replace('.', '/')}/{name}")
    if path is not None and type(found) is dict:
        keep_copy(path, data, found)
    return found


# --- kept copies ---------------------------------------------------------------------------------------
#
# Reading fbsm's map and tables cost every command about 4.5 ms of parsing. What they read to is kept as
# JSON where Python keeps the package's byte-code (`__pycache__`, or under PYTHONPYCACHEPREFIX), written
# only when Python writes byte-code. Whoever can write there can already change the code Python runs,
# so a copy kept there is no less trusted than the code. A copy is used only if its name and its header
# name the exact bytes it was read from (SHA-256) and the reader that read them (pbem's version,
# PyYAML's, and the SHA-256 of yamlio's source), and its body has the SHA-256 its header gives: a copy
# of other bytes, of another reader or damaged is passed over, and the file is read again. Other forms
# of a file are kept the same way under their own kind and key (`kept_bytes`, `keep_bytes`): a map's
# index (`hexboard.map_index`), keyed also by the code that builds it.


@lru_cache(maxsize=None)
def _reader_key() -> str:
    """What decides what a packaged file reads to and how its copy is kept: pbem's version, PyYAML's
    (its package's source, which names it: read, not imported, so a command that finds every copy
    kept does without PyYAML), the sources of pbem's readers (yamlio, canonical_read, scalar_style)
    and this module's."""
    import importlib.util

    from pbem import __version__

    pyyaml = importlib.util.find_spec("yaml")
    if pyyaml is None or pyyaml.origin is None:
        raise OSError("PyYAML is not installed")
    # PyYAML's, the readers', and the rules for writing a copy
    return sources_key(f"{__version__}/", (pyyaml.origin, yamlio.__file__, canonical_read.__file__,
                                           scalar_style.__file__, __file__))


def sources_key(mark: str, files: tuple[str | None, ...]) -> str:
    """A short key naming `mark` and the exact bytes of each of `files` (module sources): a kept copy
    made under other code is not found under it."""
    source = b""
    for module_file in files:
        if module_file is None:
            raise OSError("a module with no source file")
        with open(module_file, "rb") as handle:
            source += hashlib.sha256(handle.read()).digest()
    return hashlib.sha256(mark.encode() + source).hexdigest()[:16]


def kept_copy_path(path: str, data: bytes, kind: str = "json", key: str | None = None) -> str:
    """Where the kept copy of the packaged file at `path`, holding `data`, is (or would be).

    `kind` names what is kept (the JSON of what the file reads to, or another form a module keeps of
    it), `key` what decides that form (`_reader_key()` unless given).
    """
    import importlib.util

    byte_code = importlib.util.cache_from_source(path + ".py")  # where Python would keep byte-code for it
    return f"{byte_code[:-len('.pyc')]}.{key or _reader_key()}.{hashlib.sha256(data).hexdigest()}.{kind}"


def _header(data: bytes, body: bytes, key: str) -> bytes:
    return json.dumps({"source": hashlib.sha256(data).hexdigest(), "reader": key,
                       "body": hashlib.sha256(body).hexdigest()}, sort_keys=True).encode("utf-8")


def kept_bytes(path: str, data: bytes, kind: str, key: str) -> bytes | None:
    """The body of the copy of kind `kind` kept under `key` for the packaged file at `path` (holding
    `data`); None if there is none, or it is of other bytes, of another key, or damaged."""
    try:
        with open(kept_copy_path(path, data, kind, key), "rb") as handle:
            header, _, body = handle.read().partition(b"\n")
    except (OSError, ValueError, NotImplementedError):  # NotImplementedError: this Python keeps no byte-code
        return None
    return body if header == _header(data, body, key) else None


def keep_bytes(path: str, data: bytes, kind: str, key: str, body: bytes) -> None:
    """Keep `body` as the copy of kind `kind` under `key`, if Python writes byte-code (any failure: no copy)."""
    if sys.dont_write_bytecode:
        return
    try:
        target = kept_copy_path(path, data, kind, key)
    except NotImplementedError:  # this Python keeps no byte-code
        return
    temporary = f"{target}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        # the mode Python gives byte-code (its source's, as importlib's `_calc_mode`), never more open
        # whatever the umask; and only a file this creates, never through a link planted in its place
        try:
            mode = os.stat(path).st_mode & 0o666 | 0o200
        except OSError:
            mode = 0o666
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(_header(data, body, key) + b"\n" + body)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def kept_copy(path: str, data: bytes) -> dict[str, Any] | None:
    """What the packaged file at `path` (holding `data`) read to, from its kept copy; None if there is
    no copy, or it is of other bytes, of another reader, or damaged."""
    body = kept_bytes(path, data, "json", _reader_key())
    if body is None:
        return None
    try:
        found = json.loads(body)
    except ValueError:
        return None
    return found if type(found) is dict else None


def keep_copy(path: str, data: bytes, found: dict[str, Any]) -> None:
    """Keep what the packaged file at `path` read to, if Python writes byte-code (any failure: no copy)."""
    if sys.dont_write_bytecode:
        return
    body = _exact_json(found)
    if body is not None:
        keep_bytes(path, data, "json", _reader_key(), body)


def _exact_json(found: dict[str, Any]) -> bytes | None:
    """`found` as JSON, or None when JSON would not give it back exactly (a key that is not a string,
    a value JSON has no type for): such a file is read every time rather than kept changed."""
    try:
        body = json.dumps(found, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError):
        return None
    return body if _same_typed(json.loads(body), found) else None


def _same_typed(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (JSON would turn a key 1 into "1", 1.0 stays 1.0)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(type(k) is str and _same_typed(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same_typed(x, y) for x, y in zip(a, b))
    return bool(a == b)


def has_provenance(node: Any) -> bool:
    return isinstance(node, dict) and "value" in node and ("source" in node or "assumed" in node)


def plain_values(node: Any) -> Any:
    """The tables with every `{value, source|assumed}` entry replaced by its value."""
    if has_provenance(node):
        return copy.deepcopy(node["value"])
    if isinstance(node, dict):
        return {key: plain_values(sub) for key, sub in node.items()}
    return copy.deepcopy(node)


def assumed_entries(node: Any, path: str = "") -> list[tuple[str, Any, str]]:
    """Every assumed entry as (dotted path, value, note), in document order."""
    if has_provenance(node):
        return [(path, node["value"], str(node.get("note", "")))] if node.get("assumed") else []
    if not isinstance(node, dict):
        return []
    found: list[tuple[str, Any, str]] = []
    for key, sub in node.items():
        found += assumed_entries(sub, f"{path}.{key}" if path else str(key))
    return found


# A NamedTuple, not a dataclass: about 0.1 ms to create at import instead of 0.5 (every command pays it).
class TableFile(NamedTuple):
    """A ruleset's packaged tables file, read three ways."""

    package: str
    name: str = "tables.yaml"

    def annotated(self) -> dict[str, Any]:
        """The tables with their provenance (`value` plus `source` or `assumed`)."""
        found: dict[str, Any] = copy.deepcopy(packaged_yaml(self.package, self.name))
        return found

    def plain(self) -> dict[str, Any]:
        """The tables as plain values."""
        found: dict[str, Any] = plain_values(packaged_yaml(self.package, self.name))
        return found

    def assumed(self) -> list[tuple[str, Any, str]]:
        """Every assumed value: (path, value, note), which the ruleset's docs must list."""
        return assumed_entries(packaged_yaml(self.package, self.name))


def merge(base: Any, over: Any) -> Any:
    """`over` laid on `base`: mappings merge key by key, anything else is replaced whole."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)
