"""Canonical copies of accepted files that are not canonical text, kept in the referee's private store.

A player's own orders file (comments, flow style) is no canonical text, so reading it takes
PyYAML, whose import costs a one-shot `pbem adjudicate` some 15 ms. The intake reads each file
strictly when it accepts it; it then keeps `yamlio.dump` of what it read in the referee's private
store (docs/protocol.md §8), named by the file's SHA-256 and sealed with an HMAC keyed by the chain
secret, and the adjudication reads that copy as canonical text (`canonical_read`). A copy whose
seal does not check (damaged, planted, another game's or another secret's) is passed over and the
file read as before: a copy can cost time, never give other data. Keeping one may fail without
harm. The audit never reads them: it reads every archived file itself.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import chance, yamlio
from .archive import Archive
from .canonical_read import read_canonical
from .errors import PbemError

COPY_MAGIC = b"pbem-canonical-copy/1\n"
_TAG_LABEL = "pbem/v1/canonical-copy"
FOLDER = "copies"
_TAG_BYTES = 32


def copy_name(data: bytes) -> str:
    """Where the copy of the file holding `data` is kept, under the private store."""
    return f"{FOLDER}/{hashlib.sha256(data).hexdigest()}.yaml"


def _tag(secret: bytes, game: str, data: bytes, text: bytes) -> bytes:
    """The seal: over pbem's version too, as another version's loader might read the file otherwise."""
    import hmac  # only a copy kept or read needs it

    from pbem import __version__

    return hmac.digest(secret, chance.enc(_TAG_LABEL, __version__, game, hashlib.sha256(data).digest(), text),
                       "sha256")


def sealed_copy(secret: bytes, game: str, data: bytes, doc: Any) -> bytes:
    """The file `keep` writes for `data`, which the strict loader reads as `doc`."""
    text = yamlio.dump(doc).encode("utf-8")
    return COPY_MAGIC + _tag(secret, game, data, text) + text


def keep(archive: Archive, game: str, data: bytes, doc: Any) -> None:
    """Keep the canonical text of `doc` (what the strict loader read from `data`) unless `data` is
    canonical text already. Any failure to keep it only leaves the file to be parsed again."""
    if read_canonical(data) is not None:
        return
    try:
        secret = bytes.fromhex(archive.read_secret())
        sealed = sealed_copy(secret, game, data, doc)
        if read_canonical(sealed[len(COPY_MAGIC) + _TAG_BYTES:]) is None:
            return  # (a string with an escape, say) the adjudication could not read it without PyYAML either
        archive.write_private(copy_name(data), sealed)
    except (OSError, ValueError, TypeError, PbemError):  # no secret here, a store that cannot be written
        return


def read(archive: Archive, game: str, data: bytes) -> dict[str, Any] | None:
    """What the strict loader reads from `data`, from its sealed copy; None without a good one."""
    sealed = archive.read_private(copy_name(data), limit=len(COPY_MAGIC) + _TAG_BYTES + yamlio.MAX_FILE_BYTES)
    if sealed is None or not sealed.startswith(COPY_MAGIC):
        return None
    import hmac

    body = len(COPY_MAGIC) + _TAG_BYTES
    text = sealed[body:]
    try:
        secret = bytes.fromhex(archive.read_secret())
    except (OSError, ValueError, PbemError):
        return None
    if not hmac.compare_digest(sealed[len(COPY_MAGIC):body], _tag(secret, game, data, text)):
        return None
    value = read_canonical(text)
    return value if type(value) is dict else None
