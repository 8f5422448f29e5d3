"""A Dask scheduler's address and its TLS files, checked before any work: `--scheduler` and its options.

`checked_scheduler` refuses, in one line, what would fail later or run unsafely: a malformed address, TLS
files for a plain or a local scheduler, some of the three files but not all, a file that is not the PEM its
option says, and a plain address off this machine (unless the caller says it is insecure and means it).
"""
from __future__ import annotations

import ipaddress
import os
import re


class SchedulerAddress(str):
    """``--scheduler``'s value: ``local`` or a checked ``tcp://HOST:PORT`` / ``tls://HOST:PORT``, with the
    TLS files to connect with and whether a plain address off this machine was allowed (``--insecure``), and
    how long the client tries to reach it (``--scheduler-timeout``).
    A str, so reports and callers that only pass it on see the address."""
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    insecure: bool = False
    connect_timeout: float = 10.0       # seconds before an address that does not answer is given up

    @property
    def scheme(self) -> str:
        return self.split("://", 1)[0] if "://" in self else self

    @property
    def host(self) -> str:
        return self.split("://", 1)[1].rsplit(":", 1)[0].strip("[]") if "://" in self else ""

    @property
    def loopback(self) -> bool:
        if self == "local" or self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


_ADDRESS = r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::([0-9]{1,5}))?"


def parse_scheduler(text: str) -> SchedulerAddress:
    """``local``, or a scheduler's address (the port defaults to Dask's 8786); ValueError in one line."""
    if text == "local":
        return SchedulerAddress("local")
    m = re.fullmatch(_ADDRESS, text)
    if not m:
        raise ValueError(f"{text!r} is not 'local', tcp://HOST:PORT or tls://HOST:PORT")
    port = int(m[3] or 8786)
    if not 1 <= port <= 65535:
        raise ValueError(f"{text!r}: port {port} is not in 1..65535")
    return SchedulerAddress(f"{m[1]}://{m[2]}:{port}")


def checked_scheduler(address: str | None, tls_ca_file: str | None = None, tls_cert: str | None = None,
                      tls_key: str | None = None, insecure: bool = False) -> SchedulerAddress | None:
    """The address with its security settings, or ValueError saying in one line what is missing or unsafe.

    A plain tcp:// address off this machine is refused unless *insecure*: the jobs (pickled code) and
    their results would cross the network unauthenticated, so whoever reaches the scheduler could run
    code on its workers and in this process."""
    tls = {"--tls-ca-file": tls_ca_file, "--tls-cert": tls_cert, "--tls-key": tls_key}
    given = [k for k, v in tls.items() if v]
    if address is None:
        if given or insecure:
            raise ValueError(f"{(given or ['--insecure'])[0]} is for a Dask scheduler: give --scheduler too")
        return None
    s = parse_scheduler(str(address))
    if s == "local" and given:
        raise ValueError(f"{given[0]}: --scheduler local makes its own temporary certificate; "
                         f"TLS files are for a tls:// scheduler")
    if s.scheme == "tcp" and given:
        raise ValueError(f"{given[0]}: a tcp:// scheduler is plain; use a tls:// address with TLS files")
    if s.scheme == "tcp" and not s.loopback and not insecure:
        raise ValueError(f"--scheduler {s}: a plain address off this machine (anyone who reaches it runs code "
                         f"on its workers and in this process); use tls:// with --tls-ca-file/--tls-cert/"
                         f"--tls-key, or say --insecure")
    if s.scheme == "tls":
        if given and len(given) < 3:
            missing = [k for k in tls if k not in given]
            raise ValueError(f"--scheduler {s}: give {', '.join(missing)} too (or none of the three, "
                             f"to use the Dask configuration's distributed.comm.tls settings)")
        for option, path in tls.items():
            if path and not os.path.isfile(path):
                raise ValueError(f"{option} {path}: no such file")
        if tls_ca_file and tls_cert and tls_key:           # all three given (checked just above)
            _check_pem_files(tls_ca_file, tls_cert, tls_key)
    s.tls_ca_file, s.tls_cert, s.tls_key, s.insecure = tls_ca_file, tls_cert, tls_key, insecure
    return s


def _check_pem_files(ca_file: str, cert: str, key: str) -> None:
    """Each TLS file read as the connection will read it (Python's ssl), ValueError naming the one that is not
    what its option says: Dask's own error, "[SSL] PEM lib", names none."""
    import ssl      # lazy: 7 ms of start-up, paid only by a run given TLS files

    def no_password() -> bytes:            # an encrypted key: refused here, not a password prompt mid-run
        return b""

    for option, path, what in (("--tls-ca-file", ca_file, "certificate"), ("--tls-cert", cert, "certificate")):
        try:
            ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cafile=path)
        except (ssl.SSLError, OSError) as exc:
            raise ValueError(f"{option} {path}: holds no PEM {what} that can be read ({_ssl_reason(exc)})") from None
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_cert_chain(cert, key, password=no_password)
    except (ssl.SSLError, OSError) as exc:
        if getattr(exc, "reason", None) == "KEY_VALUES_MISMATCH":
            raise ValueError(f"--tls-key {key}: is not the key of --tls-cert {cert}") from None
        raise ValueError(f"--tls-key {key}: holds no PEM private key that can be read without a password "
                         f"({_ssl_reason(exc)})") from None


def _ssl_reason(exc: Exception) -> str:
    """OpenSSL's reason in words ("no certificate or crl found"), or what a reasonless "PEM lib" means."""
    import ssl      # lazy: as in _check_pem_files (imported there already)
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        return reason.lower().replace("_", " ")
    if isinstance(exc, OSError) and not isinstance(exc, ssl.SSLError) and exc.strerror:
        return exc.strerror                    # the file itself cannot be read
    return "its PEM text does not decode"
