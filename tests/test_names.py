"""Type names as people read them, and counted nouns: one module every view uses."""

from __future__ import annotations

import pytest

from iptoolkit.support.names import plural, type_aliases, type_label, type_matches


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("SFTPAgentSettings", "SFTP"),
        ("CronFtpAgentSettings", "Cron FTP"),
        ("core:CronCloudStorageAgentSettings", "Cron Cloud Storage"),
        ("IntegrationPartnerChannelAS2", "AS2"),
        ("ManualUploadAgentSettings", "Manual Upload"),
        ("IoTAgentSettings", "IoT"),
        ("FtpProfileResponseUnit", "FTP"),
        (None, "?"),
    ],
)
def test_type_label(name: str | None, label: str) -> None:
    assert type_label(name) == label


def test_a_type_is_found_by_any_of_its_names() -> None:
    aliases = type_aliases("CronCloudStorageAgentSettings")
    assert "croncloudstorage" in aliases and "cron cloud storage" in aliases
    assert type_matches("CronCloudStorageAgentSettings", "Cron Cloud Storage")
    assert not type_matches("CronFtpAgentSettings", "FTP")


def test_plural() -> None:
    assert [plural(n, "channel") for n in (0, 1, 2)] == ["0 channels", "1 channel", "2 channels"]
    assert plural(1200, "profile") == "1,200 profiles"
