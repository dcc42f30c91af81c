"""Keys, SSHSIG and the armored form (docs/protocol.md §2), checked against the real OpenSSH.

docs/protocol.md §2 promises players they can sign with plain `ssh-keygen` and third parties
that `ssh-keygen -Y verify` checks what pbem signs; the interop tests below hold pbem to
that in both directions. They are skipped only where ssh-keygen is not installed.
"""

from __future__ import annotations

import base64
import getpass
import io
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pbem.core.errors import KeyFileError, SignatureError
from pbem.core.signing import (
    ArmoredBlock,
    SignatureMismatch,
    SigningKey,
    armor,
    canonical_text,
    find_armored,
    fingerprint,
    generate_keypair,
    is_canonical_text,
    load_signing_key,
    namespace,
    parse_public_key,
    sign,
    verify,
    verify_armored,
    write_keypair,
)

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")

GAME = "test-game"
ORDERS = namespace("orders", GAME)
TURN = namespace("turn", GAME)
ORDERS_TEXT = b"pbem: 1\nkind: orders\ngame: test-game\nseq: 3\nside: us\norders:\n  - move: [A1, 0504]\n"

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def run_ssh_keygen(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    assert SSH_KEYGEN is not None
    return subprocess.run(
        [SSH_KEYGEN, *map(str, args)], input=stdin, capture_output=True, timeout=60, check=False
    )


def ssh_ok(*args: str | Path, stdin: bytes | None = None) -> bytes:
    done = run_ssh_keygen(*args, stdin=stdin)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def ssh_key(
    directory: Path, name: str, *, kind: str = "ed25519", passphrase: str = "", extra: tuple[str, ...] = ()
) -> Path:
    """A key made by ssh-keygen, comment = name."""
    path = directory / name
    ssh_ok("-q", "-t", kind, "-N", passphrase, "-C", name, "-f", path, *extra)
    return path


def ssh_sign(key: Path, data: bytes, ns: str, directory: Path, stem: str = "signed") -> str:
    """`ssh-keygen -Y sign` of data, as a player would do it by hand."""
    path = directory / f"{stem}.yaml"
    path.write_bytes(data)
    ssh_ok("-Y", "sign", "-f", key, "-n", ns, path)
    return (directory / f"{stem}.yaml.sig").read_text()


def ssh_verify(
    data: bytes, sig: str, ns: str, identity: str, public_line: str, directory: Path
) -> subprocess.CompletedProcess[bytes]:
    """`ssh-keygen -Y verify` as a third party would run it."""
    allowed = directory / "allowed_signers"
    allowed.write_text(f"{identity} {public_line}\n")
    sig_path = directory / "check.sig"
    sig_path.write_text(sig)
    return run_ssh_keygen("-Y", "verify", "-f", allowed, "-I", identity, "-n", ns, "-s", sig_path, stdin=data)


def flip(data: bytes, position: int) -> bytes:
    return data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1 :]


def rejection(data: bytes, sig: str, ns: str, allowed: dict[str, str], **kw: object) -> str:
    with pytest.raises(SignatureError) as caught:
        verify(data, sig, ns, allowed, **kw)  # type: ignore[arg-type]
    return str(caught.value)


@pytest.fixture(scope="session")
def parties(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SigningKey]:
    """Keys made by pbem itself, for the tests that need no OpenSSH."""
    out = tmp_path_factory.mktemp("parties")
    keys = {}
    for name in ("us", "german", "referee"):
        private, _public = write_keypair(name, out)
        keys[name] = load_signing_key(private)
    return keys


@pytest.fixture()
def no_passphrase_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """No argument, no PBEM_PASSPHRASE, stdin not a terminal."""
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))


def lines_of(keys: dict[str, SigningKey], *names: str) -> dict[str, str]:
    return {name: keys[name].public_line for name in names}


# ---------------------------------------------------------------------------
# namespaces
# ---------------------------------------------------------------------------


def test_namespace_names_kind_and_game() -> None:
    assert namespace("orders", "vector-game") == "pbem-orders@vector-game"
    assert namespace("turn", "vector-game") == "pbem-turn@vector-game"


@pytest.mark.parametrize("kind, game", [("order", "test-game"), ("orders", "Test-Game"), ("turn", "ab"), ("turn", "")])
def test_namespace_refuses_bad_kind_or_game(kind: str, game: str) -> None:
    with pytest.raises(ValueError):
        namespace(kind, game)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# keys made by pbem
# ---------------------------------------------------------------------------


def test_write_keypair_files(tmp_path: Path) -> None:
    private, public = write_keypair("alice", tmp_path / "keys")
    assert (private, public) == (tmp_path / "keys" / "alice", tmp_path / "keys" / "alice.pub")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    text = private.read_text()
    assert text.startswith("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    assert text.endswith("-----END OPENSSH PRIVATE KEY-----\n")
    assert all(len(line) <= 70 for line in text.splitlines())
    public_line = public.read_text()
    assert public_line.endswith(" alice\n") and public_line.count("\n") == 1
    key = load_signing_key(private)
    assert key.public_line == public_line.strip()  # the comment comes back out of the private key
    parse_public_key(public_line)


def test_generate_keypair_is_fresh_and_loadable(tmp_path: Path) -> None:
    first, second = generate_keypair("x"), generate_keypair("x")
    assert first[1] != second[1]
    (tmp_path / "k").write_bytes(first[0])
    assert load_signing_key(tmp_path / "k").public_line == first[1]
    with pytest.raises(ValueError):
        generate_keypair("two\nlines")


def test_write_keypair_refuses_to_overwrite(tmp_path: Path) -> None:
    private, public = write_keypair("bob", tmp_path)
    before = private.read_bytes()
    with pytest.raises(KeyFileError) as caught:
        write_keypair("bob", tmp_path)
    assert "overwrite" in str(caught.value) and "bob" in str(caught.value)
    assert private.read_bytes() == before
    # a stray .pub alone is enough to refuse, and no private key is left behind
    (tmp_path / "carol.pub").write_text("something\n")
    with pytest.raises(KeyFileError):
        write_keypair("carol", tmp_path)
    assert not (tmp_path / "carol").exists()


@pytest.mark.parametrize("name", ["", "..", "a/b"])
def test_write_keypair_refuses_non_file_names(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError):
        write_keypair(name, tmp_path)


@needs_ssh
def test_write_keypair_is_read_by_ssh_keygen(tmp_path: Path) -> None:
    private, public = write_keypair("referee", tmp_path)
    printed = ssh_ok("-y", "-f", private).decode().strip()
    assert printed == public.read_text().strip()
    listed = ssh_ok("-l", "-f", private).decode().split()
    assert listed[1] == fingerprint(public.read_text())
    # and OpenSSH signs with it; pbem verifies that signature
    sig = ssh_sign(private, ORDERS_TEXT, TURN, tmp_path)
    assert verify(ORDERS_TEXT, sig, TURN, {"referee": public.read_text()}) == "referee"


def _masked_container(path: Path) -> bytes:
    """The key container with the key material and the random check integers zeroed."""
    lines = path.read_text().splitlines()
    container = base64.b64decode("".join(lines[1:-1]))
    key = load_signing_key(path)
    seed = key.private.private_bytes_raw()
    raw = key.private.public_key().public_bytes_raw()
    section_start = len(b"openssh-key-v1\x00") + 8 + 8 + 4 + 4 + (4 + 51) + 4
    masked = container[:section_start] + bytes(8) + container[section_start + 8 :]
    return masked.replace(seed, bytes(32)).replace(raw, bytes(32))


@needs_ssh
def test_write_keypair_layout_equals_ssh_keygen(tmp_path: Path) -> None:
    ours, _ = write_keypair("same-comment", tmp_path / "pbem")
    theirs = ssh_key(tmp_path, "same-comment")
    assert [len(line) for line in ours.read_text().splitlines()] == [
        len(line) for line in theirs.read_text().splitlines()
    ]
    assert _masked_container(ours) == _masked_container(theirs)


# ---------------------------------------------------------------------------
# keys made by ssh-keygen
# ---------------------------------------------------------------------------


@needs_ssh
def test_load_unencrypted_ssh_keygen_key(tmp_path: Path, no_passphrase_source: None) -> None:
    path = ssh_key(tmp_path, "player one")
    key = load_signing_key(path)
    assert key.public_line == (tmp_path / "player one.pub").read_text().strip()
    assert key.public_line.endswith(" player one")


@needs_ssh
@pytest.mark.parametrize(
    "cipher",
    [
        "aes256-ctr",
        "aes128-ctr",
        "aes192-cbc",
        "aes256-cbc",
        "aes128-gcm@openssh.com",
        "aes256-gcm@openssh.com",
        "chacha20-poly1305@openssh.com",
    ],
)
def test_load_passphrase_key_by_argument(tmp_path: Path, cipher: str, no_passphrase_source: None) -> None:
    path = ssh_key(tmp_path, "locked", passphrase="secret", extra=("-Z", cipher))
    key = load_signing_key(path, b"secret")
    assert key.public_line == (tmp_path / "locked.pub").read_text().strip()
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path, b"Secret")
    assert "wrong passphrase" in str(caught.value)
    assert str(caught.value).startswith(str(path) + ":")


@needs_ssh
def test_load_passphrase_key_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_passphrase_source: None
) -> None:
    path = ssh_key(tmp_path, "locked", passphrase="correct horse")
    monkeypatch.setenv("PBEM_PASSPHRASE", "correct horse")
    assert load_signing_key(path).public_line.endswith(" locked")
    # the argument wins over the environment
    with pytest.raises(KeyFileError):
        load_signing_key(path, b"other")
    monkeypatch.setenv("PBEM_PASSPHRASE", "wrong")
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path)
    assert "wrong passphrase" in str(caught.value) and "PBEM_PASSPHRASE" in str(caught.value)


@needs_ssh
def test_encrypted_key_without_passphrase_says_how_to_give_one(tmp_path: Path, no_passphrase_source: None) -> None:
    path = ssh_key(tmp_path, "locked", passphrase="secret")
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path)
    message = str(caught.value)
    assert message.startswith(str(path) + ":")
    assert "encrypted" in message and "PBEM_PASSPHRASE" in message


@needs_ssh
def test_encrypted_key_asks_at_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_passphrase_source: None
) -> None:
    path = ssh_key(tmp_path, "locked", passphrase="typed")
    prompts: list[str] = []

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def fake_getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return "typed"

    monkeypatch.setattr(sys, "stdin", Terminal(""))
    monkeypatch.setattr(getpass, "getpass", fake_getpass)
    assert load_signing_key(path).public_line.endswith(" locked")
    assert len(prompts) == 1 and str(path) in prompts[0]


@needs_ssh
@pytest.mark.parametrize(
    "kind, extra, expected",
    [
        ("rsa", ("-b", "2048"), "ssh-rsa (RSA)"),
        ("ecdsa", (), "ecdsa-sha2-nistp256 (ECDSA)"),
        ("rsa", ("-b", "2048", "-m", "PEM"), "RSA key in the old PEM format"),
    ],
)
def test_non_ed25519_keys_are_refused_naming_the_type(
    tmp_path: Path, kind: str, extra: tuple[str, ...], expected: str, no_passphrase_source: None
) -> None:
    path = ssh_key(tmp_path, "other", kind=kind, extra=extra)
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path)
    assert expected in str(caught.value)
    assert str(caught.value).startswith(str(path) + ":")
    assert "ed25519" in str(caught.value)


@needs_ssh
def test_encrypted_rsa_key_is_refused_before_asking_the_passphrase(tmp_path: Path, no_passphrase_source: None) -> None:
    path = ssh_key(tmp_path, "other", kind="rsa", passphrase="secret", extra=("-b", "2048"))
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path)
    assert "ssh-rsa" in str(caught.value) and "passphrase" not in str(caught.value)


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"just some text\n", "not an OpenSSH private key file"),
        (b"", "not an OpenSSH private key file"),
        (b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHee9ymjIYL0XAZEUjElIXkfHMQPJEbfAsCGVH5tm/yy x\n", "is a public key"),
        (b"-----BEGIN OPENSSH PRIVATE KEY-----\n!!!!\n-----END OPENSSH PRIVATE KEY-----\n", "not base64"),
        (b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n", "no -----END"),
        (b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n", "openssh-key-v1"),
        (b"PuTTY-User-Key-File-3: ssh-ed25519\n", "PuTTY"),
    ],
)
def test_not_a_key_file(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "id_thing"
    path.write_bytes(content)
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path)
    assert expected in str(caught.value)
    assert str(caught.value).startswith(str(path) + ":")


def test_truncated_key_file_is_damaged(tmp_path: Path) -> None:
    data, _ = generate_keypair("t")
    lines = data.decode().splitlines()
    cut = "\n".join(lines[:3] + lines[-1:]) + "\n"  # keep base64 valid, lose the private part
    path = tmp_path / "cut"
    path.write_text(cut)
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(path)
    assert "damaged private key" in str(caught.value)


def test_missing_key_file(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError) as caught:
        load_signing_key(tmp_path / "nowhere")
    assert "cannot read" in str(caught.value) and "nowhere" in str(caught.value)


# ---------------------------------------------------------------------------
# public key lines and fingerprints
# ---------------------------------------------------------------------------


def test_parse_public_key_gives_the_key(parties: dict[str, SigningKey]) -> None:
    key = parties["us"]
    parsed = parse_public_key(key.public_line)
    assert parsed.public_bytes_raw() == key.private.public_key().public_bytes_raw()
    bare = " ".join(key.public_line.split()[:2])  # without a comment
    assert parse_public_key(bare + "\n").public_bytes_raw() == parsed.public_bytes_raw()


def _ssh_string(value: bytes) -> bytes:
    return len(value).to_bytes(4, "big") + value


RSA_LINE = "ssh-rsa " + base64.b64encode(
    _ssh_string(b"ssh-rsa") + _ssh_string(b"\x01\x00\x01") + _ssh_string(b"\x00" + bytes(range(1, 129)))
).decode() + " an rsa key"


@pytest.mark.parametrize(
    "line, expected",
    [
        (RSA_LINE, "ssh-rsa (RSA)"),
        ("ssh-ed25519", "not an OpenSSH public key line"),
        ("us ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHee9ymjIYL0XAZEUjElIXkfHMQPJEbfAsCGVH5tm/yy", "base64"),
        (
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHee9ymjIYL0XAZEUjElIXkfHMQPJEbfAsCGVH5tm/yy\nssh-ed25519 AAAA",
            "one line",
        ),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHee9ymjIYL0XAZEUjElIXkf", "damaged public key"),
        ("ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAAAgQDD", "holds ssh-rsa"),
    ],
)
def test_parse_public_key_refuses(line: str, expected: str) -> None:
    with pytest.raises(KeyFileError) as caught:
        parse_public_key(line)
    assert expected in str(caught.value)


@needs_ssh
def test_fingerprint_equals_ssh_keygen_l(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        path = ssh_key(tmp_path, name)
        printed = ssh_ok("-l", "-f", f"{path}.pub").decode().split()[1]
        assert fingerprint((tmp_path / f"{name}.pub").read_text()) == printed


# ---------------------------------------------------------------------------
# SSHSIG interop with OpenSSH
# ---------------------------------------------------------------------------

WRAP_EDGE_GAME = "a-game-id-of-twenty-seven-c"  # its blob is exactly four 70-column base64 lines


@needs_ssh
@pytest.mark.parametrize(
    "data, ns",
    [
        (ORDERS_TEXT, ORDERS),
        (b"", TURN),
        (bytes(range(256)) * 40, namespace("orders", "vector-game")),
        (b"x\n", namespace("orders", WRAP_EDGE_GAME)),
    ],
)
def test_signature_is_byte_identical_to_ssh_keygen(tmp_path: Path, data: bytes, ns: str) -> None:
    path = ssh_key(tmp_path, "id_ed25519")
    ours = sign(data, load_signing_key(path), ns)
    assert ours == ssh_sign(path, data, ns, tmp_path)
    assert ours.endswith("-----END SSH SIGNATURE-----\n")


def test_wrap_edge_really_is_an_edge(parties: dict[str, SigningKey]) -> None:
    sig = sign(b"x\n", parties["us"], namespace("orders", WRAP_EDGE_GAME))
    body = sig.splitlines()[1:-1]
    assert len("".join(body)) == 4 * 70 and all(len(line) == 70 for line in body)


@needs_ssh
def test_pbem_signature_verifies_with_ssh_keygen(tmp_path: Path, parties: dict[str, SigningKey]) -> None:
    key = parties["us"]
    sig = sign(ORDERS_TEXT, key, ORDERS)
    good = ssh_verify(ORDERS_TEXT, sig, ORDERS, "us", key.public_line, tmp_path)
    assert good.returncode == 0, good.stderr
    # the same check fails when it should, so the pass above means something
    assert ssh_verify(ORDERS_TEXT + b" ", sig, ORDERS, "us", key.public_line, tmp_path).returncode != 0
    assert ssh_verify(ORDERS_TEXT, sig, TURN, "us", key.public_line, tmp_path).returncode != 0


@needs_ssh
def test_ssh_keygen_signature_verifies_with_pbem(tmp_path: Path) -> None:
    path = ssh_key(tmp_path, "german")
    german_line = (tmp_path / "german.pub").read_text()
    us_path = ssh_key(tmp_path, "us")
    us_line = (tmp_path / "us.pub").read_text()
    sig = ssh_sign(path, ORDERS_TEXT, ORDERS, tmp_path)
    assert verify(ORDERS_TEXT, sig, ORDERS, {"us": us_line, "german": german_line}) == "german"
    # and signed with the other key, the other name comes back
    sig_us = ssh_sign(us_path, ORDERS_TEXT, ORDERS, tmp_path, stem="other")
    assert verify(ORDERS_TEXT, sig_us, ORDERS, {"us": us_line, "german": german_line}) == "us"


@needs_ssh
def test_sha256_signature_is_refused_as_unsupported_hash(tmp_path: Path) -> None:
    path = ssh_key(tmp_path, "k")
    sig_path = tmp_path / "o.yaml"
    sig_path.write_bytes(ORDERS_TEXT)
    ssh_ok("-Y", "sign", "-f", path, "-n", ORDERS, "-O", "hashalg=sha256", sig_path)
    sig = (tmp_path / "o.yaml.sig").read_text()
    message = rejection(ORDERS_TEXT, sig, ORDERS, {"k": (tmp_path / "k.pub").read_text()})
    assert "unsupported hash 'sha256'" in message


@needs_ssh
def test_rsa_signature_is_refused_as_unsupported_key_type(tmp_path: Path, parties: dict[str, SigningKey]) -> None:
    path = ssh_key(tmp_path, "rsa", kind="rsa", extra=("-b", "2048"))
    sig = ssh_sign(path, ORDERS_TEXT, ORDERS, tmp_path)
    message = rejection(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"))
    assert "unsupported key type" in message and "ssh-rsa" in message


# ---------------------------------------------------------------------------
# rejections, each saying which check failed
# ---------------------------------------------------------------------------


def test_verify_returns_the_signer(parties: dict[str, SigningKey]) -> None:
    allowed = lines_of(parties, "us", "german")
    assert verify(ORDERS_TEXT, sign(ORDERS_TEXT, parties["german"], ORDERS), ORDERS, allowed) == "german"
    assert verify(ORDERS_TEXT, sign(ORDERS_TEXT, parties["us"], ORDERS), ORDERS, allowed) == "us"


def test_wrong_key_unknown(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["german"], ORDERS)
    message = rejection(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"), file="orders-us.yaml")
    assert message.startswith("orders-us.yaml:")
    assert "wrong key" in message
    assert fingerprint(parties["german"].public_line) in message
    assert fingerprint(parties["us"].public_line) in message  # what was expected
    assert "german" not in message  # nobody told verify whose key that is
    assert "namespace" not in message


def test_wrong_key_named_from_others(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["german"], ORDERS)
    message = rejection(
        ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"), others=lines_of(parties, "german", "referee")
    )
    assert "signed with german's key" in message and "us's key" in message


def test_wrong_game(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], namespace("orders", "other-game"))
    message = rejection(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"))
    assert "signed for game 'other-game', this is game 'test-game'" in message
    assert "signed as" not in message and "wrong key" not in message


def test_wrong_kind_referee_file_where_orders_expected(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], TURN)
    message = rejection(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"))
    assert (
        "signed as a referee file (pbem-turn@test-game), expected a player's (pbem-orders@test-game)" in message
    )
    assert "signed for game" not in message


def test_wrong_kind_player_file_where_referee_expected(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["referee"], ORDERS)
    message = rejection(ORDERS_TEXT, sig, TURN, lines_of(parties, "referee"))
    assert "signed as a player's file (pbem-orders@test-game)" in message and "pbem-turn@test-game" in message


def test_wrong_game_and_kind_and_key_all_reported(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["german"], namespace("turn", "other-game"))
    message = rejection(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"))
    assert "signed for game 'other-game'" in message and "signed as a referee file" in message
    assert "wrong key" in message


def test_foreign_namespace(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], "git")
    message = rejection(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us"))
    assert "signed under 'git', expected 'pbem-orders@test-game'" in message


@pytest.mark.parametrize("position", [0, 1, 17, len(ORDERS_TEXT) // 2, len(ORDERS_TEXT) - 2, len(ORDERS_TEXT) - 1])
def test_flipped_data_byte(parties: dict[str, SigningKey], position: int) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    with pytest.raises(SignatureMismatch) as caught:
        verify(flip(ORDERS_TEXT, position), sig, ORDERS, lines_of(parties, "us"), file="orders.yaml")
    message = str(caught.value)
    assert message.startswith("orders.yaml:")
    assert "bad signature" in message and "changed after it was signed" in message


def test_appended_or_dropped_bytes(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    for changed in (ORDERS_TEXT + b"\n", ORDERS_TEXT[:-1], b"", ORDERS_TEXT.replace(b"\n", b"\r\n")):
        with pytest.raises(SignatureMismatch):
            verify(changed, sig, ORDERS, lines_of(parties, "us"))


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _flip_base64(sig: str, index: int) -> str:
    """Change the index-th base64 character of an armored signature to the next one."""
    lines = sig.splitlines(keepends=True)
    body = "".join(lines[1:-1]).replace("\n", "")
    changed = body[:index] + _B64[(_B64.index(body[index]) + 1) % 64] + body[index + 1 :]
    return lines[0] + "".join(changed[i : i + 70] + "\n" for i in range(0, len(changed), 70)) + lines[-1]


def test_every_flipped_signature_character_is_rejected(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    body = "".join(sig.splitlines()[1:-1])
    original = base64.b64decode(body)
    kinds: set[str] = set()
    for index in range(len(body.rstrip("="))):
        damaged = _flip_base64(sig, index)
        if base64.b64decode("".join(damaged.splitlines()[1:-1])) == original:
            continue  # only unused padding bits changed
        with pytest.raises(SignatureError) as caught:
            verify(ORDERS_TEXT, damaged, ORDERS, lines_of(parties, "us"))
        message = str(caught.value)
        verdicts = ("malformed", "wrong key", "wrong namespace", "bad signature", "unsupported")
        kinds.update(k for k in verdicts if k in message)
    # damage in different places is reported as different things
    assert {"malformed", "bad signature", "wrong namespace"} <= kinds


def test_flipped_signature_value_and_marker(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    length = len("".join(sig.splitlines()[1:-1]).rstrip("="))
    with pytest.raises(SignatureMismatch):  # inside the 64 signature bytes at the end
        verify(ORDERS_TEXT, _flip_base64(sig, length - 20), ORDERS, lines_of(parties, "us"))
    message = rejection(ORDERS_TEXT, _flip_base64(sig, 0), ORDERS, lines_of(parties, "us"))
    assert "malformed signature" in message and "SSHSIG" in message


def test_truncated_signature(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    lines = sig.splitlines(keepends=True)
    short = "".join(lines[:-2] + lines[-1:])  # lose the last base64 line
    message = rejection(ORDERS_TEXT, short, ORDERS, lines_of(parties, "us"))
    assert "malformed signature" in message and "truncated" in message
    cut = sig[: len(sig) // 2]  # cut off in the middle: no END line
    message = rejection(ORDERS_TEXT, cut, ORDERS, lines_of(parties, "us"))
    assert "malformed signature" in message and "END SSH SIGNATURE" in message


@pytest.mark.parametrize(
    "garbage, expected",
    [
        ("", "does not start with"),
        ("hello, this is my signature", "does not start with"),
        ("-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----\n", "not valid base64"),
        ("-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n", "empty"),
        ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n", "truncated"),
        ("-----BEGIN SSH SIGNATURE-----\naGVsbG8gd29ybGQ=\n-----END SSH SIGNATURE-----\n", "SSHSIG"),
        ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAg==\n-----END SSH SIGNATURE-----\n", "version 2"),
    ],
)
def test_garbage_signature(parties: dict[str, SigningKey], garbage: str, expected: str) -> None:
    message = rejection(ORDERS_TEXT, garbage, ORDERS, lines_of(parties, "us"), file="o.yaml.sig")
    assert message.startswith("o.yaml.sig:")
    assert "malformed signature" in message and expected in message


def test_signature_with_crlf_lines_still_parses(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS).replace("\n", "\r\n")
    assert verify(ORDERS_TEXT, sig, ORDERS, lines_of(parties, "us")) == "us"


# ---------------------------------------------------------------------------
# canonical text
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, canonical",
    [
        (b"a\r\nb\r\n", b"a\nb\n"),
        (b"a\rb", b"a\nb\n"),
        (b"a  \nb\t\n", b"a\nb\n"),
        (b"a\n\n\n", b"a\n"),
        (b"a", b"a\n"),
        (b"  lead kept\n\nmid kept\n", b"  lead kept\n\nmid kept\n"),
        (b"a \r\n \t\r\n", b"a\n"),
        (b"", b"\n"),
    ],
)
def test_canonical_text(raw: bytes, canonical: bytes) -> None:
    assert canonical_text(raw) == canonical
    assert is_canonical_text(canonical)
    assert is_canonical_text(raw) == (raw == canonical)


@given(st.binary(max_size=200))
def test_canonical_text_properties(raw: bytes) -> None:
    once = canonical_text(raw)
    assert canonical_text(once) == once
    assert is_canonical_text(once)
    assert once.split() == raw.split()  # only whitespace changes
    assert b"\r" not in once and once.endswith(b"\n")
    assert once == b"\n" or not once.endswith(b"\n\n")


# ---------------------------------------------------------------------------
# the armored form
# ---------------------------------------------------------------------------


def _armored(
    key: SigningKey, text: bytes = ORDERS_TEXT, name: str | None = "orders-us-3.yaml", ns: str = ORDERS
) -> str:
    return armor(text, sign(text, key, ns), name)


def test_armor_layout(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    expected = (
        "-----BEGIN PBEM SIGNED FILE-----\nName: o.yaml\n\n"
        + ORDERS_TEXT.decode()
        + sig
        + "-----END PBEM SIGNED FILE-----\n"
    )
    assert armor(ORDERS_TEXT, sig, "o.yaml") == expected
    assert armor(ORDERS_TEXT, sig).startswith("-----BEGIN PBEM SIGNED FILE-----\n\npbem: 1\n")


def test_armored_round_trip(parties: dict[str, SigningKey]) -> None:
    carrier = _armored(parties["us"]).encode()
    [block] = find_armored(carrier)
    assert block == ArmoredBlock(
        name="orders-us-3.yaml", text=ORDERS_TEXT, signature=sign(ORDERS_TEXT, parties["us"], ORDERS), line=1
    )
    assert verify_armored(block, ORDERS, lines_of(parties, "us", "german")) == (ORDERS_TEXT, "us")


@needs_ssh
def test_armored_hand_signed_file_survives_mail_and_verifies_with_ssh_keygen(tmp_path: Path) -> None:
    # a player signs with ssh-keygen, pastes file and .sig into a reply; the referee's
    # accepted bytes must still satisfy ssh-keygen -Y verify (docs/protocol.md §2, §5)
    path = ssh_key(tmp_path, "us")
    line = (tmp_path / "us.pub").read_text()
    sig = ssh_sign(path, ORDERS_TEXT, ORDERS, tmp_path)
    quoted = "".join(f"> {l}" if l.strip() else ">\n" for l in armor(ORDERS_TEXT, sig).splitlines(keepends=True))
    carrier = ("Here are my orders.\n\n" + quoted + "\n-- \nus\n").replace("\n", "\r\n").encode()
    [block] = find_armored(carrier)
    accepted, signer = verify_armored(block, ORDERS, {"us": line})
    assert (accepted, signer) == (ORDERS_TEXT, "us")
    assert ssh_verify(accepted, block.signature, ORDERS, "us", line, tmp_path).returncode == 0


def test_armored_crlf_transport(parties: dict[str, SigningKey]) -> None:
    carrier = _armored(parties["us"]).replace("\n", "\r\n").encode()
    [block] = find_armored(carrier)
    assert b"\r\n" in block.text  # the exact bytes as they arrived
    assert "\r" not in block.signature
    assert verify_armored(block, ORDERS, lines_of(parties, "us")) == (ORDERS_TEXT, "us")


def test_armored_trailing_spaces_added_in_transit(parties: dict[str, SigningKey]) -> None:
    damaged = "".join(l.rstrip("\n") + " \t \n" for l in _armored(parties["us"]).splitlines(keepends=True))
    [block] = find_armored(damaged.encode())
    assert block.text != ORDERS_TEXT
    assert block.name == "orders-us-3.yaml"
    assert verify_armored(block, ORDERS, lines_of(parties, "us")) == (ORDERS_TEXT, "us")


@pytest.mark.parametrize("prefix", ["> ", ">", "> > ", ">> ", "    "])
def test_armored_quoted_in_a_reply(parties: dict[str, SigningKey], prefix: str) -> None:
    text = b"pbem: 1\n\nkind: orders\n  indented: yes\n"  # an empty line and indentation inside
    body = _armored(parties["us"], text)
    quoted = "".join(
        (prefix + l) if l.strip() else prefix.rstrip() + "\n" for l in body.splitlines(keepends=True)
    )
    carrier = f"On Monday, us wrote:\n{quoted}\nThanks, referee\n".encode()
    [block] = find_armored(carrier)
    assert block.line == 2
    assert verify_armored(block, ORDERS, lines_of(parties, "us")) == (text, "us")


def test_two_blocks_in_one_carrier(parties: dict[str, SigningKey]) -> None:
    german_text = ORDERS_TEXT.replace(b"side: us", b"side: german")
    carrier = (
        "junk before\n"
        + _armored(parties["us"], name="orders-us.yaml")
        + "between the blocks\n\n"
        + _armored(parties["german"], german_text, name="orders-german.yaml")
        + "junk after"
    ).encode()
    first, second = find_armored(carrier, file="mail.txt")
    assert (first.name, first.line) == ("orders-us.yaml", 2)
    assert second.name == "orders-german.yaml"
    assert carrier.splitlines()[second.line - 1] == b"-----BEGIN PBEM SIGNED FILE-----"
    allowed = lines_of(parties, "us", "german")
    assert verify_armored(first, ORDERS, allowed) == (ORDERS_TEXT, "us")
    assert verify_armored(second, ORDERS, allowed) == (german_text, "german")


def test_no_blocks_in_plain_mail() -> None:
    assert find_armored(b"Hello,\r\nno orders this turn.\r\n") == []
    assert find_armored(b"") == []
    # a marker inside a sentence is not a block
    assert find_armored(b"Paste a -----BEGIN PBEM SIGNED FILE----- block please\n") == []


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.replace("move: [A1, 0504]", "move:  [A1,  0504]"),  # whitespace changed inside a line
        lambda s: s.replace("kind: orders\n", "kind:\norders\n"),  # re-wrapped
    ],
)
def test_armored_text_damaged_inside_lines(parties: dict[str, SigningKey], change: object) -> None:
    carrier = ("mail\n" + change(_armored(parties["us"]))).encode()  # type: ignore[operator]
    [block] = find_armored(carrier)
    with pytest.raises(SignatureMismatch) as caught:
        verify_armored(block, ORDERS, lines_of(parties, "us"), file="mail-42.eml")
    message = str(caught.value)
    assert message.startswith("mail-42.eml:2:")
    assert "orders-us-3.yaml" in message
    assert "re-wrapped or had whitespace changed in transit" in message


def test_armored_collapsed_double_space_in_signed_text(parties: dict[str, SigningKey]) -> None:
    text = b"note: hold  the  bridge\n"  # the double spaces are part of what was signed
    carrier = _armored(parties["us"], text).replace("hold  the  bridge", "hold the bridge").encode()
    [block] = find_armored(carrier)
    with pytest.raises(SignatureError) as caught:
        verify_armored(block, ORDERS, lines_of(parties, "us"))
    assert "re-wrapped or had whitespace changed" in str(caught.value)


def test_armored_wrong_key_is_not_blamed_on_transit(parties: dict[str, SigningKey]) -> None:
    [block] = find_armored(_armored(parties["german"]).encode())
    with pytest.raises(SignatureError) as caught:
        verify_armored(block, ORDERS, lines_of(parties, "us"), file="mail.txt", others=lines_of(parties, "german"))
    message = str(caught.value)
    assert not isinstance(caught.value, SignatureMismatch)
    assert message.startswith("mail.txt:1:") and "signed with german's key" in message
    assert "transit" not in message


def test_armored_exact_bytes_win_over_canonical(parties: dict[str, SigningKey]) -> None:
    # Someone signed non-canonical bytes and built the block by hand: the exact bytes
    # verify, so they are what is accepted (and what the archive will hash).
    exact = b"a: 1   \nb: 2\n"
    sig = sign(exact, parties["us"], ORDERS)
    carrier = b"-----BEGIN PBEM SIGNED FILE-----\n\n" + exact + sig.encode() + b"-----END PBEM SIGNED FILE-----\n"
    [block] = find_armored(carrier)
    assert verify_armored(block, ORDERS, lines_of(parties, "us")) == (exact, "us")


def test_begin_without_end(parties: dict[str, SigningKey]) -> None:
    body = _armored(parties["us"])
    carrier = ("hello\nworld\n" + body[: body.index("-----END PBEM")]).encode()
    with pytest.raises(SignatureError) as caught:
        find_armored(carrier, file="post.txt")
    message = str(caught.value)
    assert message.startswith("post.txt:3:") and "at line 3 has no END line" in message


def test_begin_followed_by_another_begin(parties: dict[str, SigningKey]) -> None:
    carrier = ("-----BEGIN PBEM SIGNED FILE-----\n\nhalf a file\n" + _armored(parties["us"])).encode()
    with pytest.raises(SignatureError) as caught:
        find_armored(carrier)
    assert "at line 1 has no END line before the next BEGIN at line 4" in str(caught.value)


def test_quoted_block_cut_short(parties: dict[str, SigningKey]) -> None:
    lines = _armored(parties["us"]).splitlines(keepends=True)
    carrier = ("> " + "> ".join(lines[:6]) + "my answer, unquoted\n").encode()
    with pytest.raises(SignatureError) as caught:
        find_armored(carrier)
    assert "line 1 has no END line" in str(caught.value) and "line 7 is not quoted" in str(caught.value)


def test_block_without_signature() -> None:
    carrier = b"x\n-----BEGIN PBEM SIGNED FILE-----\nName: a.yaml\n\ntext\n-----END PBEM SIGNED FILE-----\n"
    with pytest.raises(SignatureError) as caught:
        find_armored(carrier, file="m")
    assert str(caught.value).startswith("m:2:") and "has no signature" in str(caught.value)


@pytest.mark.parametrize(
    "header, line",
    [
        ("Name: a\nName: b\n\n", 3),
        ("Version: 1\n\n", 2),
        ("", 2),  # the empty line after the header got lost: "pbem: 1" is no header
    ],
)
def test_bad_header(parties: dict[str, SigningKey], header: str, line: int) -> None:
    body = _armored(parties["us"], name=None).replace("-----\n\n", "-----\n" + header, 1)
    with pytest.raises(SignatureError) as caught:
        find_armored(body.encode(), file="m")
    assert str(caught.value).startswith(f"m:{line}:")
    assert "expected one 'Name: <file>' header or the empty line" in str(caught.value)


def test_unclosed_signature_block(parties: dict[str, SigningKey]) -> None:
    body = _armored(parties["us"]).replace("-----END SSH SIGNATURE-----\n", "")
    with pytest.raises(SignatureError) as caught:
        find_armored(body.encode())
    assert "not closed by -----END SSH SIGNATURE-----" in str(caught.value)


@pytest.mark.parametrize(
    "text, expected",
    [
        (b"a\r\nb\n", "not canonical"),
        (b"a \n", "not canonical"),
        (b"a", "not canonical"),
        (b"a\n\n", "not canonical"),
        (b"ok\n-----BEGIN PGP SIGNATURE-----\n", "line 2"),
        (b"\xff\n", "not UTF-8"),
    ],
)
def test_armor_refuses_unsafe_text(parties: dict[str, SigningKey], text: bytes, expected: str) -> None:
    with pytest.raises(SignatureError) as caught:
        armor(text, sign(text, parties["us"], ORDERS))
    assert expected in str(caught.value)


def test_armor_refuses_bad_name_or_signature(parties: dict[str, SigningKey]) -> None:
    sig = sign(ORDERS_TEXT, parties["us"], ORDERS)
    for name in ("", "two\nlines", " padded"):
        with pytest.raises(ValueError):
            armor(ORDERS_TEXT, sig, name)
    with pytest.raises(ValueError):
        armor(ORDERS_TEXT, "not a signature")


# Any character but CR and LF: vertical tabs, U+2028 and friends are not line ends in PBEM text.
_LINE = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(_LINE, max_size=8),
    transport=st.sampled_from(["as is", "crlf", "quoted", "trailing", "all"]),
)
def test_armored_round_trip_property(parties: dict[str, SigningKey], lines: list[str], transport: str) -> None:
    text = canonical_text("\n".join(lines).encode("utf-8"))
    assume(not any(line.startswith(b"-----") for line in text.split(b"\n")))
    carrier = _armored(parties["us"], text, name=None)
    # str.splitlines would also split at U+2028 and the like; PBEM lines end at LF only.
    if transport in ("trailing", "all"):
        carrier = carrier.replace("\n", " \t \n")
    if transport in ("quoted", "all"):
        carrier = "> " + carrier[:-1].replace("\n", "\n> ") + "\n"
    if transport in ("crlf", "all"):
        carrier = carrier.replace("\n", "\r\n")
    [block] = find_armored(("junk\n" + carrier + "junk\n").encode())
    assert verify_armored(block, ORDERS, lines_of(parties, "us")) == (text, "us")

