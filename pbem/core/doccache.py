"""Checked documents kept in memory by the hash of their exact bytes.

A long-running referee (the mail judge, a test, a benchmark) reads the latest turn file and
game.yaml again for every command. A document is a pure function of its bytes, so the result
of loading and schema-checking them can be kept under their SHA-256: the bytes are read and
hashed every time, and only bytes that hash the same get the kept result. Each caller gets a
fresh copy (the cache holds JSON text), so nothing a caller changes reaches another. The same
goes for the answer of a signature check (`verified_signer`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any, Mapping

from . import schemas, yamlio
from .quickload import quick_load
from .schemafiles import load_schema

MAX_KEPT_BYTES = 16 * 1024 * 1024  # of JSON text in all

# Each kept document as JSON text, and its `state` apart as canonical JSON when the one who
# remembered it had that already (the text then holds null in the state's place).
_kept: OrderedDict[tuple[str, bytes], tuple[str, bytes | None]] = OrderedDict()
_size = 0


def load_checked(data: bytes, file: str, kind: str) -> dict[str, Any]:
    """The document in `data`, strict YAML and valid against the schema of `kind` (else the loader's
    or the schema's error, naming `file`)."""
    key = (kind, hashlib.sha256(data).digest())
    kept = _kept.get(key)
    if kept is not None:
        _kept.move_to_end(key)
        return _revived(kept)
    doc = quick_load(data)
    if doc is None or not schemas.is_valid(doc, load_schema(kind)):
        checked = yamlio.load_bytes(data, file)
        schemas.validate(checked, load_schema(kind))
        doc = checked.data
    _keep(key, (json.dumps(doc, ensure_ascii=False), None))
    return doc


def remember(kind: str, data: bytes, doc: dict[str, Any], state_json: bytes | None = None) -> None:
    """`data` was just written as the canonical dump of `doc`: keep it, if it is a valid `kind`.

    `state_json`, if given, is `chance.canonical_json(doc["state"])` of a state already in
    canonical form (keys sorted all the way down, as `canonical_copy` leaves them), so that read
    back it is the very state: it is kept as it is instead of being dumped again.
    """
    if not schemas.is_valid(doc, load_schema(kind)):
        return
    key = (kind, hashlib.sha256(data).digest())
    if state_json is None:
        _keep(key, (json.dumps(doc, ensure_ascii=False), None))
    else:
        _keep(key, (json.dumps({**doc, "state": None}, ensure_ascii=False), state_json))


def forget() -> None:
    global _size
    _kept.clear()
    _size = 0
    _signers.clear()


def _revived(kept: tuple[str, bytes | None]) -> dict[str, Any]:
    text, state_json = kept
    doc: dict[str, Any] = json.loads(text)
    if state_json is not None:
        doc["state"] = json.loads(state_json)
    return doc


def _kept_size(kept: tuple[str, bytes | None]) -> int:
    return len(kept[0]) + len(kept[1] or b"")


def _keep(key: tuple[str, bytes], kept: tuple[str, bytes | None]) -> None:
    global _size
    size = _kept_size(kept)
    if size > MAX_KEPT_BYTES or key in _kept:
        return
    _kept[key] = kept
    _size += size
    while _size > MAX_KEPT_BYTES:
        _, dropped = _kept.popitem(last=False)
        _size -= _kept_size(dropped)


# Signatures found good, by the SHA-256 of the signed bytes, the signature's text, the namespace
# and the keys allowed: the same question always has the same answer, so a long-running referee
# that reads game.yaml and the latest turn for every command checks each signature once.
_signers: OrderedDict[tuple[bytes, str, str, tuple[tuple[str, str], ...]], str] = OrderedDict()
MAX_KEPT_SIGNERS = 4096


def verified_signer(data: bytes, signature: str, namespace: str, allowed: Mapping[str, str], *, file: str) -> str:
    """`signing.verify(data, signature, namespace, allowed, file=file)`, its answer kept once it is given.

    Only good signatures are kept: a bad one is checked (and refused, with the same error) every time.
    """
    key = _signer_key(data, signature, namespace, allowed)
    found = _signers.get(key)
    if found is not None:
        _signers.move_to_end(key)
        return found
    from . import signing  # on use: a command that checks no signature (`pbem check`) does without it

    signer = signing.verify(data, signature, namespace, allowed, file=file)
    _keep_signer(key, signer)
    return signer


def remember_signature(data: bytes, signature: str, namespace: str, allowed: Mapping[str, str], signer: str) -> None:
    """`signature` was just made over `data` by the key `allowed[signer]` names: keep the answer."""
    _keep_signer(_signer_key(data, signature, namespace, allowed), signer)


def _signer_key(data: bytes, signature: str, namespace: str,
                allowed: Mapping[str, str]) -> tuple[bytes, str, str, tuple[tuple[str, str], ...]]:
    return hashlib.sha256(data).digest(), signature, namespace, tuple(allowed.items())


def _keep_signer(key: tuple[bytes, str, str, tuple[tuple[str, str], ...]], signer: str) -> None:
    _signers[key] = signer
    while len(_signers) > MAX_KEPT_SIGNERS:
        _signers.popitem(last=False)
