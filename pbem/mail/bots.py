"""Bot players that play by mail: they read the judge's mails and mail back signed orders and replies.

A bot knows only what reached it by mail: game.yaml from the welcome mail (and with it the
referee's key, which every view and request must be signed with), its own views and its own
decision requests. It answers each view that awaits its side and each request once. Its
orders go out in turn as attachments, as an armored block in a quoted-printable text body, and
as an armored block quoted in a reply (`> `), so a game exercises every way of carrying them.
"""

from __future__ import annotations

import email
import email.message
import email.policy
import email.utils
from dataclasses import dataclass, field
from typing import Any

from ..core.api import (SignatureError, ViewFile, bot_seed, file_hash, orders_document, reply_document, ruleset,
                        signing, yamlio)

STYLES = ("attach", "armor-qp", "armor-quoted")


@dataclass
class MailPlayer:
    side: str
    key: signing.SigningKey
    address: str
    judge: str
    game_yaml: bytes | None = None
    game: dict[str, Any] | None = None
    answered: set[str] = field(default_factory=set)
    sent: int = 0
    log: list[str] = field(default_factory=list)

    def receive(self, raw: bytes) -> list[bytes]:
        """The mails this bot sends in answer to one mail it received."""
        message = email.message_from_bytes(raw, policy=email.policy.default)
        files: dict[str, bytes] = {}
        for part in message.walk():
            name = part.get_filename()
            if name:
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes):
                    files[name] = payload
        if "game.yaml" in files and "game.yaml.sig" in files:
            self._learn_game(files["game.yaml"], files["game.yaml.sig"].decode("utf-8", "replace"))
        out = []
        for name in sorted(files):
            if not name.endswith(".yaml") or name == "game.yaml" or name + ".sig" not in files:
                continue
            data = files[name]
            if not self._from_referee(data, files[name + ".sig"].decode("utf-8", "replace")):
                self.log.append(f"{name}: not signed by the referee; ignored")
                continue
            doc = yamlio.load_bytes(data, name).data
            if doc.get("kind") == "view" and doc.get("side") == self.side:
                mail = self._orders(ViewFile(doc, data, name), message)
            elif doc.get("kind") == "decision-request" and doc.get("side") == self.side:
                mail = self._reply(doc, data, message)
            else:
                mail = None
            if mail is not None:
                out.append(mail)
        return out

    def _learn_game(self, data: bytes, signature: str) -> None:
        doc = yamlio.load_bytes(data, "game.yaml").data
        referee = doc["referee"]["key"]
        signing.verify(data, signature, signing.namespace("turn", doc["game"]), {"referee": referee})
        self.game_yaml, self.game = data, doc

    def _from_referee(self, data: bytes, signature: str) -> bool:
        if self.game is None:
            return False
        try:
            signing.verify(data, signature, signing.namespace("turn", self.game["game"]),
                           {"referee": self.game["referee"]["key"]})
        except SignatureError:
            return False
        return True

    def _orders(self, view: ViewFile, received: email.message.Message) -> bytes | None:
        ident = file_hash(view.data)
        next_ = view.doc["next"]
        if ident in self.answered or "result" in next_ or self.side not in next_.get("awaiting", []):
            return None
        self.answered.add(ident)
        orders = view.rules.bot_orders(view.doc["state"], self.side, bot_seed("pbem/mailbot/orders",
                                                                              self.side.encode(), view.data))
        doc = orders_document(view, orders, entropy=bot_seed("pbem/mailbot/entropy", self.side.encode(), view.data))
        return self._send(doc, f"orders-{view.doc['seq'] + 1:04d}.yaml", received)

    def _reply(self, request: dict[str, Any], data: bytes, received: email.message.Message) -> bytes | None:
        ident = file_hash(data)
        if ident in self.answered:
            return None
        self.answered.add(ident)
        rules = ruleset(self.game["ruleset"]["id"]) if self.game else None
        answer = rules.bot_answer(request, bot_seed("pbem/mailbot/answer", self.side.encode(), data)) if rules \
            else request["options"][0]
        doc = reply_document(request, data, answer)
        return self._send(doc, f"reply-{request['seq']:04d}-{request['index']:03d}.yaml", received)

    def _send(self, doc: dict[str, Any], name: str, received: email.message.Message) -> bytes:
        assert self.game is not None
        data = yamlio.dump(doc).encode("utf-8")
        signature = signing.sign(data, self.key, signing.namespace("orders", self.game["game"]))
        style = STYLES[self.sent % len(STYLES)]
        self.sent += 1
        message = email.message.EmailMessage(policy=email.policy.default)
        message["From"] = f"{self.side} player <{self.address}>"
        message["To"] = self.judge
        message["Subject"] = f"{doc['kind']} {name}"
        message["Date"] = email.utils.formatdate(localtime=False)
        message["Message-ID"] = email.utils.make_msgid(self.side, domain=self.address.rpartition("@")[2])
        if received.get("Message-ID"):
            message["In-Reply-To"] = received["Message-ID"]
        armored = signing.armor(data, signature, name=name)
        if style == "attach":
            message.set_content(f"My {doc['kind']} are attached.\n")
            message.add_attachment(data, maintype="application", subtype="yaml", filename=name)
            message.add_attachment(signature.encode(), maintype="application", subtype="octet-stream",
                                   filename=name + ".sig")
        elif style == "armor-qp":
            message.set_content(f"Here are my {doc['kind']}:\n\n{armored}\nRegards\n", cte="quoted-printable")
        else:
            quoted = "".join(f"> {line}\n" if line else ">\n" for line in armored.splitlines())
            message.set_content(f"As I wrote before:\n\n{quoted}\n")
        self.log.append(f"sent {name} ({style})")
        return message.as_bytes()
