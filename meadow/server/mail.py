"""E-mail (off unless an SMTP host is set): 'your turn' notices for async tables, which name
the game and the table, never anything about the position; and the links people ask for (a
new password, an address to confirm, undoing a change of address), whose secrets appear
in no log line."""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from typing import Any

from meadow.server.settings import Settings

log = logging.getLogger("meadow.server")


class Mailer:
    def __init__(self, config: Settings) -> None:
        self.config = config
        self.sending = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")

    @property
    def on(self) -> bool:
        return bool(self.config.smtp_host)

    def your_turn(self, to: str, name: str, game_title: str, table_id: int) -> None:
        """Queue a notice; sending happens off the request, and a failure is only logged."""
        if not self.on:
            return
        message = EmailMessage()
        message["From"] = self.config.smtp_from
        message["To"] = to
        message["Subject"] = f"Your turn in {game_title} (table {table_id})"
        link = f"{self.config.public_url.rstrip('/')}/#/table/{table_id}"
        message.set_content(f"Hello {name},\n\nit is your move in {game_title}: {link}\n")
        self.sending.submit(self._send, message)

    def reset_link(self, to: str, name: str, token: str, minutes: int) -> None:
        """A link that sets a new password for the account `name`, once, within `minutes`."""
        link = self._link(f"#/reset/{token}")
        self._queue(
            to,
            f"A new password for {name} at Meadow",
            f"Hello {name},\n\nsomeone (you, we hope) asked to set a new password for your "
            f"Meadow account {name}. This link sets one, once, within {minutes} minutes:\n\n"
            f"{link}\n\nIf it was not you, do nothing: your password stays as it is.\n",
        )

    def confirm_link(self, to: str, name: str, token: str, hours: int) -> None:
        """A link that confirms `to` as the address of the account `name`."""
        link = self._link(f"#/confirm/{token}")
        self._queue(
            to,
            f"Confirm your e-mail address for {name} at Meadow",
            f"Hello {name},\n\nthis address was given for the Meadow account {name}. Follow "
            f"this link within {hours} hours to confirm it; until then nothing else is sent "
            f"to it:\n\n{link}\n\nIf it was not you, do nothing.\n",
        )

    def address_changing(self, to: str, name: str, new: str | None, token: str, days: int) -> None:
        """Tell the confirmed address `to` that the account `name` is moving to `new` (None:
        removing it), with a link that takes the change back within `days`."""
        link = self._link(f"#/undo-address/{token}")
        change = f"changed to {new}" if new else "removed"
        self._queue(
            to,
            f"Your e-mail address for {name} at Meadow is changing",
            f"Hello {name},\n\nthe e-mail address of your Meadow account {name} was just "
            f"{change}, with the account's password. If that was you, do nothing.\n\nIf it "
            f"was not you, this link keeps this address, takes the change back and signs the "
            f"account out in every browser, once, within {days} days; then ask for a new "
            f"password at this address:\n\n{link}\n",
        )

    def _link(self, page: str) -> str:
        return f"{self.config.public_url.rstrip('/')}/{page}"

    def _queue(self, to: str, subject: str, text: str) -> None:
        if not self.on:
            return
        message = EmailMessage()
        message["From"] = self.config.smtp_from
        message["To"] = to
        message["Subject"] = subject
        message.set_content(text)
        self.sending.submit(self._send, message)

    def later(self, errand: Callable[..., None], *args: Any) -> None:
        """Run an errand of the notices (looking up whom to tell) on the sending thread."""
        self.sending.submit(errand, *args)

    def _send(self, message: EmailMessage) -> None:
        try:
            with smtplib.SMTP(self.config.smtp_host or "", self.config.smtp_port, timeout=10) as s:
                if self.config.smtp_user:
                    s.starttls()
                    s.login(self.config.smtp_user, self.config.smtp_password or "")
                s.send_message(message)
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("could not send a notice to %s: %s", message["To"], exc)

    def close(self) -> None:
        self.sending.shutdown(wait=True)
