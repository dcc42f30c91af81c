"""Committed randomness: the seed chains, phase seeds and the roll stream (docs/protocol.md §1, §3, §4).

Rules code never sees a random source; it asks a `Dice` object, which draws number i of
the adjudication and records it with the rule section it served. A public roll comes from the
phase seed alone; under protocol version 2 a restricted roll (one that not every side may see)
also needs its per-roll key from the hidden chain, which only the sides shown it receive.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence, TypeVar

T = TypeVar("T")

CHAIN_LABEL = "pbem/v1/chain"
PHASE_LABEL = "pbem/v1/phase"
ROLL_LABEL = "pbem/v1/roll"
HIDDEN_CHAIN_LABEL = "pbem/v2/hidden-chain"
HIDDEN_KEY_LABEL = "pbem/v2/hidden-key"
HIDDEN_ROLL_LABEL = "pbem/v2/hidden-roll"
DEFAULT_CHAIN_LENGTH = 1024  # the adjudications a new game's seed chains allow, unless it says otherwise


def enc(*fields: str | int | bytes) -> bytes:
    """Length-prefixed concatenation: str as UTF-8, int as 8-byte big-endian, bytes as they are."""
    out = bytearray()
    for value in fields:
        if isinstance(value, bool):
            raise TypeError("enc() takes no booleans")
        if isinstance(value, str):
            raw = value.encode("utf-8")
        elif isinstance(value, int):
            raw = value.to_bytes(8, "big", signed=False)
        elif isinstance(value, (bytes, bytearray)):
            raw = bytes(value)
        else:
            raise TypeError(f"enc() cannot encode {type(value).__name__}")
        out += len(raw).to_bytes(4, "big") + raw
    return bytes(out)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def file_hash(data: bytes) -> str:
    """The `sha256:<hex>` form used in YAML files for a file's exact bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def parse_hash(text: str) -> bytes:
    """Raw 32 bytes from `sha256:<64 hex>`; ValueError otherwise."""
    if not isinstance(text, str) or not text.startswith("sha256:") or len(text) != 71:
        raise ValueError(f"not a sha256:<64 hex digits> hash: {text!r}")
    return parse_hex32(text[7:])


def parse_hex32(text: str) -> bytes:
    """Raw 32 bytes from 64 lowercase hex digits; ValueError otherwise."""
    if not isinstance(text, str) or len(text) != 64 or text != text.lower():
        raise ValueError(f"not 64 lowercase hex digits: {text!r}")
    return bytes.fromhex(text)


def canonical_json(state: Any) -> bytes:
    """The byte form that `state_sha256` hashes (docs/protocol.md §1)."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def state_hash(state: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical_json(state)).hexdigest()


# --- the seed chain (§3) -------------------------------------------------------------------------


def chain_step(game: str, seed: bytes, label: str = CHAIN_LABEL) -> bytes:
    """s_(k-1) from s_k (t_(k-1) from t_k with the hidden chain's label)."""
    return sha256(enc(label, game, seed))


def chain_seed(game: str, secret: bytes, length: int, k: int, label: str = CHAIN_LABEL) -> bytes:
    """s_k, derived from the secret s_L by L - k steps down the chain."""
    if not 0 <= k <= length:
        raise ValueError(f"seed index {k} outside the chain 0..{length}")
    marks = _checkpoints(game, bytes(secret), length, label)
    above = min(-(-k // CHECKPOINT_EVERY) * CHECKPOINT_EVERY, length)  # the nearest kept link at or above k
    start = marks[above // CHECKPOINT_EVERY] if above < length else bytes(secret)
    return _walk(game, start, above - k, label)


CHECKPOINT_EVERY = 32
_CHECKPOINTS: dict[tuple[str, str, bytes, int], list[bytes]] = {}
_CHECKPOINTS_KEPT = 64  # chains (games) whose checkpoints this process keeps


def _walk(game: str, seed: bytes, steps: int, label: str) -> bytes:
    """`steps` applications of `chain_step`, with the label's and game's encoding made once."""
    prefix = enc(label, game)
    digest = hashlib.sha256
    for _ in range(steps):
        seed = digest(prefix + len(seed).to_bytes(4, "big") + seed).digest()
    return seed


def _checkpoints(game: str, secret: bytes, length: int, label: str) -> list[bytes]:
    """Links 0, 32, 64, ... of the chain from `secret` (walked once per process and chain).

    Every link is a pure function of (label, game, secret, length), all of them in the key, so a
    kept list can only ever be the right one.
    """
    key = (label, game, secret, length)
    found = _CHECKPOINTS.get(key)
    if found is not None:
        return found
    marks: list[bytes] = [b""] * (length // CHECKPOINT_EVERY + 1)
    seed = secret
    for index in range(length, -1, -1):
        if index % CHECKPOINT_EVERY == 0:
            marks[index // CHECKPOINT_EVERY] = seed
        if index:
            seed = _walk(game, seed, 1, label)
    _keep(key, marks)
    return marks


def _keep(key: tuple[str, str, bytes, int], marks: list[bytes]) -> None:
    if len(_CHECKPOINTS) >= _CHECKPOINTS_KEPT:
        _CHECKPOINTS.clear()
    _CHECKPOINTS[key] = marks


# A chain's checkpoints kept in the referee's private store (beside the secret, as trusted as it):
# MARKS_MAGIC, then an HMAC-SHA-256 keyed with the secret over everything the links depend on, then
# the links 0, 32, 64, ... A file whose tag does not check under the secret in hand (damaged,
# stale, another game's or another secret's) is ignored and the chain walked again: it can only
# cost time, never give a different link.
MARKS_MAGIC = b"pbem-chain-marks/1\n"
_MARKS_TAG_LABEL = "pbem/v1/chain-marks"


def _marks_tag(game: str, secret: bytes, length: int, label: str, links: bytes) -> bytes:
    import hmac  # only an adjudication or a new game seals or opens checkpoints

    return hmac.digest(secret, enc(_MARKS_TAG_LABEL, label, game, length, CHECKPOINT_EVERY, links), "sha256")


def sealed_checkpoints(game: str, secret: bytes, length: int, label: str = CHAIN_LABEL) -> bytes:
    """The chain's checkpoints as the file `open_checkpoints` takes back."""
    links = b"".join(_checkpoints(game, bytes(secret), length, label))
    return MARKS_MAGIC + _marks_tag(game, bytes(secret), length, label, links) + links


def has_checkpoints(game: str, secret: bytes, length: int, label: str = CHAIN_LABEL) -> bool:
    """Whether this process already holds the chain's checkpoints (then no file need be read)."""
    return (label, game, bytes(secret), length) in _CHECKPOINTS


def open_checkpoints(data: bytes, game: str, secret: bytes, length: int, label: str = CHAIN_LABEL) -> bool:
    """Take a sealed file's checkpoints into this process's store when its tag checks; say whether it did."""
    import hmac

    secret = bytes(secret)
    count = length // CHECKPOINT_EVERY + 1
    body = len(MARKS_MAGIC) + 32
    if not data.startswith(MARKS_MAGIC) or len(data) != body + 32 * count:
        return False
    links = data[body:]
    if not hmac.compare_digest(data[len(MARKS_MAGIC):body], _marks_tag(game, secret, length, label, links)):
        return False
    _keep((label, game, secret, length), [links[32 * i:32 * i + 32] for i in range(count)])
    return True


def chain_anchor(game: str, secret: bytes, length: int, label: str = CHAIN_LABEL) -> bytes:
    return chain_seed(game, secret, length, 0, label)


def seed_follows(game: str, seed: bytes, previous: bytes, label: str = CHAIN_LABEL) -> bool:
    """True when `seed` is the chain link right after `previous` (s_k against s_(k-1))."""
    return chain_step(game, seed, label) == previous


def hidden_seed(game: str, secret: bytes, length: int, k: int) -> bytes:
    """t_k of the hidden chain (§3), from its own secret t_L."""
    return chain_seed(game, secret, length, k, HIDDEN_CHAIN_LABEL)


def hidden_anchor(game: str, secret: bytes, length: int) -> bytes:
    return chain_seed(game, secret, length, 0, HIDDEN_CHAIN_LABEL)


def hidden_follows(game: str, seed: bytes, previous: bytes) -> bool:
    return chain_step(game, seed, HIDDEN_CHAIN_LABEL) == previous


def on_chain(game: str, seed: bytes, k: int, anchor: bytes, label: str = CHAIN_LABEL) -> bool:
    """Whether `seed` is link k of the chain anchored at `anchor` (hashed down k steps)."""
    return _walk(game, seed, k, label) == anchor


# --- phase seed and rolls (§4) --------------------------------------------------------------------


class SideInput(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """One side's contribution to a phase seed; both empty for a side with no orders."""

    side: str
    entropy: bytes = b""
    order_hash: bytes = b""


def phase_seed(game: str, k: int, seed: bytes, previous: bytes, sides: Sequence[SideInput]) -> bytes:
    fields: list[str | int | bytes] = [PHASE_LABEL, game, k, seed, previous]
    for entry in sides:
        fields += [entry.side, entry.entropy, entry.order_hash]
    return sha256(enc(*fields))


MAX_ROLL_RANGE = 2**64  # above it no 8-byte u is ever accepted: a hostile record would loop forever


def _rejection_sample(n: int, digest: Callable[[int], bytes]) -> int:
    if not 1 <= n <= MAX_ROLL_RANGE:
        raise ValueError(f"a roll needs 1 <= n <= 2**64, got {n}")
    limit = 2**64 - (2**64 % n)
    j = 0
    while True:
        u = int.from_bytes(digest(j)[:8], "big")
        if u < limit:
            return u % n
        j += 1


def uniform(seed: bytes, n: int, i: int) -> int:
    """Public random number i of the adjudication, uniform in 0..n-1, by rejection sampling."""
    return _rejection_sample(n, lambda j: sha256(enc(ROLL_LABEL, seed, i, j)))


def hidden_key(game: str, k: int, seed: bytes, i: int) -> bytes:
    """key_(k,i) of a restricted roll (§4): from t_k, shown only to the sides that see the roll."""
    return sha256(enc(HIDDEN_KEY_LABEL, game, k, seed, i))


def hidden_uniform(phase_seed_: bytes, key: bytes, n: int, i: int) -> int:
    """Restricted random number i, uniform in 0..n-1: needs the phase seed and the roll's key."""
    return _rejection_sample(n, lambda j: sha256(enc(HIDDEN_ROLL_LABEL, phase_seed_, key, i, j)))


def roll_value(phase_seed_: bytes, record: Mapping[str, Any]) -> int:
    """What a logged roll must be: restricted (it carries a `key`) or public."""
    if "key" in record:
        return hidden_uniform(phase_seed_, parse_hex32(record["key"]), record["n"], record["i"])
    return uniform(phase_seed_, record["n"], record["i"])


class HiddenStream(NamedTuple):
    """The hidden chain's link t_k for adjudication k: what restricted rolls draw their keys from."""

    game: str
    k: int
    seed: bytes
    sides: tuple[str, ...]  # every side of the game: a roll seen by all of them is public

    def key(self, i: int) -> bytes:
        return hidden_key(self.game, self.k, self.seed, i)


# --- the Dice object rules code uses ---------------------------------------------------------------

EVERYONE = "all"


class Roll(NamedTuple):
    """One logged random number: index, range, value, what it was for, and who may see it."""

    i: int
    n: int
    value: int
    purpose: str
    seen_by: tuple[str, ...] | None = None  # None: every side
    key: bytes | None = None  # version 2: a restricted roll's key (§4); None for a public roll

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"i": self.i, "n": self.n, "value": self.value, "for": self.purpose}
        if self.seen_by is not None:
            out["seen_by"] = list(self.seen_by)
        if self.key is not None:
            out["key"] = self.key.hex()
        return out


def roll_visible(record: dict[str, Any], side: str) -> bool:
    """Whether a logged roll (its turn-file record) may be shown to `side`."""
    return "seen_by" not in record or side in record["seen_by"]


def _sides(seen_by: Iterable[str] | None) -> tuple[str, ...] | None:
    """The sides a roll is shown to; a bare string would otherwise become one side per letter."""
    if seen_by is None:
        return None
    if isinstance(seen_by, str):
        raise TypeError(f"seen_by takes a list of sides, not the string {seen_by!r}")
    return tuple(seen_by)


class Dice:
    """The roll stream of one adjudication. Every call consumes indices in order and logs them.

    `value` in each record is the random number as drawn (0..n-1): a die shows value + 1.
    `seen_by` lists the sides allowed to see a roll; leave it None for a public roll. The
    label (`purpose`) must itself be safe for every side that sees the roll.
    """

    def __init__(self, seed: bytes, hidden: HiddenStream | None = None) -> None:
        self._seed = seed
        self._hidden = hidden  # None: protocol version 1, where every roll comes from the phase seed
        self.rolls: list[Roll] = []

    def _number(self, n: int, key: bytes | None) -> int:
        i = len(self.rolls)
        return uniform(self._seed, n, i) if key is None else hidden_uniform(self._seed, key, n, i)

    def uniform(self, n: int, purpose: str, seen_by: Iterable[str] | None = None) -> int:
        i = len(self.rolls)
        seen = _sides(seen_by)
        key = None
        if self._hidden is not None and seen is not None:
            if set(self._hidden.sides) <= set(seen):
                seen = None  # shown to every side: a public roll
            else:
                key = self._hidden.key(i)
        value = self._number(n, key)
        self.rolls.append(Roll(i, n, value, purpose, seen, key))
        return value

    def die(self, faces: int, purpose: str, seen_by: Iterable[str] | None = None) -> int:
        return self.uniform(faces, purpose, seen_by) + 1

    def dice(self, count: int, faces: int, purpose: str, seen_by: Iterable[str] | None = None) -> list[int]:
        seen = _sides(seen_by)
        return [self.die(faces, purpose, seen) for _ in range(count)]

    def draw(self, container: Iterable[str], purpose: str, seen_by: Iterable[str] | None = None) -> str:
        """A blind draw: sort the ids in plain string order, take the one at uniform(len)."""
        items = sorted(container)
        if not items:
            raise ValueError("cannot draw from an empty container")
        return items[self.uniform(len(items), purpose, seen_by)]

    def shuffle(self, items: Sequence[T], purpose: str, seen_by: Iterable[str] | None = None) -> list[T]:
        """Fisher-Yates as docs/protocol.md §4 fixes it: m from len-1 down to 1, swap m with uniform(m+1)."""
        out = list(items)
        seen = _sides(seen_by)
        for m in range(len(out) - 1, 0, -1):
            j = self.uniform(m + 1, purpose, seen)
            out[m], out[j] = out[j], out[m]
        return out


class ForcedDice(Dice):
    """Dice whose values are given in advance (case files). Values are the raw 0..n-1 numbers.

    Running past the given values, or a forced value outside 0..n-1, is an error: a case file
    must say exactly which numbers its situation needs.
    """

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__(b"\x00" * 32)
        self._values = list(values)

    def _number(self, n: int, key: bytes | None = None) -> int:
        i = len(self.rolls)
        if i >= len(self._values):
            raise ValueError(f"the case forces {len(self._values)} random numbers, but roll {i} (n={n}) was asked for")
        value = self._values[i]
        if not 0 <= value < n:
            raise ValueError(f"forced value {value} at roll {i} is outside 0..{n - 1}")
        return value

    @property
    def unused(self) -> int:
        return len(self._values) - len(self.rolls)
