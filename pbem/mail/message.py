"""One mail as the judge sees it: headers to answer by, text bodies, attachments. Never trusted.

Every bound in `limits.Limits` is enforced here, and nothing here writes a file: the intake
writes what it takes under names it makes itself. A mail that cannot be read at all comes
back as a `ParsedMail` with `fatal` set, never as an exception.
"""

from __future__ import annotations

import email
import email.header
import email.message
import email.policy
import email.utils
import hashlib
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from .limits import DEFAULT, Limits

ARCHIVE_TYPES = {"application/zip", "application/x-zip-compressed", "application/x-tar", "application/gzip",
                 "application/x-gzip", "application/x-7z-compressed", "application/x-rar-compressed",
                 "application/vnd.rar", "application/x-bzip2", "application/x-xz"}
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar")
TEXT_SUFFIXES = (".yaml", ".yml", ".sig", ".txt", ".asc")
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}\Z")


@dataclass(frozen=True)
class Attachment:
    name: str  # as the sender named it (checked: a plain file name)
    data: bytes
    content_type: str


@dataclass(frozen=True)
class TextBody:
    label: str  # "the mail body", "the forwarded mail's body", ...
    data: bytes  # UTF-8
    html: bool = False  # converted from an HTML part


@dataclass
class ParsedMail:
    raw_size: int
    message_id: str
    headers: dict[str, list[str]] = field(default_factory=dict)  # lower-case name -> values (decoded)
    sender: str = ""  # the bare address to answer an unauthenticated mail (Reply-To, else From)
    subject: str = ""
    references: list[str] = field(default_factory=list)
    texts: list[TextBody] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was refused, in words for the sender
    fatal: str | None = None  # why nothing of it can be used
    html_only: bool = False

    def header(self, name: str) -> str:
        values = self.headers.get(name.lower())
        return values[0] if values else ""


def synthetic_id(raw: bytes) -> str:
    """A stable Message-ID for a mail that has none, from its bytes."""
    return f"<sha256-{hashlib.sha256(raw).hexdigest()[:32]}@pbem.invalid>"


_MSGID = re.compile(r"<[^<>\s]{1,250}>")


def clean_id(value: str) -> str | None:
    found = _MSGID.search(value or "")
    return found.group(0) if found else None


def _decode_header(value: object) -> str:
    try:
        text = str(email.header.make_header(email.header.decode_header(str(value))))
    except Exception:  # undecodable encoded-words: keep the raw text
        text = str(value)
    return " ".join(text.split())[:2000]


def parse_headers_only(raw_head: bytes, raw_size: int) -> ParsedMail:
    """The headers of a mail too large to read whole (enough to answer it)."""
    head = raw_head.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    try:
        message = email.message_from_bytes(head + b"\n\n", policy=email.policy.compat32)
    except Exception:
        return ParsedMail(raw_size, synthetic_id(raw_head), fatal="the mail's headers cannot be read")
    parsed = ParsedMail(raw_size, "")
    _fill_headers(parsed, message, raw_head)
    return parsed


def _fill_headers(parsed: ParsedMail, message: email.message.Message, raw: bytes) -> None:
    for name, value in message.items()[:500]:
        parsed.headers.setdefault(name.lower(), []).append(_decode_header(value))
    parsed.message_id = clean_id(parsed.header("message-id")) or synthetic_id(raw)
    parsed.subject = parsed.header("subject")
    for source in ("reply-to", "from"):
        _, address = email.utils.parseaddr(parsed.header(source))
        if address and "@" in address and len(address) < 254 and not re.search(r"[\s<>,;]", address):
            parsed.sender = address
            break
    references = _MSGID.findall(parsed.header("references"))[-20:]
    parsed.references = references


class _HtmlText(HTMLParser):
    """The text of an HTML body laid out as a mail client shows it: one line per block, per <br>.

    Mail editors write each typed line as its own <div> or <p> (an empty one as <div><br></div>)
    or end it with <br>; an armored block only verifies when those become exactly its lines. So a
    block element breaks the line unless one has just been broken, <br> always breaks it, and
    line breaks between tags, or at the start of a line, are the HTML source's layout, not text.
    Inside <pre> every character is kept.
    """

    BLOCKS = {"p", "div", "pre", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "blockquote", "center",
              "section", "article", "header", "footer", "address", "hr", "h1", "h2", "h3", "h4", "h5", "h6"}
    SKIP = ("script", "style", "head", "title")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.pre = 0
        self.at_start = True  # nothing written on the current line yet

    def _write(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.at_start = text.endswith("\n")

    def _break(self) -> None:
        if not self.at_start:
            self._write("\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif tag == "br":
            self._write("\n")
        elif tag in self.BLOCKS:
            self._break()
            self.pre += tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":  # <br/>: one break, not a start and an end
            self._write("\n")
        elif tag in self.BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self._break()
            if tag == "pre" and self.pre:
                self.pre -= 1

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        data = data.replace("\r\n", "\n")
        if not self.pre:
            if not data.strip() and "\n" in data:
                return  # the source's own line breaks between tags
            if self.at_start:
                # "<br>\n" is one break; spaces stay (a browser would drop them, but an editor that
                # wrote them raw meant the text's own indentation)
                data = data.lstrip("\n")
        self._write(data)


def html_to_text(html: str) -> str:
    """The lines an HTML body shows, each without trailing spaces (a signed text has none)."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:
        return ""
    text = "".join(parser.parts).replace("\xa0", " ")
    return "\n".join(line.rstrip() for line in text.split("\n"))


def _charset_text(payload: bytes, charset: str | None) -> bytes:
    """Text as UTF-8 bytes (the protocol's encoding); other charsets are converted."""
    charset = (charset or "utf-8").lower()
    if charset in ("utf-8", "utf8", "us-ascii", "ascii"):
        return payload
    try:
        return payload.decode(charset, errors="replace").encode("utf-8")
    except LookupError:
        return payload


def check_name(name: str) -> str | None:
    """Why an attachment name is refused, or None. The name is never used as a path anyway."""
    if "/" in name or "\\" in name or name.startswith("~") or ".." in name:
        return f"attachment {name!r}: a file name may not hold a path ('/', '\\\\', '..'); attach plain files"
    if not SAFE_NAME.match(name):
        return (f"attachment {name!r}: use a plain file name (letters, digits, '.', '_', '-', "
                "at most 100 characters)")
    return None


def parse(raw: bytes, limits: Limits = DEFAULT) -> ParsedMail:
    """Read one mail within the limits; never raises for what a sender can put in it."""
    if len(raw) > limits.max_message_bytes:
        parsed = parse_headers_only(raw[: limits.max_header_bytes], len(raw))
        parsed.fatal = (f"the mail is {len(raw):,} bytes; the judge reads mails of at most "
                        f"{limits.max_message_bytes:,} bytes (orders files are a few kilobytes: attach them "
                        "alone, or paste the armored block into the text)")
        return parsed
    try:
        message = email.message_from_bytes(raw, policy=email.policy.compat32)
    except Exception as error:  # pragma: no cover - the compat32 parser is lenient
        return ParsedMail(len(raw), synthetic_id(raw), fatal=f"the mail cannot be parsed ({type(error).__name__})")
    parsed = ParsedMail(len(raw), "")
    try:
        _fill_headers(parsed, message, raw)
        _walk(parsed, message, limits)
    except Exception as error:
        parsed.message_id = parsed.message_id or synthetic_id(raw)
        parsed.fatal = f"the mail's MIME structure cannot be read ({type(error).__name__})"
    return parsed


def _defects(part: email.message.Message) -> list[str]:
    return [type(defect).__name__ for defect in getattr(part, "defects", [])]


def _walk(parsed: ParsedMail, root: email.message.Message, limits: Limits) -> None:
    """Visit the MIME tree without recursion, within the part and depth bounds."""
    stack: list[tuple[email.message.Message, int, str]] = [(root, 0, "the mail body")]
    seen = 0
    has_plain = False
    html_texts: list[TextBody] = []
    broken: list[str] = []
    while stack:
        part, depth, label = stack.pop()
        seen += 1
        if seen > limits.max_parts:
            parsed.notes.append(f"the mail has more than {limits.max_parts} MIME parts; the rest was not read")
            break
        broken += [d for d in _defects(part) if d not in broken]
        content_type = part.get_content_type()
        if part.is_multipart() or content_type == "message/rfc822":
            if depth >= limits.max_depth:
                parsed.notes.append(f"parts nested deeper than {limits.max_depth} levels were not read")
                continue
            children = part.get_payload()
            if not isinstance(children, list):
                broken.append("MultipartWithoutParts")
                children = []
            inner = "the forwarded mail's body" if content_type == "message/rfc822" else label
            stack.extend((child, depth + 1, inner) for child in reversed(children)
                         if isinstance(child, email.message.Message))
            continue
        raw_name = part.get_filename()
        name = _decode_header(raw_name) if raw_name else None
        disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            payload = b""
        if name is None and disposition != "attachment" and content_type in ("text/plain", "text/html"):
            if len(payload) > limits.max_attachment_bytes:
                parsed.notes.append(f"a text part of {len(payload):,} bytes was too large to read")
                continue
            text = _charset_text(payload, part.get_content_charset())
            if content_type == "text/plain":
                has_plain = True
                parsed.texts.append(TextBody(label, text))
            else:
                converted = html_to_text(text.decode("utf-8", errors="replace")).encode("utf-8")
                html_texts.append(TextBody(label + " (HTML)", converted, html=True))
            continue
        _attachment(parsed, name or "", content_type, payload, limits)
    if not has_plain and html_texts:
        parsed.html_only = True
        parsed.texts.extend(html_texts)
    structural = [d for d in broken if d in ("NoBoundaryInMultipartDefect", "StartBoundaryNotFoundDefect",
                                             "CloseBoundaryNotFoundDefect", "MultipartWithoutParts",
                                             "MultipartInvariantViolationDefect", "MissingHeaderBodySeparatorDefect")]
    if structural:
        parsed.notes.append("the mail's MIME structure is damaged (" + ", ".join(structural) + "); whatever "
                            "could be read was used")
        body = root.get_payload()
        if not root.is_multipart() and isinstance(body, str) and not parsed.texts:
            parsed.texts.append(TextBody("the mail body (raw)", body.encode("utf-8", errors="replace")[
                : limits.max_attachment_bytes]))


def _attachment(parsed: ParsedMail, name: str, content_type: str, payload: bytes, limits: Limits) -> None:
    shown = name or f"an unnamed {content_type} part"
    lowered = name.lower()
    if content_type in ARCHIVE_TYPES or lowered.endswith(ARCHIVE_SUFFIXES):
        parsed.notes.append(f"{shown}: archives (zip, tar, ...) are not opened; attach the .yaml file and its "
                            ".yaml.sig directly")
        return
    if not name:
        if content_type.startswith(("multipart/", "message/delivery-status", "message/")):
            return
        parsed.notes.append(f"{shown} was ignored (it has no file name)")
        return
    problem = check_name(name)
    if problem:
        parsed.notes.append(problem)
        return
    if not lowered.endswith(TEXT_SUFFIXES) and not content_type.startswith("text/"):
        parsed.notes.append(f"{shown} ({content_type}) was ignored: the judge reads .yaml files with their "
                            ".yaml.sig, and armored blocks in text")
        return
    if len(payload) > limits.max_attachment_bytes:
        parsed.notes.append(f"{shown} is {len(payload):,} bytes; an attached file may have at most "
                            f"{limits.max_attachment_bytes:,}")
        return
    if len(parsed.attachments) >= limits.max_files * 2:
        parsed.notes.append(f"{shown}: too many attachments in one mail; the rest was not read")
        return
    if any(a.name == name for a in parsed.attachments):
        parsed.notes.append(f"{shown}: attached twice; the first copy was used")
        return
    parsed.attachments.append(Attachment(name, payload, content_type))
