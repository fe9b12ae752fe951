"""SEC: transport without encryption, weak cryptography, credentials where they show,
access without authentication."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from ...support.redact import redact_text, redact_url
from ..finding import Finding
from ..rule import AuditContext, Check, HeldChannel, rule
from .text import profile_label
from .urls import host_of, is_loopback, urls_where

__all__ = ["PLAIN_SCHEMES", "WEAK_AS2", "WEAK_OPCUA"]

PLAIN_SCHEMES = frozenset({"http", "ftp", "smtp", "imap", "pop3", "ldap", "ws", "mqtt", "amqp"})
"""URL schemes that carry data in clear text (their TLS twins end in `s`)."""
WEAK_AS2 = frozenset({"SHA1", "MD5", "3DES", "DES", "DESEDE", "TRIPLEDES", "RC2", "RC4",
                      "NONE"})  # fmt: skip
"""AS2 signing and encryption algorithms to replace, normalised (upper case, no `-`/`_`;
`3DES`, `DES_EDE3` and `RC2_CBC` read as `3DES`, `DESEDE3`, `RC2CBC` and match by prefix)."""
WEAK_OPCUA = frozenset({"Basic128Rsa15", "Basic256"})
"""OPC UA security policies the OPC Foundation deprecated (SHA-1, RSA-1.5)."""
_USERINFO = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#@\s]*:[^/?#@\s]*@")


def _scheme(url: str) -> str:
    return url.split("://", 1)[0].lower()


def _channel_finding(ctx: AuditContext, channel: HeldChannel, field: str, text: str) -> Finding:
    """A finding on one field of a channel, located where the channel is first held."""
    return ctx.finding(
        text,
        channel.record,
        channel.node,
        path=f"{channel.path}.{field}",
        key=f"{channel.node}:{field}",
    )


def _once_per_key(check: Check) -> Check:
    """A channel rule reporting each channel's field once: `channels_of` yields every copy
    of a channel that differs (DAT002), so a weak setting held only by a later copy is
    found, and one held by several copies is one finding, at the first."""

    @functools.wraps(check)
    def once(ctx: AuditContext) -> Iterator[Finding]:
        seen: set[str] = set()
        for found in check(ctx):
            if found.key not in seen:
                seen.add(found.key)
                yield found

    return once


def _name(channel: HeldChannel) -> str:
    name = channel.json.get("name")
    return f"{channel.type} channel {name!r} ({channel.node})" if name else (
        f"{channel.type} channel {channel.node}")  # fmt: skip


@rule(
    "SEC001", "plain_transport_url", "warning",
    title="URL without transport encryption",
    rationale="http, ftp, smtp, imap, pop3, ldap, ws, mqtt and amqp URLs carry data and "
    "passwords in clear text to anyone on the path. Loopback hosts are not reported.",
    remedy="Use the TLS variant (https, ftps, smtps or STARTTLS, imaps, ldaps, wss, "
    "mqtts, amqps).",
)  # fmt: skip
def plain_transport_url(ctx: AuditContext) -> Iterator[Finding]:
    def suspect(url: str) -> bool:
        return _scheme(url) in PLAIN_SCHEMES and not is_loopback(host_of(url))

    for at in urls_where(ctx, suspect):
        yield _url_finding(ctx, at, f"{{url}} is not encrypted ({_scheme(at.url)})")


@rule(
    "SEC002", "http_ssl_disabled", "warning",
    title="HTTP client settings with SSL disabled",
    rationale="`sslEnabled: false` sends the request, its headers (often a token) and the "
    "data in clear text. Loopback hosts are not reported.",
    remedy="Set sslEnabled to true and use the partner's HTTPS port.",
)  # fmt: skip
def http_ssl_disabled(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.valid_records:
        places = [("$.inputAgentSettings.httpSettings", (record.agent or {}).get("httpSettings"))]
        places += [
            (f"$.responseSettings.units[{n}].httpSettings", unit.get("httpSettings"))
            for n, unit in enumerate(record.response_units)
            if isinstance(unit, dict)
        ]
        for path, http in places:
            if not isinstance(http, dict) or http.get("sslEnabled") is not False:
                continue
            host = http.get("host")
            if is_loopback(host if isinstance(host, str) else None):
                continue
            yield ctx.finding(
                f"{profile_label(record)}: HTTP to {redact_text(str(host))} with sslEnabled "
                f"false at {path}",
                record,
                path=f"{path}.sslEnabled",
                key=f"{record.node}:{path}",
            )


@rule(
    "SEC003", "ftp_without_tls", "warning",
    title="FTP channel without a certificate (plain FTP)",
    rationale="An FTP channel with neither a local nor a remote certificate runs plain FTP: "
    "user name, password and files cross the network in clear text.",
    remedy="Switch the partner to FTPS (certificates on the channel) or to SFTP.",
)  # fmt: skip
@_once_per_key
def ftp_without_tls(ctx: AuditContext) -> Iterator[Finding]:
    for channel in ctx.channels_of("FTP"):
        if channel.json.get("localCertificateId") or channel.json.get("remoteCertificateId"):
            continue
        host = channel.json.get("host") or "?"
        yield _channel_finding(
            ctx, channel, "remoteCertificateId",
            f"{_name(channel)} to {redact_text(str(host))} has no certificate: plain FTP",
        )  # fmt: skip


@rule(
    "SEC004", "opcua_security_none", "error",
    title="OPC UA channel with security policy None",
    rationale="Security policy None neither signs nor encrypts: anyone on the network can "
    "read and forge the plant data and commands.",
    remedy="Use Basic256Sha256, Aes128_Sha256_RsaOaep or Aes256_Sha256_RsaPss with the "
    "channel's certificates.",
)  # fmt: skip
@_once_per_key
def opcua_security_none(ctx: AuditContext) -> Iterator[Finding]:
    for channel in ctx.channels_of("IoT"):
        policy = channel.json.get("opcSecurityPolicy")
        if isinstance(policy, str) and policy.strip().lower() in ("none", ""):
            yield _channel_finding(
                ctx, channel, "opcSecurityPolicy",
                f"{_name(channel)} uses OPC UA security policy {policy!r}",
            )  # fmt: skip


@rule(
    "SEC005", "weak_opcua_policy", "warning",
    title="OPC UA channel with a deprecated security policy",
    rationale="Basic128Rsa15 and Basic256 rely on SHA-1 and RSA PKCS#1 v1.5, which the OPC "
    "Foundation deprecated.",
    remedy="Use Basic256Sha256, Aes128_Sha256_RsaOaep or Aes256_Sha256_RsaPss.",
)  # fmt: skip
@_once_per_key
def weak_opcua_policy(ctx: AuditContext) -> Iterator[Finding]:
    for channel in ctx.channels_of("IoT"):
        policy = channel.json.get("opcSecurityPolicy")
        if policy in WEAK_OPCUA:
            yield _channel_finding(
                ctx, channel, "opcSecurityPolicy",
                f"{_name(channel)} uses the deprecated OPC UA policy {policy}",
            )  # fmt: skip


def _weak_algorithm(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    normal = re.sub(r"[-_\s]", "", value).upper()
    return normal == "" or any(normal.startswith(weak) for weak in WEAK_AS2)


@rule(
    "SEC006", "weak_as2_algorithm", "warning",
    title="AS2 signing or encryption with a weak algorithm, or none",
    rationale="SHA1 and MD5 signatures can be forged, 3DES, DES, RC2 and RC4 encryption "
    "broken; 'none' signs or encrypts nothing. EDI messages carry orders and invoices.",
    remedy="Sign with SHA256 or better and encrypt with AES128/AES256 (agree the change "
    "with the partner: both sides must support it).",
)  # fmt: skip
@_once_per_key
def weak_as2_algorithm(ctx: AuditContext) -> Iterator[Finding]:
    for channel in ctx.channels_of("AS2"):
        for field, what in (("signingAlgorithm", "signs"), ("encryptionAlgorithm", "encrypts")):
            value = channel.json.get(field)
            if _weak_algorithm(value):
                said = repr(value) if value else "nothing (empty)"
                yield _channel_finding(ctx, channel, field, f"{_name(channel)} {what} with {said}")


_KEY_BITS = re.compile(r"(\d{3,5})")
_HASH_NAMES = re.compile(r"sha\d?-?\d+|nistp\d+")


@rule(
    "SEC007", "weak_ssh_key", "warning",
    title="SFTP channel with a weak host key type",
    rationale="DSA keys (ssh-dss) are limited to 1024 bits and disabled by OpenSSH; RSA "
    "keys shorter than a threshold (when the key type states its length) can be factored.",
    remedy="Ask the partner for an Ed25519 or ECDSA host key (or RSA of 3072 bits), and "
    "pin its fingerprint.",
    options={"min-rsa-bits": 2048},
)  # fmt: skip
@_once_per_key
def weak_ssh_key(ctx: AuditContext) -> Iterator[Finding]:
    least = int(ctx.option("min-rsa-bits"))
    for channel in ctx.channels_of("SFTP"):
        key_type = channel.json.get("keyType")
        if not isinstance(key_type, str):
            continue
        lowered = key_type.lower()
        bits = _KEY_BITS.search(_HASH_NAMES.sub("", lowered))  # not the 512 of rsa-sha2-512
        if "dss" in lowered or "dsa" in lowered.replace("ecdsa", ""):
            said = "a DSA key"
        elif "rsa" in lowered and bits and int(bits.group(1)) < least:
            said = f"an RSA key of {bits.group(1)} bits (less than {least})"
        else:
            continue
        yield _channel_finding(
            ctx, channel, "keyType", f"{_name(channel)} has {said} ({key_type!r})"
        )


@rule(
    "SEC008", "sftp_without_host_key", "warning",
    title="SFTP channel without a pinned host key",
    rationale="Without a host key fingerprint the platform accepts whatever key the server "
    "presents: a man in the middle receives the files and the credentials.",
    remedy="Pin the partner's host key fingerprint (SHA256:...) on the channel.",
)  # fmt: skip
@_once_per_key
def sftp_without_host_key(ctx: AuditContext) -> Iterator[Finding]:
    for channel in ctx.channels_of("SFTP"):
        fingerprint = channel.json.get("keyFingerprint")
        if not (isinstance(fingerprint, str) and fingerprint.strip()):
            host = channel.json.get("host") or "?"
            yield _channel_finding(
                ctx, channel, "keyFingerprint",
                f"{_name(channel)} to {redact_text(str(host))} pins no host key fingerprint",
            )  # fmt: skip


@rule(
    "SEC009", "as2_without_mdn", "warning",
    title="AS2 channel that asks for no receipt (MDN)",
    rationale="Without an MDN neither side can prove a message arrived (non-repudiation), "
    "and a lost message goes unnoticed. Which mdnMode values mean 'none' is a threshold "
    "(`no-mdn-modes`), 0 by default.",
    remedy="Request a signed MDN, synchronous or asynchronous.",
    options={"no-mdn-modes": [0]},
)  # fmt: skip
@_once_per_key
def as2_without_mdn(ctx: AuditContext) -> Iterator[Finding]:
    none = set(ctx.option("no-mdn-modes"))
    for channel in ctx.channels_of("AS2"):
        mode = channel.json.get("mdnMode")
        if mode in none and not isinstance(mode, bool):
            yield _channel_finding(
                ctx, channel, "mdnMode", f"{_name(channel)} asks for no MDN (mdnMode {mode})"
            )


@rule(
    "SEC010", "as2_without_partner_id", "warning",
    title="AS2 channel without the partner's AS2 id",
    rationale="The partner's AS2 id is what the platform checks incoming messages against; "
    "without it a message is matched by URL or certificate alone, or not at all.",
    remedy="Set partnerAs2Id to the id the partner sends in its AS2-From header.",
)  # fmt: skip
@_once_per_key
def as2_without_partner_id(ctx: AuditContext) -> Iterator[Finding]:
    for channel in ctx.channels_of("AS2"):
        value = channel.json.get("partnerAs2Id")
        if not (isinstance(value, str) and value.strip()):
            yield _channel_finding(
                ctx, channel, "partnerAs2Id", f"{_name(channel)} has no partner AS2 id"
            )


@rule(
    "SEC011", "credentials_in_url", "error",
    title="Credentials written into a URL",
    rationale="A user:password@ in a URL is stored in clear text in the profile, shown to "
    "everyone who may view it, and copied into logs, exports and snapshots.",
    remedy="Remove the credentials from the URL, store them in the platform's credential "
    "store, and change the password: it has been exposed.",
)  # fmt: skip
def credentials_in_url(ctx: AuditContext) -> Iterator[Finding]:
    for at in urls_where(ctx, lambda url: bool(_USERINFO.match(url))):
        yield _url_finding(ctx, at, "a password in the URL {url}")


@rule(
    "SEC012", "certificate_validation_disabled", "warning",
    title="HTTP agent that does not validate the server certificate",
    rationale="`validCertificateChain: false` accepts any certificate: TLS without "
    "authentication, open to a man in the middle.",
    remedy="Set validCertificateChain to true; import the partner's CA if it is private.",
)  # fmt: skip
def certificate_validation_disabled(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.valid_records:
        if record.agent and record.agent.get("validCertificateChain") is False:
            yield ctx.finding(
                f"{profile_label(record)} accepts any server certificate",
                record,
                path="$.inputAgentSettings.validCertificateChain",
            )


@rule(
    "SEC013", "oftp_without_tls", "warning",
    title="OFTP polling without TLS",
    rationale="OFTP without TLS (oftpTLS false) sends the session password and the files in "
    "clear text; OFTP2 expects TLS.",
    remedy="Set oftpTLS to true (OFTP2 over TLS, usually port 6619).",
)  # fmt: skip
def oftp_without_tls(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.valid_records:
        if record.agent and record.agent.get("oftpTLS") is False:
            yield ctx.finding(
                f"{profile_label(record)} polls OFTP without TLS",
                record,
                path="$.inputAgentSettings.oftpTLS",
            )


@rule(
    "SEC014", "anonymous_portal_access", "warning",
    title="Portal form open to anonymous users",
    rationale="A portal agent that allows anonymous access lets anyone who finds the form "
    "put data into the platform.",
    remedy="Turn allowAnonymousAccess off and grant the form to roles or users.",
)  # fmt: skip
def anonymous_portal_access(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.valid_records:
        if record.active and record.agent and record.agent.get("allowAnonymousAccess") is True:
            yield ctx.finding(
                f"active profile {profile_label(record)} accepts anonymous portal input",
                record,
                path="$.inputAgentSettings.allowAnonymousAccess",
            )


def _url_finding(ctx: AuditContext, at: Any, says: str) -> Finding:
    """A finding about one URL of a profile: `says` with `{url}` standing for the masked URL
    (our own text: the URL is put in after, never read as a template), where it is, and a
    key of the place and the masked URL (so a baseline survives reordering)."""
    where = at.channel or at.record.node
    masked = redact_url(at.url)
    return ctx.finding(
        f"{where}: {says.replace('{url}', masked)} at {at.path}",
        at.record,
        *((at.channel,) if at.channel else ()),
        path=at.path,
        key=f"{where}:{at.path.split('.')[-1]}:{masked}",
    )
