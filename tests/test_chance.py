"""PROTOCOL.md §6 test vectors, reproduced exactly, and the roll-stream rules of §4."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, strategies as st

from pbem.core import chance

GAME = "vector-game"
SECRET = bytes(range(32))


def test_chain_vectors() -> None:
    assert chance.chain_seed(GAME, SECRET, 8, 1).hex() == "62c81201f2cbe606d3068e043eb5a98c5abe1386740765d5d10d42398569f808"
    assert chance.chain_anchor(GAME, SECRET, 8).hex() == "68e4a43528f1d2f2f2841691ee6657e2645c08b0638b7121c5036a382f6ab7cd"


def test_chain_links_verify_in_order() -> None:
    seeds = [chance.chain_seed(GAME, SECRET, 8, k) for k in range(9)]
    assert seeds[8] == SECRET
    for k in range(1, 9):
        assert chance.seed_follows(GAME, seeds[k], seeds[k - 1])
    assert not chance.seed_follows(GAME, seeds[2], seeds[0])
    assert not chance.seed_follows("other-game", seeds[1], seeds[0])


def vector_phase_seed() -> bytes:
    prev = hashlib.sha256(b"previous file bytes\n").digest()
    assert prev.hex() == "80273128393b1d3cc96c65267640d01fa3e8fae7e6c0c4f1ce556b19cf83fbed"
    order_hash = hashlib.sha256(b"orders a\n").digest()
    assert order_hash.hex() == "1267d1826139ea83bd5fc19cc8acf2005dc6facc9bbdebdec6a103c997b7ca5b"
    s1 = chance.chain_seed(GAME, SECRET, 8, 1)
    sides = [chance.SideInput("german", b"\xaa" * 32, order_hash), chance.SideInput("us")]
    return chance.phase_seed(GAME, 1, s1, prev, sides)


def test_phase_seed_vector() -> None:
    assert vector_phase_seed().hex() == "f943933a25c2222fb90957ef6203b2791838c1d96b493ae04f1a623d65a878bf"


def test_roll_vectors() -> None:
    seed = vector_phase_seed()
    assert [chance.uniform(seed, 6, i) + 1 for i in range(12)] == [6, 3, 6, 1, 4, 1, 5, 2, 4, 3, 5, 2]
    assert [chance.uniform(seed, 10, i) + 1 for i in range(12)] == [6, 3, 6, 7, 10, 1, 9, 8, 2, 1, 1, 10]
    assert [chance.uniform(seed, 52, i) for i in range(6)] == [7, 48, 49, 40, 31, 16]


def test_dice_object_logs_same_stream() -> None:
    dice = chance.Dice(vector_phase_seed())
    assert dice.dice(12, 6, "vector d6") == [6, 3, 6, 1, 4, 1, 5, 2, 4, 3, 5, 2]
    assert [r.i for r in dice.rolls] == list(range(12))
    assert dice.rolls[0].record() == {"i": 0, "n": 6, "value": 5, "for": "vector d6"}


def test_state_hash_vector() -> None:
    assert chance.state_hash({"b": [1, "é"], "a": None}) == (
        "sha256:f8f17faab95c024891d173fa43442b0e52007736a1f36715ac721ab22deeefc5"
    )


def test_enc_layout() -> None:
    assert chance.enc("ab", 1, b"\x00") == (
        b"\x00\x00\x00\x02ab" + b"\x00\x00\x00\x08" + (1).to_bytes(8, "big") + b"\x00\x00\x00\x01\x00"
    )
    with pytest.raises(TypeError):
        chance.enc(True)


def test_draw_sorts_container_first() -> None:
    seed = vector_phase_seed()
    ids = [f"G{n:02d}" for n in range(52)]
    dice = chance.Dice(seed)
    assert dice.draw(reversed(ids), "draw") == ids[7]  # uniform(52, 0) = 7


def test_shuffle_is_fisher_yates_with_consecutive_indices() -> None:
    seed = vector_phase_seed()
    items = ["a", "b", "c", "d"]
    expected = list(items)
    i = 0
    for m in range(3, 0, -1):
        j = chance.uniform(seed, m + 1, i)
        i += 1
        expected[m], expected[j] = expected[j], expected[m]
    dice = chance.Dice(seed)
    assert dice.shuffle(items, "shuffle") == expected
    assert len(dice.rolls) == 3


@given(st.integers(min_value=1, max_value=2**40), st.integers(min_value=0, max_value=50))
def test_uniform_in_range(n: int, i: int) -> None:
    assert 0 <= chance.uniform(b"\x01" * 32, n, i) < n


def test_rejection_sampling_retries() -> None:
    # n just over 2**63 rejects about half of all u; some index in 0..40 must need j > 0.
    n = 2**63 + 1
    seed = b"\x02" * 32
    limit = 2**64 - (2**64 % n)
    first_u = [int.from_bytes(chance.sha256(chance.enc(chance.ROLL_LABEL, seed, i, 0))[:8], "big") for i in range(40)]
    rejected = [i for i, u in enumerate(first_u) if u >= limit]
    assert rejected, "expected at least one rejected draw in 40"
    i = rejected[0]
    j = 1
    while True:
        u = int.from_bytes(chance.sha256(chance.enc(chance.ROLL_LABEL, seed, i, j))[:8], "big")
        if u < limit:
            break
        j += 1
    assert chance.uniform(seed, n, i) == u % n


def test_forced_dice_refuse_overrun_and_out_of_range() -> None:
    dice = chance.ForcedDice([5, 0])
    assert dice.die(6, "x") == 6
    assert dice.die(6, "x") == 1
    with pytest.raises(ValueError, match="forces 2"):
        dice.die(6, "x")
    with pytest.raises(ValueError, match="outside"):
        chance.ForcedDice([6]).die(6, "x")
