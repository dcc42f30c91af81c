"""The SMTP sender: smtplib, implicit TLS (smtps://) or STARTTLS (smtp://), login when a user is given."""

from __future__ import annotations

import smtplib

from ..core.api import PbemError
from .compose import as_crlf
from .state import Queued
from .transport import PermanentSendError
from .urls import ServerUrl

TIMEOUT_SECONDS = 60.0


class SmtpSender:
    def __init__(self, url: ServerUrl, timeout: float = TIMEOUT_SECONDS) -> None:
        self.url = url
        self.timeout = timeout
        self.conn: smtplib.SMTP | None = None

    def connect(self) -> smtplib.SMTP:
        if self.conn is not None:
            try:
                if self.conn.noop()[0] == 250:
                    return self.conn
            except (smtplib.SMTPException, OSError):
                pass
            self.conn = None
        url = self.url
        conn: smtplib.SMTP | None = None
        try:
            if url.implicit_tls:
                conn = smtplib.SMTP_SSL(url.host, url.port, timeout=self.timeout,
                                                      context=url.ssl_context())
            else:
                conn = smtplib.SMTP(url.host, url.port, timeout=self.timeout)
                conn.ehlo()
                if url.starttls:
                    if not conn.has_extn("starttls"):
                        conn.quit()
                        raise PbemError(f"{url}: the server offers no STARTTLS; refusing to send in clear "
                                        "(add ?starttls=no only for a server on this machine)")
                    conn.starttls(context=url.ssl_context())
                    conn.ehlo()
            if url.user:
                conn.login(url.user, url.password or "")
        except (smtplib.SMTPException, OSError) as error:
            if conn is not None:
                conn.close()
            raise PbemError(f"{url}: {error}") from None
        self.conn = conn
        return conn

    def send(self, item: Queued, envelope_from: str) -> str | None:
        """Send one answer; a warning when some recipients were refused (the others got it: no retry)."""
        conn = self.connect()
        try:
            refused = conn.sendmail(envelope_from, list(item.to), as_crlf(item.data))
        except smtplib.SMTPRecipientsRefused as error:
            raise PermanentSendError(f"{self.url}: every recipient of {item.message_id} was refused: "
                                     f"{error.recipients}") from None
        except (smtplib.SMTPException, OSError) as error:
            self.conn = None
            raise PbemError(f"{self.url}: sending {item.message_id} failed: {error}") from None
        if refused:
            return f"{self.url}: {item.message_id} refused for {sorted(refused)}"
        return None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self.conn = None
