"""The app's mail transport: SMTP with STARTTLS, implicit TLS or none (a test server on this
computer), by the standard library.  A :class:`keizer.operations.mail.Postman` for
:func:`keizer.operations.mail.send_week_mail`; every failure is a one-line ``MailError``."""

from __future__ import annotations

import smtplib
import socket
import ssl
from contextlib import contextmanager
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Iterator

from keizer.formats.targets import kept_password
from keizer.operations.mail import MailError, MailSettings

#: Seconds to wait for the mail server.
TIMEOUT = 30.0


class SmtpPostman:
    """One connection to the club's mail server, logged in."""

    def __init__(self, smtp: smtplib.SMTP, sender: str, sender_name: str, language: str) -> None:
        self.smtp, self.sender, self.sender_name, self.language = smtp, sender, sender_name, language

    def send(self, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        local, _, domain = self.sender.partition("@")
        message["From"] = Address(self.sender_name, local, domain)
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=True)
        message["Message-ID"] = make_msgid(domain=domain or None)
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(body)
        message["Content-Language"] = self.language  # after the content: set_content replaces Content-* headers
        try:
            self.smtp.send_message(message)
        except smtplib.SMTPRecipientsRefused as e:
            code, why = next(iter(e.recipients.values()))
            raise MailError("the mail server refused %(address)s (%(why)s)", address=to,
                            why=f"{code} {why.decode('utf-8', 'replace')}") from None
        except smtplib.SMTPResponseException as e:
            error = e.smtp_error.decode("utf-8", "replace") if isinstance(e.smtp_error, bytes) else str(e.smtp_error)
            raise MailError("the mail server refused the mail to %(address)s (%(why)s)", address=to,
                            why=f"{e.smtp_code} {error}") from None
        except (smtplib.SMTPException, OSError) as e:
            raise MailError("the mail to %(address)s did not go (%(why)s)", address=to, why=str(e) or type(e).__name__) \
                from None


@contextmanager
def postman(settings: MailSettings, password: str | None, sender_name: str, language: str) -> Iterator[SmtpPostman]:
    """Connect and log in (refused in one line when the server cannot be reached, its
    certificate is not trusted or it refuses the login), yield the postman, then say goodbye."""
    server = f"{settings.host}:{settings.port}"
    try:
        if settings.security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(settings.host, settings.port, timeout=TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(settings.host, settings.port, timeout=TIMEOUT)
            if settings.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if settings.user:
            if password is None:
                smtp.close()
                raise MailError("no password for the mail account %(account)s", account=f"{settings.user}@{settings.host}")
            smtp.login(settings.user, password)
    except smtplib.SMTPAuthenticationError:
        raise MailError("the mail server %(server)s refused the login of %(user)s; check the user name and the "
                        "password", server=server, user=settings.user) from None
    except smtplib.SMTPNotSupportedError:
        raise MailError("the mail server %(server)s does not offer STARTTLS; choose TLS, or another server",
                        server=server) from None
    except ssl.SSLError as e:
        raise MailError("the mail server %(server)s: no secure connection (%(why)s); check the security setting and "
                        "the port", server=server, why=e.reason or str(e)) from None
    except (OSError, smtplib.SMTPException) as e:
        why = "timed out" if isinstance(e, socket.timeout) else (e.strerror or str(e) or type(e).__name__) \
            if isinstance(e, OSError) else str(e)
        raise MailError("could not reach the mail server %(server)s (%(why)s); check the mail settings", server=server,
                        why=why) from None
    try:
        yield SmtpPostman(smtp, settings.sender, sender_name, language)
    finally:
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            smtp.close()


#: The server's own mail password (for the account a terminal set only).
PASSWORD_ENV = "KEIZER_MAIL_PASSWORD"
KEYRING_SERVICE = "keizer-mail"


def server_password(settings: MailSettings) -> str | None:
    """``$KEIZER_MAIL_PASSWORD``, else the system keyring's password of the account (if installed)."""
    return kept_password(PASSWORD_ENV, KEYRING_SERVICE, settings.account)
