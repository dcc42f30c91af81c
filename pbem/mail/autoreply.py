"""Which mail the judge must never answer (RFC 3834 §2, and what bounces and lists look like).

The judge answers people. It stays silent for automatic mail (Auto-Submitted other than "no",
vacation and out-of-office replies), delivery reports and bounces, and mailing-list traffic:
answering those is how mail loops start. Its own answers carry `Auto-Submitted: auto-replied`
so that well-behaved responders stay silent too; `intake` adds a per-address daily cap for
the responders that are not well-behaved.
"""

from __future__ import annotations

import re

from .message import ParsedMail

JUDGE_HEADER = "X-Pbem-Judge"
_BOUNCE_LOCAL = re.compile(r"^(mailer-daemon|postmaster|mail-daemon|mailerdaemon|bounces?|no-?reply|do-?not-?reply|"
                           r"owner-.*|.*-request|.*-owner|.*-bounces?)$", re.IGNORECASE)
_AUTO_SUBJECT = re.compile(r"^\s*(auto(matic)?[- ]?(reply|response)|out of (the )?office|vacation|abwesenheit|"
                           r"absence|undeliver|delivery status notification|returned mail|mail delivery failed)",
                           re.IGNORECASE)


def why_silent(mail: ParsedMail, judge_addresses: tuple[str, ...] = ()) -> str | None:
    """The reason this mail must not be answered, or None if a person may be waiting for an answer."""
    auto = mail.header("auto-submitted").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto} (RFC 3834: never answer automatic mail)"
    if mail.headers.get(JUDGE_HEADER.lower()):
        return "it is one of the judge's own mails coming back"
    return_path = mail.header("return-path").strip()
    if return_path in ("<>", "") and "return-path" in mail.headers:
        return "empty Return-Path: a bounce or another automatic message"
    content_type = mail.header("content-type").lower()
    if content_type.startswith("multipart/report") or "delivery-status" in content_type:
        return "a delivery status report (bounce)"
    precedence = mail.header("precedence").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("list-id", "list-unsubscribe", "list-post", "x-mailing-list", "mailing-list"):
        if name in mail.headers:
            return f"mailing-list traffic ({name})"
    if "x-autoreply" in mail.headers or "x-autorespond" in mail.headers:
        return "an auto-responder's mail (X-Autoreply)"
    if not mail.sender:
        return "no address to answer (no usable From or Reply-To)"
    local = mail.sender.split("@", 1)[0]
    if _BOUNCE_LOCAL.match(local):
        return f"{mail.sender} is a system address (bounces, lists, no-reply)"
    if mail.sender.lower() in {a.lower() for a in judge_addresses}:
        return "it comes from the judge's own address"
    if _AUTO_SUBJECT.match(mail.subject):
        return f"the subject {mail.subject[:60]!r} is an auto-responder's or a bounce's"
    return None
