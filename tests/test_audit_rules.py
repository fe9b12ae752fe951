"""Each rule of the audit on an estate made to trigger it, and on a near-identical secure
one that must not (no false positive on a safe configuration)."""

from __future__ import annotations

from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.auditing import BUILTIN_RULES, audit, cron
from iptoolkit.support.redact import MASK

from .factories import ACME, agent, channel, estate_of, profile, unit

FILE = unit("File", fileName="out.xml")


def sftp(**fields: Any) -> dict[str, Any]:
    safe = {"host": "sftp.acme.test", "keyFingerprint": "SHA256:abc", "keyType": "ssh-ed25519"}
    return channel(10, "SFTP", partner=ACME, **{**safe, **fields})


def as2(**fields: Any) -> dict[str, Any]:
    safe = {
        "as2Url": "https://as2.acme.test/as2",
        "signingAlgorithm": "SHA256",
        "encryptionAlgorithm": "AES256_CBC",
        "mdnMode": 1,
        "partnerAs2Id": "ACMEAS2",
        "localCertificateId": "cert-l",
        "remoteCertificateId": "cert-r",
    }
    return channel(20, "AS2", partner=ACME, **{**safe, **fields})


def ftp(**fields: Any) -> dict[str, Any]:
    safe = {"host": "ftp.acme.test", "localCertificateId": "c1", "remoteCertificateId": "c2"}
    return channel(30, "FTP", partner=ACME, **{**safe, **fields})


def iot(policy: str) -> dict[str, Any]:
    return channel(40, "IoT", partner=ACME, endpointUrl="opc.tcp://plc.test:4840",
                   opcSecurityPolicy=policy)  # fmt: skip


def http_unit(**fields: Any) -> dict[str, Any]:
    settings = {"class": "core:HttpClientSettings", "host": "api.acme.test", "port": "443",
                "sslEnabled": True, "uri": "/in", **fields}  # fmt: skip
    return unit("Http", httpSettings=settings)


def on(channel_: dict[str, Any], type_: str = "SFTP", **more: Any) -> ipt.Estate:
    return estate_of(profile("P1", agent=agent(type_, channels=[channel_]), units=[FILE], **more))


def with_agent(type_: str, **fields: Any) -> ipt.Estate:
    return estate_of(profile("P1", agent=agent(type_, **fields), units=[FILE]))


CASES: dict[str, tuple[ipt.Estate, ipt.Estate]] = {
    "SEC001": (
        with_agent("CronWebdav", url="http://dav.acme.test/in", cronSchedule=["0 0 * * * ?"]),
        with_agent("CronWebdav", url="https://dav.acme.test/in", cronSchedule=["0 0 * * * ?"]),
    ),
    "SEC002": (
        estate_of(
            profile(
                "P1", agent=agent("SFTP", channels=[sftp()]), units=[http_unit(sslEnabled=False)]
            )
        ),
        estate_of(
            profile(
                "P1",
                agent=agent("SFTP", channels=[sftp()]),
                units=[http_unit(sslEnabled=False, host="localhost")],
            )
        ),
    ),  # fmt: skip
    "SEC003": (
        on(ftp(localCertificateId=None, remoteCertificateId=None), "FTP"),
        on(ftp(localCertificateId=None), "FTP"),
    ),
    "SEC004": (on(iot("None"), "IoT"), on(iot("Basic256Sha256"), "IoT")),
    "SEC005": (on(iot("Basic128Rsa15"), "IoT"), on(iot("Aes256_Sha256_RsaPss"), "IoT")),
    "SEC006": (on(as2(signingAlgorithm="SHA1"), "AS2"), on(as2(), "AS2")),
    "SEC007": (on(sftp(keyType="ssh-dss")), on(sftp(keyType="ecdsa-sha2-nistp256"))),
    "SEC008": (on(sftp(keyFingerprint="")), on(sftp())),
    "SEC009": (on(as2(mdnMode=0), "AS2"), on(as2(mdnMode=2), "AS2")),
    "SEC010": (on(as2(partnerAs2Id=None), "AS2"), on(as2(), "AS2")),
    "SEC011": (
        with_agent("Kafka", schemaRegistryUrl="https://bob:hunter2@registry.acme.test"),
        with_agent("Kafka", schemaRegistryUrl="https://registry.acme.test/bob@acme"),
    ),
    "SEC012": (
        with_agent("CronHttp", validCertificateChain=False, cronSchedule=["0 0 * * * ?"]),
        with_agent("CronHttp", validCertificateChain=True, cronSchedule=["0 0 * * * ?"]),
    ),
    "SEC013": (
        with_agent("CronOftp", oftpTLS=False, cronSchedule=["0 0 * * * ?"]),
        with_agent("CronOftp", oftpTLS=True, cronSchedule=["0 0 * * * ?"]),
    ),
    "SEC014": (
        with_agent("Portal", allowAnonymousAccess=True),
        with_agent("Portal", allowAnonymousAccess=False),
    ),
    "OPS004": (
        estate_of(
            *(
                profile(
                    f"P{n}",
                    agent=agent("CronSftp", channel=sftp(), cronSchedule=["0 */15 * * * ?"]),
                    units=[FILE],
                )
                for n in range(11)
            )
        ),
        estate_of(
            *(
                profile(
                    f"P{n}",
                    agent=agent("CronSftp", channel=sftp(), cronSchedule=[f"0 {n} * * * ?"]),
                    units=[FILE],
                )
                for n in range(11)
            )
        ),
    ),  # fmt: skip
    "OPS005": (
        with_agent("CronSql", cronSchedule=["*/5 * * * *"]),
        with_agent("CronSql", cronSchedule=["0 */5 * * * ?"]),
    ),
    "OPS006": (
        with_agent("CronHttp", httpTimeOut=0, cronSchedule=["0 0 * * * ?"]),
        with_agent("CronHttp", httpTimeOut=30000, cronSchedule=["0 0 * * * ?"]),
    ),
    "OPS007": (
        estate_of(
            profile(
                "P1",
                agent=agent("SFTP", channels=[sftp()]),
                units=[unit("Ftp", channel=ftp(active=False))],
            )
        ),
        estate_of(
            profile(
                "P1",
                agent=agent("SFTP", channels=[sftp()]),
                units=[unit("Ftp", channel=ftp(active=False), active=False), FILE],
            )
        ),
    ),  # fmt: skip
}


def codes(found: Any) -> set[str]:
    return {f.code for f in found}


@pytest.mark.parametrize("code", sorted(CASES))
def test_the_rule_fires_on_the_risk_and_not_on_its_safe_twin(code: str) -> None:
    risky, safe = CASES[code]
    found = audit(risky, select=[code])
    assert [f.code for f in found] == [code], [str(f) for f in found]
    assert found[0].text and found[0].nodes
    assert audit(safe, select=[code]) == []
    assert code not in codes(audit(safe)), [str(f) for f in audit(safe)]


def test_every_security_and_operations_rule_has_its_case() -> None:
    builtin = {one.code for one in BUILTIN_RULES if one.family in ("SEC",)}
    assert builtin <= set(CASES)
    assert {"OPS004", "OPS005", "OPS006", "OPS007"} <= set(CASES)


def test_findings_locate_the_field_inside_the_profile() -> None:
    [finding] = audit(CASES["SEC006"][0], select=["SEC006"])
    assert finding.profile == 0
    assert finding.path == "$.inputAgentSettings.channels[0].signingAlgorithm"
    assert finding.nodes == ("channel:20", "profile:P1")
    assert finding.key == "channel:20:signingAlgorithm"


@pytest.mark.parametrize(
    ("local", "remote"), [("", ""), ("", None), (None, "")], ids=["both", "local", "remote"]
)
def test_an_ftp_channel_with_empty_certificate_ids_is_plain_ftp(
    local: str | None, remote: str | None
) -> None:
    """An empty certificate id names no certificate: the channel runs plain FTP."""
    estate = on(ftp(localCertificateId=local, remoteCertificateId=remote), "FTP")
    found = audit(estate, select=["SEC003"])
    assert [f.key for f in found] == ["channel:30:remoteCertificateId"]
    assert "has no certificate: plain FTP" in found[0].text


def test_a_channel_held_by_many_profiles_is_reported_once() -> None:
    shared = as2(signingAlgorithm="MD5", encryptionAlgorithm="RC2_CBC")
    estate = estate_of(
        *(profile(f"P{n}", agent=agent("AS2", channels=[shared]), units=[FILE]) for n in range(5))
    )
    found = audit(estate, select=["SEC006"])
    assert sorted(f.key for f in found) == [
        "channel:20:encryptionAlgorithm",
        "channel:20:signingAlgorithm",
    ]


def test_a_weak_copy_of_a_channel_held_after_a_safe_one_is_reported_where_it_is() -> None:
    """Copies of one channel that differ (DAT002): the profile holding the weak copy runs
    with it, so the rule finds it there; a field weak in two copies is one finding."""
    estate = estate_of(
        profile("P1", agent=agent("AS2", channels=[as2()]), units=[FILE]),
        profile("P2", agent=agent("AS2", channels=[as2(signingAlgorithm="SHA1")]), units=[FILE]),
        profile("P3", agent=agent("AS2", channels=[as2(signingAlgorithm="MD5")]), units=[FILE]),
        profile("P4", agent=agent("SFTP", channels=[sftp()]), units=[FILE]),
        profile("P5", agent=agent("SFTP", channels=[sftp(keyFingerprint="")]), units=[FILE]),
    )
    found = audit(estate, select=["SEC"])
    assert [(f.code, f.key, f.profile, f.path) for f in found] == [
        ("SEC006", "channel:20:signingAlgorithm", 1,
         "$.inputAgentSettings.channels[0].signingAlgorithm"),
        ("SEC008", "channel:10:keyFingerprint", 4,
         "$.inputAgentSettings.channels[0].keyFingerprint"),
    ]  # fmt: skip


def test_a_herd_counts_each_profile_once_whatever_its_schedules() -> None:
    """Two schedules of one profile firing in one minute (seconds 0 and 30) are one profile
    polling then, not two: six such profiles are no herd of more than ten, nor of twelve."""
    twice = ["0 0 * * * ?", "30 0 * * * ?"]
    estate = estate_of(
        *(
            profile(
                f"P{n}", agent=agent("CronSftp", channel=sftp(), cronSchedule=twice), units=[FILE]
            )
            for n in range(6)
        )
    )
    assert not audit(estate, select=["OPS004"])
    limited = ipt.auditing.AuditConfig(options={"OPS004": {"max-same-minute": 5}})
    [herd] = audit(estate, limited, select=["OPS004"])
    assert herd.text.startswith("6 active profiles poll sftp.acme.test at 00:00 "), herd.text


def test_plain_urls_on_loopback_and_with_tls_are_not_reported() -> None:
    estate = estate_of(
        profile("P1", agent=agent("CronWebdav", url="http://localhost:8080/dav"), units=[FILE]),
        profile("P2", agent=agent("CronWebdav", url="http://127.0.0.1/dav"), units=[FILE]),
        profile("P3", agent=agent("CronWebdav", url="ftps://dav.acme.test"), units=[FILE]),
        profile("P4", agent=agent("CronWebdav", url="smtp://mail.acme.test:25"), units=[FILE]),
    )
    found = audit(estate, select=["SEC001"])
    assert [f.nodes for f in found] == [("profile:P4",)]


def test_plain_mail_channels_are_reported_once_for_the_channel() -> None:
    mail = channel(50, "Mail", partner=ACME, smtpServerUrl="smtp://mail.acme.test:25")
    estate = estate_of(
        *(profile(f"P{n}", agent=agent("CronImap", channel=mail), units=[FILE]) for n in (1, 2))
    )
    [finding] = audit(estate, select=["SEC001"])
    assert finding.nodes == ("channel:50", "profile:P1")
    assert finding.path == "$.inputAgentSettings.channel.smtpServerUrl"


def test_credentials_in_urls_are_masked_in_the_finding() -> None:
    found = audit(CASES["SEC011"][0], select=["SEC011"])
    assert "hunter2" not in str(found[0]) and MASK in found[0].text
    assert "hunter2" not in found[0].key


def test_short_rsa_keys_are_weak_only_where_their_length_is_stated() -> None:
    assert codes(audit(on(sftp(keyType="ssh-rsa-1024")), select=["SEC007"])) == {"SEC007"}
    assert codes(audit(on(sftp(keyType="ssh-rsa")), select=["SEC007"])) == set()
    assert codes(audit(on(sftp(keyType="rsa-sha2-512 4096")), select=["SEC007"])) == set()


def test_a_single_point_of_failure_over_the_threshold() -> None:
    estate = estate_of(
        *(profile(f"P{n}", agent=agent("SFTP", channels=[sftp()]), units=[FILE]) for n in range(4))
    )
    config = ipt.AuditConfig(options={"OPS003": {"max-dependents": 3}})
    found = audit(estate, config, select=["OPS003"])
    assert sorted(f.item for f in found) == ["channel:10", "partner:1"]
    assert "4 active profiles depend on channel" in found[0].text
    assert audit(estate, select=["OPS003"]) == []  # the default threshold is higher


def test_quartz_cron_expressions() -> None:
    good = ["0 */5 * * * ?", "0 0/10 7-19 ? * MON-FRI", "0 0 22 L * ?", "0 15 5 ? * 2#1",
            "0 0 12 1W * ? 2027"]  # fmt: skip
    bad = {
        "*/5 * * * *": "5 fields",
        "0 61 * * * ?": "'61' is not a minute",
        "0 0 * * * *": "exactly one",
        "0 0 12 ? JANUARY MON": "'JANUARY' is not a month",
        "0 */0 * * * ?": "step 0",
    }
    assert [cron.check(e) for e in good] == [None] * len(good)
    for expression, said in bad.items():
        assert said in (cron.check(expression) or ""), expression
    assert len(cron.minutes_of_day("0 */15 * * * ?")) == 96
    assert cron.minutes_of_day("0 30 6,18 * * ?") == {390, 1110}


def test_the_demo_estate_shows_security_findings() -> None:
    found = audit(ipt.demo_estate(n_profiles=400, seed=3))
    assert {"SEC006", "SEC009"} <= codes(found)
    assert all(f.code for f in found)


def test_a_channel_newly_inactive_under_a_known_ops001_is_a_new_finding() -> None:
    """A baseline hides a finding by its fingerprint: OPS001's was its profile alone, so
    once a profile's finding was accepted, another of its channels going inactive added
    nothing new. The inactive channels are part of what it is about."""

    def ops001(*inactive: int) -> ipt.Finding:
        channels = [channel(n, partner=ACME, active=n not in inactive) for n in (1, 2)]
        found = audit(estate_of(profile("P1", agent=agent("SFTP", channels=channels))))
        [finding] = [f for f in found if f.code == "OPS001"]
        return finding

    one, same, more = ops001(1), ops001(1), ops001(1, 2)
    assert one.fingerprint == same.fingerprint  # the same finding, found again
    assert more.fingerprint != one.fingerprint  # channel 2 too: not hidden by the old one
