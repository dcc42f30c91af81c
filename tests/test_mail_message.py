"""Reading one mail: bodies (plain, quoted-printable, charsets, forwarded), attachments, RFC 3834 marks."""

from __future__ import annotations

import email.message
import email.policy

from pbem.mail.autoreply import why_silent
from pbem.mail.compose import Part, compose, make_id
from pbem.mail.message import check_name, html_to_text, parse
from tests.test_mail_kit import plain_mail


def test_quoted_printable_and_charsets() -> None:
    message = email.message.EmailMessage(policy=email.policy.default)
    message["From"], message["Subject"], message["Message-ID"] = "a@b.test", "x", "<q@b.test>"
    long_line = "entropy: " + "ab" * 60
    message.set_content(f"héllo\n{long_line}\n", cte="quoted-printable")
    raw = message.as_bytes()
    assert b"=\n" in raw  # soft line breaks: QP re-wrapped the long line
    mail = parse(raw)
    assert mail.texts[0].data == f"héllo\n{long_line}\n".encode()
    latin = (b"From: a@b.test\nMessage-ID: <l@b.test>\nContent-Type: text/plain; charset=iso-8859-1\n"
             b"Content-Transfer-Encoding: 8bit\n\nh\xe9llo\n")
    assert parse(latin).texts[0].data == "héllo\n".encode()


def test_forwarded_message_body_is_read() -> None:
    inner = plain_mail("red@players.test", "orders", "the inner text\n")
    outer = email.message.EmailMessage(policy=email.policy.default)
    outer["From"], outer["Subject"], outer["Message-ID"] = "fwd@b.test", "Fwd: orders", "<f@b.test>"
    outer.set_content("see below\n")
    outer.add_attachment(email.message_from_bytes(inner, policy=email.policy.default))
    mail = parse(outer.as_bytes())
    labels = [text.label for text in mail.texts]
    assert "the forwarded mail's body" in labels
    assert any(b"the inner text" in text.data for text in mail.texts)


def test_headers_and_missing_message_id() -> None:
    raw = b"From: Red <red@players.test>\nReply-To: other@players.test\nSubject: =?utf-8?q?h=C3=A9?=\n\nx\n"
    mail = parse(raw)
    assert mail.sender == "other@players.test" and mail.subject == "hé"
    assert mail.message_id.startswith("<sha256-") and parse(raw).message_id == mail.message_id


def test_names() -> None:
    assert check_name("orders-0001.yaml") is None
    for bad in ("../x.yaml", "/etc/passwd", "a\\b.yaml", "~x", ".hidden", "a b.yaml", "x" * 200):
        assert check_name(bad) is not None


def test_html_to_text() -> None:
    assert html_to_text("<p>a</p><script>evil()</script><div>b&amp;c</div>").split() == ["a", "b&c"]


LINES = ["-----BEGIN X-----", "Name: o.yaml", "", "pbem: 2", "orders:", "- {place: hq, cell: 3}", "", "end"]


def test_html_lines_as_a_mail_client_shows_them() -> None:
    """Each editor's way of writing lines gives exactly the typed lines, empty ones included."""
    typed = "\n".join(LINES)
    styles = {
        "div": "".join(f"<div>{line or '<br>'}</div>" for line in LINES),  # Gmail, Apple Mail
        "p": "\n".join(f"<p class=MsoNormal>{line or '&nbsp;'}</p>" for line in LINES),  # Outlook
        "br": "<div>" + "<br>".join(LINES) + "</div>",
        "br/": "".join(f"{line}<br/>\n" for line in LINES),
        "pre": "<pre>" + typed + "</pre>",
        "div br": "".join(f"<div>{line}<br></div>" if line else "<div><br></div>" for line in LINES),
    }
    for style, body in styles.items():
        html = f"<html><head><style>p {{margin: 0}}</style></head><body>\n<div>My orders:</div>\n{body}\n</body></html>"
        shown = html_to_text(html).strip("\n").split("\n")
        assert shown == ["My orders:", *LINES], (style, shown)


def test_html_keeps_what_a_block_holds() -> None:
    # inside <pre> nothing changes, not even the layout between its tags
    assert html_to_text("<pre>a\n\n  b<b>c</b>\n<i>d</i></pre>") == "a\n\n  bc\nd\n"
    # indentation written as &nbsp; survives; trailing spaces (never in a signed text) go
    assert html_to_text("<div>&nbsp;&nbsp;- x&nbsp;</div><div>y </div>") == "  - x\ny\n"
    # a block inside a block does not make an empty line; <br> at a block's end neither
    assert html_to_text("<div><div>a</div></div><div>b<br></div><div>c</div>") == "a\nb\nc\n"
    # "<br>" then the source's line break is one break; raw indentation after it is the text's own
    assert html_to_text("a:<br>\n- b: 1<br>\n  c: 2<br>") == "a:\n- b: 1\n  c: 2\n"


def test_rfc3834() -> None:
    def silent(extra: dict[str, str], sender: str = "red@players.test", subject: str = "hi") -> str | None:
        return why_silent(parse(plain_mail(sender, subject, "x", extra=extra)), ("judge@pbem.test",))

    assert silent({}) is None
    assert silent({"Auto-Submitted": "no"}) is None
    assert silent({"Auto-Submitted": "auto-replied"})
    assert silent({"Auto-Submitted": "auto-generated; owner-email=x@y"})
    assert silent({"Return-Path": "<>"})
    assert silent({"Precedence": "junk"})
    assert silent({"List-Unsubscribe": "<mailto:x@y>"})
    assert silent({"X-Autoreply": "yes"})
    assert silent({}, sender="postmaster@players.test")
    assert silent({}, sender="wargames-request@lists.test")
    assert silent({}, sender="judge@pbem.test")
    assert silent({}, subject="Out of Office: back Monday")
    assert silent({}, subject="Automatic reply: orders")


def test_compose_headers() -> None:
    mid = make_id("answer", "<m@x>", "red@players.test", domain="pbem.test")
    assert mid == make_id("answer", "<m@x>", "red@players.test", domain="pbem.test")
    out = compose(sender="judge@pbem.test", to=["red@players.test"], subject="Re: x", body="hello",
                  message_id=mid, in_reply_to="<m@x>", references=["<a@x>"],
                  attachments=[Part("v.yaml", b"a: 1\n", "application/yaml")])
    message = email.message_from_bytes(out.data, policy=email.policy.default)
    assert message["References"] == "<a@x> <m@x>" and message["In-Reply-To"] == "<m@x>"
    assert message["Auto-Submitted"] == "auto-replied" and message["X-Pbem-Judge"]
    [attachment] = list(message.iter_attachments())
    assert attachment.get_payload(decode=True) == b"a: 1\n"
