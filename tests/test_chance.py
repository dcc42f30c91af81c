"""docs/protocol.md §6 test vectors, reproduced exactly, and the roll-stream rules of §4."""

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


# --- protocol version 2: the hidden chain and restricted rolls (§3, §4, §6) ---------------------

HIDDEN_SECRET = bytes(range(0x20, 0x40))


def test_hidden_chain_vectors() -> None:
    assert chance.hidden_seed(GAME, HIDDEN_SECRET, 8, 1).hex() == (
        "5bd8405e548519c824202c775813cf2dbe04d0e32bba2fb3b31aed84ab1a7fc1")
    assert chance.hidden_anchor(GAME, HIDDEN_SECRET, 8).hex() == (
        "3839a203b19f81b82954d44ac5908db1d97545ed31d16770d25db2e2aef7a414")


def test_hidden_key_vectors() -> None:
    t1 = chance.hidden_seed(GAME, HIDDEN_SECRET, 8, 1)
    assert chance.hidden_key(GAME, 1, t1, 3).hex() == (
        "dd205a2250b5f2341af8fb37b6b984cf257d09a0292b6ce7d44b2b27e7b4d704")
    assert chance.hidden_key(GAME, 1, t1, 4).hex() == (
        "85b51712862ea885c7f17050586669d1ee445726d03987a1af1c271b852529d1")


def test_restricted_roll_vectors() -> None:
    seed = vector_phase_seed()
    t1 = chance.hidden_seed(GAME, HIDDEN_SECRET, 8, 1)
    keys = [chance.hidden_key(GAME, 1, t1, i) for i in range(12)]
    assert [chance.hidden_uniform(seed, keys[i], 6, i) + 1 for i in range(12)] == [6, 3, 6, 5, 1, 5, 3, 6, 4, 2, 1, 1]
    assert [chance.hidden_uniform(seed, keys[i], 30, i) for i in range(6)] == [17, 20, 11, 10, 12, 28]


def test_hidden_chain_differs_from_seed_chain() -> None:
    # The same secret under the two labels gives unrelated chains: one never reveals the other.
    assert chance.hidden_seed(GAME, SECRET, 8, 1) != chance.chain_seed(GAME, SECRET, 8, 1)
    t = [chance.hidden_seed(GAME, HIDDEN_SECRET, 8, k) for k in range(9)]
    assert all(chance.hidden_follows(GAME, t[k], t[k - 1]) for k in range(1, 9))
    assert chance.on_chain(GAME, t[5], 5, t[0], chance.HIDDEN_CHAIN_LABEL)
    assert not chance.on_chain(GAME, t[5], 4, t[0], chance.HIDDEN_CHAIN_LABEL)


def test_dice_draws_restricted_rolls_from_the_hidden_stream_with_shared_indices() -> None:
    seed = vector_phase_seed()
    t1 = chance.hidden_seed(GAME, HIDDEN_SECRET, 8, 1)
    dice = chance.Dice(seed, chance.HiddenStream(GAME, 1, t1, ("german", "us")))
    public = dice.die(6, "public d6")
    hidden = [dice.die(6, "german only", seen_by=["german"]) for _ in range(3)]
    everyone = dice.die(6, "shown to both", seen_by=["us", "german"])
    assert public == 6  # public vector, i = 0
    assert hidden == [3, 6, 5]  # restricted vector, i = 1, 2, 3: indices are shared
    assert everyone == 4  # public vector, i = 4: a roll seen by every side is public
    records = [roll.record() for roll in dice.rolls]
    assert records[1] == {"i": 1, "n": 6, "value": 2, "for": "german only", "seen_by": ["german"],
                          "key": chance.hidden_key(GAME, 1, t1, 1).hex()}
    assert "key" not in records[4] and "seen_by" not in records[4]
    assert [chance.roll_value(seed, record) for record in records] == [r.value for r in dice.rolls]


def test_restricted_roll_is_not_the_public_roll_of_its_index() -> None:
    # Version 1's hole: the public stream at a hidden roll's index. Version 2 must not use it.
    seed = vector_phase_seed()
    t1 = chance.hidden_seed(GAME, HIDDEN_SECRET, 8, 1)
    public = [chance.uniform(seed, 2**32, i) for i in range(20)]
    hidden = [chance.hidden_uniform(seed, chance.hidden_key(GAME, 1, t1, i), 2**32, i) for i in range(20)]
    assert all(a != b for a, b in zip(public, hidden))


def test_a_range_no_draw_can_fit_is_refused_not_looped() -> None:
    with pytest.raises(ValueError):
        chance.uniform(b"\x01" * 32, 2**64 + 1, 0)
    with pytest.raises(ValueError):
        chance.hidden_uniform(b"\x01" * 32, b"\x02" * 32, 0, 0)
