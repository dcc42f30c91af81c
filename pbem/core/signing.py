"""Keys, SSHSIG signatures and the armored PBEM form (docs/protocol.md §2).

Everything here is byte-compatible with OpenSSH, because docs/protocol.md §2 promises that
a player can sign with `ssh-keygen -Y sign` alone and that a third party can check every
signature with `ssh-keygen -Y verify`:

- private keys are read and written in the `openssh-key-v1` container (OpenSSH's
  PROTOCOL.key), including passphrase-protected ones (bcrypt KDF + AES or ChaCha20);
- signatures are SSHSIG blobs (OpenSSH's PROTOCOL.sshsig) over a SHA-512 digest,
  armored exactly as `ssh-keygen -Y sign` armors them;
- the armored PBEM form carries a canonical text and its signature inside a mail body
  or a forum post, surviving CRLF conversion, trailing-space damage and reply quoting.

Only Ed25519 is accepted (docs/protocol.md §2: every party has an OpenSSH Ed25519 key).
Ed25519 signing is deterministic, so a signature made here is byte-identical to the one
ssh-keygen makes for the same key, namespace and file.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import stat
import struct
import sys
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, Mapping, NamedTuple

from pbem.core.errors import KeyFileError, Problem, SignatureError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

# cryptography is imported where a key is opened or made, or a signature checked (about 10 ms of a
# command's start): modules that only might check a signature import this one at no such cost.

__all__ = [
    "ArmoredBlock",
    "SignatureMismatch",
    "SigningKey",
    "armor",
    "canonical_text",
    "find_armored",
    "fingerprint",
    "generate_keypair",
    "is_canonical_text",
    "load_signing_key",
    "namespace",
    "parse_public_key",
    "read_armored",
    "read_signature",
    "sign",
    "verify",
    "verify_armored",
    "write_keypair",
]

_NO_PARTIES: Mapping[str, str] = MappingProxyType({})

# ---------------------------------------------------------------------------
# Namespaces (docs/protocol.md §2): players sign under pbem-orders@<game>, the referee
# under pbem-turn@<game>. The game id pattern is the one docs/protocol.md §3 fixes.
# ---------------------------------------------------------------------------

_GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{2,63}\Z")
_PBEM_NAMESPACE = re.compile(r"pbem-(orders|turn)@(.+)\Z", re.DOTALL)
# How a kind of namespace reads in an error message.
_KIND_AS = {"turn": "a referee file", "orders": "a player's file"}
_KIND_EXPECTED = {"turn": "a referee file's", "orders": "a player's"}


def namespace(kind: Literal["orders", "turn"], game: str) -> str:
    """The SSHSIG namespace for what a player ("orders") or the referee ("turn") signs in `game`."""
    if kind not in ("orders", "turn"):
        raise ValueError(f"namespace kind must be 'orders' or 'turn', not {kind!r}")
    if not _GAME_ID.match(game):
        raise ValueError(f"game id {game!r} does not match [a-z0-9][a-z0-9-]{{2,63}} (docs/protocol.md §3)")
    return f"pbem-{kind}@{game}"


# ---------------------------------------------------------------------------
# SSH wire encoding: uint32 big-endian lengths in front of strings (RFC 4251 §5).
# ---------------------------------------------------------------------------


class _WireError(ValueError):
    """A blob ended early or held something it must not; the message says what."""


def _string(value: bytes) -> bytes:
    return struct.pack(">I", len(value)) + value


def _uint32(value: int) -> bytes:
    return struct.pack(">I", value)


class _Reader:
    """Reads SSH wire fields one after another, naming the field when the blob runs out."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def raw(self, size: int, field: str) -> bytes:
        end = self._pos + size
        if end > len(self._data):
            raise _WireError(f"truncated: the {field} runs past the end of the data")
        chunk = self._data[self._pos : end]
        self._pos = end
        return chunk

    def uint32(self, field: str) -> int:
        value: int = struct.unpack(">I", self.raw(4, field))[0]
        return value

    def string(self, field: str) -> bytes:
        return self.raw(self.uint32(f"length of the {field}"), field)

    def text(self, field: str) -> str:
        try:
            return self.string(field).decode("utf-8")
        except UnicodeDecodeError:
            raise _WireError(f"the {field} is not UTF-8 text") from None

    def rest(self) -> bytes:
        chunk = self._data[self._pos :]
        self._pos = len(self._data)
        return chunk

    def expect_end(self, what: str) -> None:
        extra = len(self._data) - self._pos
        if extra:
            raise _WireError(f"{extra} unexpected byte(s) after the end of the {what}")


def _wrap_base64(data: bytes) -> str:
    """Base64 in lines of 70 characters, each ending in LF: how OpenSSH armors keys and signatures."""
    encoded = base64.b64encode(data).decode("ascii")
    return "".join(encoded[i : i + 70] + "\n" for i in range(0, len(encoded), 70))


# ---------------------------------------------------------------------------
# Public keys: one line "ssh-ed25519 <base64 blob> [comment]" (docs/protocol.md §2).
# ---------------------------------------------------------------------------

_ED25519 = "ssh-ed25519"
_KEY_TYPE_NAMES = {
    "ssh-rsa": "RSA",
    "ssh-dss": "DSA",
    "ecdsa-sha2-nistp256": "ECDSA",
    "ecdsa-sha2-nistp384": "ECDSA",
    "ecdsa-sha2-nistp521": "ECDSA",
    "sk-ssh-ed25519@openssh.com": "Ed25519 on a FIDO security key",
    "sk-ecdsa-sha2-nistp256@openssh.com": "ECDSA on a FIDO security key",
}
_NEED_ED25519 = "pbem needs a plain Ed25519 key (make one with `ssh-keygen -t ed25519`)"


def _describe_key_type(key_type: str) -> str:
    label = _KEY_TYPE_NAMES.get(key_type)
    return f"{key_type} ({label})" if label else key_type


def _ed25519_blob(raw: bytes) -> bytes:
    return _string(_ED25519.encode()) + _string(raw)


def _blob_key_type(blob: bytes) -> str:
    return _Reader(blob).text("key type")


def _ed25519_raw(blob: bytes) -> bytes:
    """The 32 key bytes of an ssh-ed25519 public key blob."""
    reader = _Reader(blob)
    key_type = reader.text("key type")
    if key_type != _ED25519:
        raise _WireError(f"key type is {_describe_key_type(key_type)}, not {_ED25519}")
    raw = reader.string("Ed25519 public key")
    if len(raw) != 32:
        raise _WireError(f"the Ed25519 public key has {len(raw)} bytes instead of 32")
    reader.expect_end("public key")
    return raw


def _ed25519_public(blob: bytes) -> Ed25519PublicKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        return Ed25519PublicKey.from_public_bytes(_ed25519_raw(blob))
    except _WireError:
        raise
    except ValueError:
        raise _WireError("the Ed25519 public key is not a valid curve point") from None


def _fingerprint_blob(blob: bytes) -> str:
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii").rstrip("=")


def _show(line: str) -> str:
    """A short quote of user input for an error message."""
    return repr(line if len(line) <= 60 else line[:57] + "...")


def _split_public_line(line: str) -> tuple[str, bytes, str]:
    """(key type, key blob, comment) of a one-line OpenSSH public key of any type."""
    stripped = line.strip()
    if "\n" in stripped or "\r" in stripped:
        raise KeyFileError(f"a public key must be one line, got several: {_show(line)}")
    fields = stripped.split(None, 2)
    if len(fields) < 2:
        raise KeyFileError(f"not an OpenSSH public key line ('ssh-ed25519 AAAA... comment'): {_show(line)}")
    key_type, encoded = fields[0], fields[1]
    try:
        blob = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError(
            f"not an OpenSSH public key line: {_show(fields[0])} is not followed by base64 key data"
            " (an allowed_signers or authorized_keys line has extra fields in front)"
        ) from None
    try:
        inner_type = _blob_key_type(blob)
    except _WireError as exc:
        raise KeyFileError(f"damaged public key {_show(line)}: {exc}") from None
    if inner_type != key_type:
        raise KeyFileError(f"damaged public key: the line says {key_type} but the key data holds {inner_type}")
    return key_type, blob, fields[2] if len(fields) == 3 else ""


def parse_public_key(line: str) -> Ed25519PublicKey:
    """The key of a one-line `ssh-ed25519 AAAA... comment`; KeyFileError for anything else."""
    key_type, blob, _comment = _split_public_line(line)
    if key_type != _ED25519:
        raise KeyFileError(f"the public key is {_describe_key_type(key_type)}; {_NEED_ED25519}")
    try:
        return _ed25519_public(blob)
    except _WireError as exc:
        raise KeyFileError(f"damaged public key {_show(line)}: {exc}") from None


def fingerprint(public_line: str) -> str:
    """`SHA256:<base64, no padding>` of the key blob, as `ssh-keygen -l` prints it."""
    return _fingerprint_blob(_split_public_line(public_line)[1])


def _public_line(raw: bytes, comment: str) -> str:
    encoded = base64.b64encode(_ed25519_blob(raw)).decode("ascii")
    return f"{_ED25519} {encoded} {comment}" if comment else f"{_ED25519} {encoded}"


def _raw_public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes_raw()


# ---------------------------------------------------------------------------
# Private keys: the openssh-key-v1 container (OpenSSH PROTOCOL.key).
#
#   "openssh-key-v1\0" string cipher  string kdf  string kdfoptions
#   uint32 number-of-keys (1)  string public-key-blob  string private-section [AEAD tag]
#
# The private section (encrypted unless cipher is "none") is two equal random check
# integers, then per key: string type, string pk(32), string seed||pk (64), string
# comment; then padding bytes 1, 2, 3... up to the cipher's block size.
# ---------------------------------------------------------------------------

_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----"
_KEY_MAGIC = b"openssh-key-v1\x00"
_PLAIN_BLOCK = 8  # OpenSSH pads an unencrypted private section to 8 bytes


class SigningKey(NamedTuple):
    """An opened Ed25519 private key and its public line (with the key's comment)."""

    private: Ed25519PrivateKey
    public_line: str


def _private_section(private: Ed25519PrivateKey, comment: str, checkint: int) -> bytes:
    seed, raw = private.private_bytes_raw(), _raw_public(private)
    body = (
        _uint32(checkint)
        + _uint32(checkint)
        + _string(_ED25519.encode())
        + _string(raw)
        + _string(seed + raw)
        + _string(comment.encode("utf-8"))
    )
    padding = bytes(range(1, 1 + (-len(body)) % _PLAIN_BLOCK))
    return body + padding


def _check_comment(comment: str) -> None:
    if "\n" in comment or "\r" in comment:
        raise ValueError(f"a key comment must be one line: {comment!r}")


def generate_keypair(comment: str, private: Ed25519PrivateKey | None = None) -> tuple[bytes, str]:
    """A fresh Ed25519 key, or `private` if given: (key file bytes as ssh-keygen writes them, public key line)."""
    _check_comment(comment)
    # ssh-keygen fills the check integers with random bytes; so do we, except for a given key,
    # whose file then comes out the same every time (a demo seed replays its key files too).
    if private is None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        private = Ed25519PrivateKey.generate()
        checkint = int.from_bytes(os.urandom(4), "big")
    else:
        checkint = int.from_bytes(hashlib.sha256(b"pbem/checkint" + private.private_bytes_raw()).digest()[:4], "big")
    container = (
        _KEY_MAGIC
        + _string(b"none")
        + _string(b"none")
        + _string(b"")
        + _uint32(1)
        + _string(_ed25519_blob(_raw_public(private)))
        + _string(_private_section(private, comment, checkint))
    )
    text = _PRIVATE_BEGIN + "\n" + _wrap_base64(container) + _PRIVATE_END + "\n"
    return text.encode("ascii"), _public_line(_raw_public(private), comment)


def _create_exclusive(path: Path, data: bytes, mode: int) -> None:
    """Write a new file, never replacing one; mode is forced for the private key."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise KeyFileError("refusing to overwrite an existing key file", file=str(path)) from None
    except OSError as exc:
        raise KeyFileError(f"cannot create the key file: {exc.strerror}", file=str(path)) from None
    with os.fdopen(fd, "wb") as handle:
        if mode == 0o600:
            os.fchmod(handle.fileno(), mode)
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_keypair(name: str, out_dir: Path, private: Ed25519PrivateKey | None = None) -> tuple[Path, Path]:
    """Write out_dir/name (0600) and out_dir/name.pub like `ssh-keygen -t ed25519 -C name`.

    The key is fresh unless `private` is given (`pbem demo --seed-file` derives its keys).
    """
    if not name or name in (".", "..") or "/" in name or os.sep in name or "\0" in name:
        raise ValueError(f"a key name must be a plain file name: {name!r}")
    private_path, public_path = out_dir / name, out_dir / f"{name}.pub"
    for path in (private_path, public_path):
        if path.exists() or path.is_symlink():
            raise KeyFileError("refusing to overwrite an existing key file", file=str(path))
    private_bytes, public_line = generate_keypair(name, private)
    out_dir.mkdir(parents=True, exist_ok=True)
    _create_exclusive(private_path, private_bytes, 0o600)
    try:
        _create_exclusive(public_path, (public_line + "\n").encode("utf-8"), 0o644)
    except BaseException:
        private_path.unlink()  # never leave half a key pair behind
        raise
    return private_path, public_path


# The records of this module are NamedTuples: creating a dataclass at import costs every one-shot
# command about half a millisecond, a NamedTuple a fifth of that.
class _KeyCipher(NamedTuple):
    """How OpenSSH encrypts a private section with this cipher (cipher.c)."""

    key_len: int
    iv_len: int
    block: int
    tag_len: int
    mode: Literal["ctr", "cbc", "gcm", "chacha"]


_KEY_CIPHERS: dict[str, _KeyCipher] = {
    "aes128-ctr": _KeyCipher(16, 16, 16, 0, "ctr"),
    "aes192-ctr": _KeyCipher(24, 16, 16, 0, "ctr"),
    "aes256-ctr": _KeyCipher(32, 16, 16, 0, "ctr"),  # ssh-keygen's default
    "aes128-cbc": _KeyCipher(16, 16, 16, 0, "cbc"),
    "aes192-cbc": _KeyCipher(24, 16, 16, 0, "cbc"),
    "aes256-cbc": _KeyCipher(32, 16, 16, 0, "cbc"),
    "aes128-gcm@openssh.com": _KeyCipher(16, 12, 16, 16, "gcm"),
    "aes256-gcm@openssh.com": _KeyCipher(32, 12, 16, 16, "gcm"),
    "chacha20-poly1305@openssh.com": _KeyCipher(64, 0, 8, 16, "chacha"),
}


class _Container(NamedTuple):
    cipher: str
    kdf: str
    kdf_options: bytes
    public_blob: bytes
    section: bytes  # the private section, still encrypted unless cipher is "none"
    tag: bytes  # AEAD tag after the section (empty for non-AEAD ciphers)


class _WrongPassphrase(Exception):
    """Decryption produced garbage or failed authentication."""


# What a file that is not an OpenSSH private key is most likely to be.
_OTHER_FORMATS = (
    ("-----BEGIN RSA PRIVATE KEY-----", f"is an RSA key in the old PEM format; {_NEED_ED25519}"),
    ("-----BEGIN DSA PRIVATE KEY-----", f"is a DSA key in the old PEM format; {_NEED_ED25519}"),
    ("-----BEGIN EC PRIVATE KEY-----", f"is an ECDSA key in the old PEM format; {_NEED_ED25519}"),
    ("-----BEGIN ENCRYPTED PRIVATE KEY-----", f"is a PKCS#8 key, not an OpenSSH one; {_NEED_ED25519}"),
    ("-----BEGIN PRIVATE KEY-----", f"is a PKCS#8 key, not an OpenSSH one; {_NEED_ED25519}"),
    (
        "PuTTY-User-Key-File",
        "is a PuTTY key; export it in OpenSSH format (PuTTYgen: Conversions > Export OpenSSH key)",
    ),
    ("ssh-", "is a public key; give the private key file (the one without .pub)"),
    ("ecdsa-", "is a public key; give the private key file (the one without .pub)"),
    ("sk-", "is a public key; give the private key file (the one without .pub)"),
)


def _dearmor_private(text: bytes, file: str) -> bytes:
    """The container bytes inside -----BEGIN OPENSSH PRIVATE KEY-----."""
    stripped = text.strip()
    if not stripped.startswith(_PRIVATE_BEGIN.encode()):
        for start, what in _OTHER_FORMATS:
            if stripped.startswith(start.encode()):
                raise KeyFileError(f"not an OpenSSH private key: this file {what}", file=file)
        raise KeyFileError(f"not an OpenSSH private key file (no {_PRIVATE_BEGIN} line)", file=file)
    body = stripped[len(_PRIVATE_BEGIN) :]
    end = body.find(_PRIVATE_END.encode())
    if end < 0:
        raise KeyFileError(f"damaged private key: no {_PRIVATE_END} line", file=file)
    try:
        return base64.b64decode(b"".join(body[:end].split()), validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError("damaged private key: the text between BEGIN and END is not base64", file=file) from None


def _parse_container(data: bytes) -> _Container:
    if not data.startswith(_KEY_MAGIC):
        raise _WireError("it does not start with the openssh-key-v1 marker")
    reader = _Reader(data[len(_KEY_MAGIC) :])
    cipher = reader.text("cipher name")
    kdf = reader.text("KDF name")
    kdf_options = reader.string("KDF options")
    count = reader.uint32("number of keys")
    if count != 1:
        raise _WireError(f"it holds {count} keys; pbem reads files with exactly one, as ssh-keygen writes them")
    public_blob = reader.string("public key")
    section = reader.string("private section")
    return _Container(cipher, kdf, kdf_options, public_blob, section, reader.rest())


def _passphrase(given: bytes | None, file: str) -> tuple[bytes, str]:
    """(passphrase, where it came from): the argument, PBEM_PASSPHRASE, or the terminal."""
    if given is not None:
        return given, "the passphrase given"
    from_env = os.environ.get("PBEM_PASSPHRASE")
    if from_env is not None:
        return from_env.encode("utf-8"), "the passphrase in PBEM_PASSPHRASE"
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        return getpass.getpass(f"Passphrase for {file}: ").encode("utf-8"), "the passphrase typed"
    raise KeyFileError(
        "the key is encrypted with a passphrase and none was given: set the PBEM_PASSPHRASE"
        " environment variable, or run from a terminal to be asked for it",
        file=file,
    )


def _chacha20_poly1305_open(key: bytes, section: bytes, tag: bytes) -> bytes:
    """OpenSSH's chacha20-poly1305@openssh.com with sequence number 0 and no length field."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
    from cryptography.hazmat.primitives.poly1305 import Poly1305

    main_key = key[:32]
    # The 16-byte nonce of cryptography's ChaCha20 is a 64-bit little-endian block counter
    # followed by OpenSSH's 64-bit nonce (the sequence number, here 0).
    poly_key = Cipher(algorithms.ChaCha20(main_key, bytes(16)), None).encryptor().update(bytes(32))
    try:
        Poly1305.verify_tag(poly_key, section, tag)
    except InvalidSignature:
        raise _WrongPassphrase from None
    counter_one = b"\x01" + bytes(15)
    return Cipher(algorithms.ChaCha20(main_key, counter_one), None).decryptor().update(section)


def _decrypt_section(container: _Container, passphrase: bytes, file: str) -> bytes:
    # Imported here: only a passphrase-protected key needs them, and every command imports this module.
    import bcrypt
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    spec = _KEY_CIPHERS.get(container.cipher)
    if spec is None:
        raise KeyFileError(f"the key is encrypted with {container.cipher!r}, which pbem cannot open", file=file)
    if container.kdf != "bcrypt":
        raise KeyFileError(f"the key uses the KDF {container.kdf!r}; pbem knows only bcrypt", file=file)
    try:
        options = _Reader(container.kdf_options)
        salt, rounds = options.string("bcrypt salt"), options.uint32("bcrypt rounds")
    except _WireError as exc:
        raise KeyFileError(f"damaged private key: {exc}", file=file) from None
    if len(container.section) % spec.block or len(container.tag) != spec.tag_len:
        raise KeyFileError("damaged private key: the encrypted part has the wrong length", file=file)
    if not passphrase:  # OpenSSH never encrypts with an empty passphrase (and bcrypt refuses one)
        raise _WrongPassphrase
    if not salt:
        raise KeyFileError("damaged private key: the bcrypt salt is empty", file=file)
    derived = bcrypt.kdf(passphrase, salt, spec.key_len + spec.iv_len, rounds, ignore_few_rounds=True)
    key, iv = derived[: spec.key_len], derived[spec.key_len :]
    if spec.mode == "chacha":
        return _chacha20_poly1305_open(key, container.section, container.tag)
    if spec.mode == "gcm":
        return _aes_gcm_open(key, iv, container.section, container.tag)
    mode = modes.CTR(iv) if spec.mode == "ctr" else modes.CBC(iv)
    decryptor = Cipher(algorithms.AES(key), mode).decryptor()
    return decryptor.update(container.section) + decryptor.finalize()


def _aes_gcm_open(key: bytes, iv: bytes, section: bytes, tag: bytes) -> bytes:
    """aes*-gcm@openssh.com: no associated data, the tag follows the section."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    decryptor = Cipher(algorithms.AES(key), modes.GCM(iv, tag)).decryptor()
    try:
        return decryptor.update(section) + decryptor.finalize()
    except InvalidTag:
        raise _WrongPassphrase from None


def _open_section(container: _Container, passphrase: bytes | None, file: str) -> bytes:
    """The private section in clear: decrypted if needed, check integers verified."""
    if container.cipher == "none":
        if container.kdf != "none":
            raise KeyFileError(f"damaged private key: cipher 'none' with KDF {container.kdf!r}", file=file)
        section, source = container.section, ""
    else:
        secret, source = _passphrase(passphrase, file)
        try:
            section = _decrypt_section(container, secret, file)
        except _WrongPassphrase:
            section = b""
    # Two equal check integers are how OpenSSH tells a right passphrase from a wrong one.
    if len(section) < 8 or section[:4] != section[4:8]:
        if container.cipher == "none":
            raise KeyFileError("damaged private key: the check integers differ", file=file)
        raise KeyFileError(f"wrong passphrase: {source} does not open this key", file=file)
    return section


def _read_private_section(section: bytes, container: _Container, file: str) -> SigningKey:
    reader = _Reader(section)
    reader.raw(8, "check integers")
    key_type = reader.text("key type")
    if key_type != _ED25519:
        raise _WireError(f"the private part holds a {key_type} key")
    raw = reader.string("Ed25519 public key")
    secret = reader.string("Ed25519 private key")
    comment = reader.string("comment").decode("utf-8", errors="replace")
    padding = reader.rest()
    if padding != bytes(range(1, len(padding) + 1)):
        raise _WireError("the padding after the private part is wrong")
    if len(secret) != 64 or secret[32:] != raw or _ed25519_blob(raw) != container.public_blob:
        raise _WireError("the private and public halves do not belong together")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.from_private_bytes(secret[:32])
    if _raw_public(private) != raw:
        raise _WireError("the private key does not produce its stated public key")
    one_line_comment = " ".join(comment.split())
    return SigningKey(private=private, public_line=_public_line(raw, one_line_comment))


MAX_KEY_FILE_BYTES = 64 * 1024
"""An OpenSSH private key file is a few hundred bytes (an RSA one a few kilobytes); larger is no key file."""


def load_signing_key(path: Path, passphrase: bytes | None = None) -> SigningKey:
    """Open an Ed25519 OpenSSH private key, asking for the passphrase if it is encrypted.

    The passphrase is `passphrase`, else $PBEM_PASSPHRASE, else typed at the terminal
    when stdin is one; without any of these an encrypted key is a KeyFileError.
    """
    file = str(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError("not a key file: not a regular file", file=file)
        with open(path, "rb") as handle:
            text = handle.read(MAX_KEY_FILE_BYTES + 1)  # the file may have grown since the stat
    except OSError as exc:
        raise KeyFileError(f"cannot read the key file: {exc.strerror}", file=file) from None
    if len(text) > MAX_KEY_FILE_BYTES:
        raise KeyFileError(f"not a key file: over {MAX_KEY_FILE_BYTES} bytes (an OpenSSH Ed25519 key file has "
                           "about 400)", file=file)
    data = _dearmor_private(text, file)
    try:
        container = _parse_container(data)
        key_type = _blob_key_type(container.public_blob)
    except _WireError as exc:
        raise KeyFileError(f"damaged private key: {exc}", file=file) from None
    if key_type != _ED25519:
        raise KeyFileError(f"this is an {_describe_key_type(key_type)} key; {_NEED_ED25519}", file=file)
    section = _open_section(container, passphrase, file)
    try:
        return _read_private_section(section, container, file)
    except _WireError as exc:
        raise KeyFileError(f"damaged private key: {exc}", file=file) from None


# ---------------------------------------------------------------------------
# SSHSIG (OpenSSH PROTOCOL.sshsig), hash sha512 (docs/protocol.md §2).
#
#   blob   = "SSHSIG" uint32 1  string publickey  string namespace  string reserved
#            string hash_algorithm  string signature
#   signed = "SSHSIG" string namespace  string reserved  string hash_algorithm  string H(message)
#
# OpenSSH reads the reserved field of a blob but ignores its content: the signed data
# always carries it empty. We do the same so both verify the same set of signatures.
# ---------------------------------------------------------------------------

_SIG_BEGIN = "-----BEGIN SSH SIGNATURE-----"
_SIG_END = "-----END SSH SIGNATURE-----"
_SIG_MAGIC = b"SSHSIG"
_SIG_VERSION = 1
_HASH = "sha512"


class SignatureMismatch(SignatureError):
    """Key and namespace are the expected ones, but the signature does not fit these bytes.

    A separate class so that `verify_armored` can tell "the text changed" from every
    other failure; it is still a SignatureError for everyone else.
    """


class _Sshsig(NamedTuple):
    public_blob: bytes
    namespace: str
    hash_algorithm: str
    signature_type: str
    signature: bytes


def _signed_data(namespace: str, hash_algorithm: str, digest: bytes) -> bytes:
    return (
        _SIG_MAGIC
        + _string(namespace.encode("utf-8"))
        + _string(b"")
        + _string(hash_algorithm.encode("ascii"))
        + _string(digest)
    )


def sign(data: bytes, key: SigningKey, namespace: str) -> str:
    """The armored SSHSIG signature of `data`, byte-identical to `ssh-keygen -Y sign -n namespace`."""
    if not namespace:
        raise ValueError("an SSHSIG namespace must not be empty")
    digest = hashlib.sha512(data).digest()
    signature = key.private.sign(_signed_data(namespace, _HASH, digest))
    blob = (
        _SIG_MAGIC
        + _uint32(_SIG_VERSION)
        + _string(_ed25519_blob(_raw_public(key.private)))
        + _string(namespace.encode("utf-8"))
        + _string(b"")
        + _string(_HASH.encode("ascii"))
        + _string(_string(_ED25519.encode()) + _string(signature))
    )
    return _SIG_BEGIN + "\n" + _wrap_base64(blob) + _SIG_END + "\n"


MAX_SIGNATURE_BYTES = 64 * 1024
"""An SSHSIG file is under a kilobyte; anything past this bound is not one."""


def read_signature(path: Path | str, *, max_bytes: int = MAX_SIGNATURE_BYTES) -> str:
    """The text of a detached signature file (`FILE.sig`); SignatureError naming the file if it cannot be one.

    Refused before reading: a file that is not a regular file (a device, a pipe) or is larger than
    `max_bytes`; after reading: bytes that are not UTF-8. A missing or unreadable file raises the
    OSError unchanged, so each caller can say what should have stood there.
    """
    name = str(path)
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise SignatureError(Problem("not an SSH signature: not a regular file", file=name))
    if info.st_size > max_bytes:
        raise SignatureError(Problem(f"not an SSH signature: {info.st_size} bytes; a signature file has at most "
                                     f"{max_bytes}", file=name))
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)  # the file may have grown since the stat
    if len(data) > max_bytes:
        raise SignatureError(Problem(f"not an SSH signature: over {max_bytes} bytes", file=name))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SignatureError(Problem(f"not an SSH signature: not UTF-8 text (byte {exc.start})", file=name)) from None


def _malformed(what: str, file: str | None) -> SignatureError:
    return SignatureError(f"malformed signature: {what}", file=file)


def _dearmor_signature(signature: str, file: str | None) -> bytes:
    lines = [line.strip() for line in signature.strip().splitlines()]
    if not lines or lines[0] != _SIG_BEGIN:
        raise _malformed(f"it does not start with a {_SIG_BEGIN} line", file)
    if _SIG_END not in lines:
        raise _malformed(f"there is no {_SIG_END} line (truncated?)", file)
    end = lines.index(_SIG_END)
    if any(lines[end + 1 :]):
        raise _malformed(f"text follows the {_SIG_END} line", file)
    encoded = "".join(lines[1:end])
    if not encoded:
        raise _malformed("the signature block is empty", file)
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise _malformed(
            "the text inside the signature block is not valid base64 (damaged or truncated)", file
        ) from None


def _parse_sshsig(blob: bytes, file: str | None) -> _Sshsig:
    try:
        if not blob.startswith(_SIG_MAGIC):
            raise _WireError("it is not an SSHSIG blob (no SSHSIG marker)")
        reader = _Reader(blob[len(_SIG_MAGIC) :])
        version = reader.uint32("version")
        if version != _SIG_VERSION:
            raise _WireError(f"SSHSIG version {version}; only version {_SIG_VERSION} exists")
        public_blob = reader.string("public key")
        namespace = reader.text("namespace")
        reader.string("reserved field")
        hash_algorithm = reader.text("hash algorithm")
        inner = _Reader(reader.string("signature"))
        reader.expect_end("signature blob")
        signature_type = inner.text("signature type")
        signature = inner.string("signature value")
        inner.expect_end("signature value")
        _blob_key_type(public_blob)
    except _WireError as exc:
        raise _malformed(str(exc), file) from None
    return _Sshsig(public_blob, namespace, hash_algorithm, signature_type, signature)


def _check_algorithms(parsed: _Sshsig, file: str | None) -> Ed25519PublicKey:
    """The signing key, if the signature uses what docs/protocol.md §2 prescribes."""
    key_type = _blob_key_type(parsed.public_blob)
    if key_type != _ED25519:
        raise SignatureError(
            f"unsupported key type: signed with an {_describe_key_type(key_type)} key;"
            " PBEM signatures are made with ssh-ed25519 keys (docs/protocol.md §2)",
            file=file,
        )
    if parsed.hash_algorithm != _HASH:
        raise SignatureError(
            f"unsupported hash {parsed.hash_algorithm!r}: PBEM signatures use sha512 (docs/protocol.md §2),"
            " ssh-keygen's default (do not pass -O hashalg=...)",
            file=file,
        )
    if parsed.signature_type != _ED25519 or len(parsed.signature) != 64:
        raise _malformed(
            f"an ssh-ed25519 key with a {parsed.signature_type!r} signature of {len(parsed.signature)} bytes", file
        )
    try:
        return _ed25519_public(parsed.public_blob)
    except _WireError as exc:
        raise _malformed(f"its public key: {exc}", file) from None


def _namespace_problem(signed: str, expected: str) -> str | None:
    """None if the namespaces agree, else a sentence saying what differs."""
    if signed == expected:
        return None
    got, want = _PBEM_NAMESPACE.match(signed), _PBEM_NAMESPACE.match(expected)
    if got is None or want is None:
        return (
            f"wrong namespace: signed under {signed!r}, expected {expected!r}"
            f" (sign with ssh-keygen -Y sign -n {expected})"
        )
    parts = []
    if got[2] != want[2]:
        parts.append(f"signed for game {got[2]!r}, this is game {want[2]!r}")
    if got[1] != want[1]:
        parts.append(
            f"signed as {_KIND_AS[got[1]]} ({signed}), expected {_KIND_EXPECTED[want[1]]} ({expected})"
        )
    return "wrong namespace: " + "; ".join(parts)


def _names(names: list[str]) -> str:
    quoted = [f"{name}'s" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _signer(raw: bytes, allowed: Mapping[str, str], others: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(name among `allowed`, else None; problem sentence if not allowed, else None)."""
    if not allowed:
        raise ValueError("verify needs at least one allowed key")
    for name, line in allowed.items():
        if parse_public_key(line).public_bytes_raw() == raw:
            return name, None
    expected = _names(list(allowed)) + " key"
    known = [name for name, line in others.items() if parse_public_key(line).public_bytes_raw() == raw]
    fp = _fingerprint_blob(_ed25519_blob(raw))
    if known:
        return None, f"wrong key: signed with {known[0]}'s key ({fp}), but this file must be signed with {expected}"
    allowed_fps = ", ".join(f"{name} {fingerprint(line)}" for name, line in allowed.items())
    return None, f"wrong key: signed with an unknown key {fp}; expected {expected} ({allowed_fps})"


def verify(
    data: bytes,
    signature: str,
    namespace: str,
    allowed: Mapping[str, str],
    *,
    file: str | None = None,
    others: Mapping[str, str] = _NO_PARTIES,
) -> str:
    """The name (a key of `allowed`) whose key made this SSHSIG signature of `data` under `namespace`.

    `others` are further known parties (name -> key line), only used to say whose key
    signed when it is not an allowed one. If two allowed names share a key, the first
    in `allowed`'s order is returned. Every failure is a SignatureError saying which
    check failed; a signature that fits neither the data is a SignatureMismatch.
    """
    from cryptography.exceptions import InvalidSignature

    parsed = _parse_sshsig(_dearmor_signature(signature, file), file)
    public = _check_algorithms(parsed, file)
    signer, key_problem = _signer(public.public_bytes_raw(), allowed, others)
    problems = [p for p in (_namespace_problem(parsed.namespace, namespace), key_problem) if p]
    if problems or signer is None:
        raise SignatureError([Problem(p, file=file) for p in problems])
    digest = hashlib.sha512(data).digest()
    try:
        public.verify(parsed.signature, _signed_data(parsed.namespace, parsed.hash_algorithm, digest))
    except InvalidSignature:
        raise SignatureMismatch(
            f"bad signature: made with {signer}'s key under {namespace}, but it does not match these bytes:"
            " the file was changed after it was signed, or this signature belongs to another file",
            file=file,
        ) from None
    return signer


# ---------------------------------------------------------------------------
# Canonical text and the armored form (docs/protocol.md §2).
# ---------------------------------------------------------------------------

_ARMOR_BEGIN = b"-----BEGIN PBEM SIGNED FILE-----"
_ARMOR_END = b"-----END PBEM SIGNED FILE-----"
_NAME_HEADER = b"Name:"
_QUOTE_PREFIX = re.compile(rb"[> \t]*\Z")


def canonical_text(data: bytes) -> bytes:
    """LF line ends, no trailing spaces or tabs on any line, exactly one final LF."""
    unified = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines = [line.rstrip(b" \t") for line in unified.split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return b"\n".join(lines) + b"\n"


def is_canonical_text(data: bytes) -> bool:
    """True if `canonical_text` would leave `data` unchanged."""
    return canonical_text(data) == data


def _normalise_signature(signature: str) -> str:
    lines = [line.strip() for line in signature.strip().splitlines()]
    if not lines or lines[0] != _SIG_BEGIN or lines[-1] != _SIG_END:
        raise SignatureError(f"cannot armor: the signature must be a {_SIG_BEGIN} ... {_SIG_END} block")
    return "".join(line + "\n" for line in lines)


def armor(text: bytes, signature: str, name: str | None = None) -> str:
    """The armored form of a canonical text and its signature, ready for a mail body."""
    if not is_canonical_text(text):
        raise SignatureError(
            "cannot armor: the text is not canonical (LF line ends, no trailing spaces or tabs,"
            " one final LF); sign canonical_text(data) instead"
        )
    for number, line in enumerate(text.split(b"\n"), start=1):
        if line.startswith(b"-----"):
            raise SignatureError(f"cannot armor: line {number} of the text starts with '-----'")
    try:
        body = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SignatureError(f"cannot armor: the text is not UTF-8 (byte {exc.start})") from None
    header = ""
    if name is not None:
        if not name or name != name.strip() or "\n" in name or "\r" in name:
            raise SignatureError(f"cannot armor: {name!r} is not a usable Name header")
        header = f"Name: {name}\n"
    begin, end = _ARMOR_BEGIN.decode(), _ARMOR_END.decode()
    return begin + "\n" + header + "\n" + body + _normalise_signature(signature) + end + "\n"


class ArmoredBlock(NamedTuple):
    """One armored PBEM file found in a carrier (mail body, forum post, file)."""

    name: str | None  # from the Name: header, if any
    text: bytes  # the exact bytes between the header's empty line and the signature block
    signature: str  # the SSH signature block, normalised to LF lines
    line: int  # 1-based line of the carrier where BEGIN stood

    @property
    def problem(self) -> str | None:
        """Why this block could not be read, if it is the stand-in `read_armored` lists for a broken one."""
        if self.signature.startswith(_UNREADABLE):
            return self.signature[len(_UNREADABLE) :]
        return None


# The signature of the stand-in for a block that could not be read: the reason follows this line. No
# signature block read from a carrier starts with it, and no SSHSIG parser accepts it, so such a
# stand-in can only ever fail, with its reason (`verify_armored`).
_UNREADABLE = "-----UNREADABLE PBEM SIGNED FILE-----\n"

MAX_ARMORED_BLOCKS = 64
"""Most armored blocks `read_armored` reads from one carrier (a mail body, a forum post)."""


def _split_ending(line: bytes) -> tuple[bytes, bytes]:
    body = line.rstrip(b"\r\n")
    return body, line[len(body) :]


def _begin_prefix(line: bytes) -> bytes | None:
    """The quote prefix ("", "> ", "> > "...) of a BEGIN line, or None if this is no BEGIN line."""
    body = line.rstrip(b" \t\r\n")
    if not body.endswith(_ARMOR_BEGIN):
        return None
    prefix = body[: -len(_ARMOR_BEGIN)]
    return prefix if _QUOTE_PREFIX.match(prefix) else None


class _Block:
    """Walks the lines of one block, taking the BEGIN line's quote prefix off each."""

    def __init__(self, lines: list[bytes], begin: int, prefix: bytes, file: str | None) -> None:
        self.lines, self.begin, self.prefix, self.file = lines, begin, prefix, file
        self.index = begin + 1
        self.name: str | None = None  # the Name: header, once read

    def fail(self, message: str, line: int | None = None) -> SignatureError:
        return SignatureError(Problem(message, file=self.file, line=line if line is not None else self.begin + 1))

    def next(self) -> bytes:
        """The next line without its quote prefix (line end kept); fails if the block stops here."""
        begin_line = self.begin + 1
        if self.index >= len(self.lines):
            raise self.fail(f"-----BEGIN PBEM SIGNED FILE----- at line {begin_line} has no END line")
        body, ending = _split_ending(self.lines[self.index])
        self.index += 1
        if body.startswith(self.prefix):
            return body[len(self.prefix) :] + ending
        # A quoted empty line often loses the quote's trailing space: "> " becomes ">".
        if body.rstrip(b" \t") == self.prefix.rstrip(b" \t"):
            return ending
        raise self.fail(
            f"-----BEGIN PBEM SIGNED FILE----- at line {begin_line} has no END line: line {self.index}"
            f" is not quoted with {self.prefix.decode(errors='replace')!r} like the BEGIN line"
        )

    def header(self) -> str | None:
        """Read the Name: header lines and the empty line after them."""
        name: str | None = None
        while True:
            line = self.next().rstrip(b" \t\r\n")
            if not line:
                return name
            if not line.startswith(_NAME_HEADER) or name is not None:
                raise self.fail(
                    f"line {self.index}: expected one 'Name: <file>' header or the empty line before the text",
                    self.index,
                )
            name = line[len(_NAME_HEADER) :].strip().decode("utf-8", errors="replace")
            if not name.isprintable():
                # The name is echoed in receipts and error mails: no terminal control sequences.
                raise self.fail(f"line {self.index}: the Name: header holds control characters", self.index)
            if len(name) > 200:
                raise self.fail(f"line {self.index}: the Name: header is over 200 characters long", self.index)
            self.name = name

    def text(self) -> bytes:
        """The text lines, up to (not including) the BEGIN SSH SIGNATURE line."""
        parts: list[bytes] = []
        while True:
            line = self.next()
            if not line.startswith(b"-----"):
                parts.append(line)
                continue
            marker = line.rstrip(b" \t\r\n")
            if marker == _SIG_BEGIN.encode():
                return b"".join(parts)
            if marker == _ARMOR_END:
                raise self.fail(f"the block at line {self.begin + 1} has no signature (END at line {self.index})")
            if marker == _ARMOR_BEGIN:
                raise self.fail(
                    f"-----BEGIN PBEM SIGNED FILE----- at line {self.begin + 1} has no END line"
                    f" before the next BEGIN at line {self.index}"
                )
            raise self.fail(f"line {self.index}: a text line may not start with '-----'", self.index)

    def signature(self) -> str:
        """The signature block (its BEGIN line already read), then the block's END line."""
        lines = [_SIG_BEGIN]
        while lines[-1] != _SIG_END:
            line = self.next().strip()
            if line.startswith(b"-----") and line != _SIG_END.encode():
                raise self.fail(f"line {self.index}: the signature block is not closed by {_SIG_END}", self.index)
            lines.append(line.decode("ascii", errors="replace"))
        while True:
            line = self.next().strip()
            if line == _ARMOR_END:
                return "".join(entry + "\n" for entry in lines)
            if line:
                raise self.fail(f"line {self.index}: expected -----END PBEM SIGNED FILE-----", self.index)


class _Broken(NamedTuple):
    """A block that could not be read: where it began, its Name: header if that was read, and why."""

    line: int
    name: str | None
    error: SignatureError


def _scan(carrier: bytes, file: str | None, max_blocks: int | None) -> list[ArmoredBlock | _Broken]:
    """Each block in `carrier`, in order: read, or why it could not be.

    After a block that cannot be read, the scan goes on from the line after its BEGIN: a good block
    quoted inside the broken one's text is still found. The lines walked are bounded (with nested
    quoting each broken block could walk the rest of the carrier), as is the number of blocks.
    """
    lines = carrier.splitlines(keepends=True)
    found: list[ArmoredBlock | _Broken] = []
    budget = 4 * len(lines) + 1000
    index = 0
    while index < len(lines):
        prefix = _begin_prefix(lines[index])
        if prefix is None:
            index += 1
            continue
        if (max_blocks is not None and len(found) >= max_blocks) or budget <= 0:
            why = f"more than {max_blocks} armored blocks" if budget > 0 else "too many broken armored blocks"
            message = f"the text holds {why}: this one and the rest were not read; send fewer in one text"
            found.append(_Broken(index + 1, None, SignatureError(Problem(message, file=file, line=index + 1))))
            break
        reader = _Block(lines, index, prefix, file)
        try:
            name = reader.header()
            text = reader.text()
            signature = reader.signature()
        except SignatureError as error:
            found.append(_Broken(index + 1, reader.name, error))
            budget -= reader.index - index
            index += 1
            continue
        budget -= reader.index - index
        found.append(ArmoredBlock(name=name, text=text, signature=signature, line=index + 1))
        index = reader.index
    return found


def find_armored(carrier: bytes, *, file: str | None = None) -> list[ArmoredBlock]:
    """Every armored PBEM file in `carrier`, in order; junk around the blocks is ignored.

    Copes with CRLF line ends and with blocks quoted in a reply ("> ", ">", "> > ", ...),
    as long as every line of a block carries the same prefix as its BEGIN line. Strict: the
    first block that cannot be read is a SignatureError (`read_armored` judges each on its own).
    """
    blocks: list[ArmoredBlock] = []
    for item in _scan(carrier, file, None):
        if isinstance(item, _Broken):
            raise item.error
        blocks.append(item)
    return blocks


def read_armored(carrier: bytes, *, file: str | None = None,
                 max_blocks: int = MAX_ARMORED_BLOCKS) -> list[ArmoredBlock]:
    """Every armored block in `carrier`, in order, each judged on its own.

    A block that cannot be read (no END line, a truncated or broken signature block, a bad
    header) does not sink the others: it is listed as a stand-in, at its BEGIN line, whose
    `problem` says why and which fails `verify_armored` with that reason (it never verifies).
    At most `max_blocks` blocks are read; a last stand-in says so if there were more.
    """
    blocks: list[ArmoredBlock] = []
    for item in _scan(carrier, file, max_blocks):
        if isinstance(item, ArmoredBlock):
            blocks.append(item)
            continue
        reason = "; ".join(p.message for p in item.error.problems)
        blocks.append(ArmoredBlock(name=item.name, text=b"", signature=_UNREADABLE + reason, line=item.line))
    return blocks


def _at_block(error: SignatureError, block: ArmoredBlock, file: str | None, note: str = "") -> SignatureError:
    """The same failure, located at the block and naming the file it carries."""
    label = f"armored {block.name}: " if block.name else ""
    problems = [
        p.replaced(message=label + p.message + note).located(file, block.line if block.line > 0 else None)
        for p in error.problems
    ]
    return type(error)(problems)


def verify_armored(
    block: ArmoredBlock,
    namespace: str,
    allowed: Mapping[str, str],
    *,
    file: str | None = None,
    others: Mapping[str, str] = _NO_PARTIES,
) -> tuple[bytes, str]:
    """(the bytes that verified, signer): the exact text first, then its canonical text (docs/protocol.md §2).

    The stand-in `read_armored` lists for a block it could not read fails here, with its reason.
    """
    reason = block.problem
    if reason is not None:
        raise _at_block(SignatureError(f"this armored block cannot be read: {reason}"), block, file)
    try:
        return block.text, verify(block.text, block.signature, namespace, allowed, others=others)
    except SignatureMismatch:
        pass  # the text may have been damaged in transit: try its canonical form
    except SignatureError as exc:
        # Wrong key, namespace or a malformed signature: the text does not matter.
        raise _at_block(exc, block, file) from None
    canonical = canonical_text(block.text)
    try:
        return canonical, verify(canonical, block.signature, namespace, allowed, others=others)
    except SignatureError as exc:
        note = ""
        if isinstance(exc, SignatureMismatch):
            note = (
                "; neither the text as received nor its canonical form verifies: it may have been"
                " re-wrapped or had whitespace changed in transit (send it as an attachment instead)"
            )
        raise _at_block(exc, block, file, note) from None
