"""The certificate a hosted game makes for itself the first time it is hosted, and keeps: the
server in the game serves TLS with it, and guests remember its fingerprint the first time (trust
on first use, as with the standalone server: :class:`game.match.RemoteMatch`), so a changed one
is refused with the words that say what to do.

Self-signed (nobody signs a living room's game), an EC P-256 key, valid for 20 years; kept in the
hosting folder's ``tls/`` (``cert.pem``, ``key.pem``, the key readable by its owner only). A pair
that cannot be read is made anew (guests are then told the certificate changed).
"""
from __future__ import annotations

import datetime
import os
from pathlib import Path

from .tls import cert_fingerprint

__all__ = ["own_certificate"]

NAME = "Masters of Renaissance hosted game"
YEARS = 20


def own_certificate(folder: Path) -> tuple[Path, Path]:
    """(certificate, key) PEM files of this install's hosted games, in ``folder / "tls"``, made
    the first time.

    :raises OSError: the folder cannot be written.
    """
    where = Path(folder) / "tls"
    cert, key = where / "cert.pem", where / "key.pem"
    if cert_fingerprint(cert) and key.is_file():
        return cert, key
    from cryptography import x509                       # (loaded only to make one)
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, NAME)])
    now = datetime.datetime.now(datetime.timezone.utc)
    made = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(private.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=365 * YEARS))
            .sign(private, hashes.SHA256()))
    where.mkdir(parents=True, exist_ok=True)
    secret = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption())
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(secret)
    cert.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    return cert, key
