"""Checked documents kept in memory by the hash of their exact bytes.

A long-running referee (the mail judge, a test, a benchmark) reads the latest turn file and
game.yaml again for every command. A document is a pure function of its bytes, so the result
of loading and schema-checking them can be kept under their SHA-256: the bytes are read and
hashed every time, and only bytes that hash the same get the kept result. Each caller gets a
fresh copy (the cache holds JSON text), so nothing a caller changes reaches another.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from . import schemas, yamlio
from .quickload import quick_load
from .schemafiles import load_schema

MAX_KEPT_BYTES = 16 * 1024 * 1024  # of JSON text in all

_kept: OrderedDict[tuple[str, bytes], str] = OrderedDict()
_size = 0


def load_checked(data: bytes, file: str, kind: str) -> dict[str, Any]:
    """The document in `data`, strict YAML and valid against the schema of `kind` (else the loader's
    or the schema's error, naming `file`)."""
    key = (kind, hashlib.sha256(data).digest())
    text = _kept.get(key)
    if text is not None:
        _kept.move_to_end(key)
        found: dict[str, Any] = json.loads(text)
        return found
    doc = quick_load(data)
    if doc is None or not schemas.is_valid(doc, load_schema(kind)):
        checked = yamlio.load_bytes(data, file)
        schemas.validate(checked, load_schema(kind))
        doc = checked.data
    _keep(key, doc)
    return doc


def remember(kind: str, data: bytes, doc: dict[str, Any]) -> None:
    """`data` was just written as the canonical dump of `doc`: keep it, if it is a valid `kind`."""
    if schemas.is_valid(doc, load_schema(kind)):
        _keep((kind, hashlib.sha256(data).digest()), doc)


def forget() -> None:
    global _size
    _kept.clear()
    _size = 0


def _keep(key: tuple[str, bytes], doc: dict[str, Any]) -> None:
    global _size
    text = json.dumps(doc, ensure_ascii=False)
    if len(text) > MAX_KEPT_BYTES or key in _kept:
        return
    _kept[key] = text
    _size += len(text)
    while _size > MAX_KEPT_BYTES:
        _, dropped = _kept.popitem(last=False)
        _size -= len(dropped)
