"""Integration partners and their communication channels (the `IntegrationPartnerChannel` family).

Every channel type has `class`, `active`, `id`, `name` and `partner` besides its own fields.
Secrets are never carried here: certificates and keys are referenced by id only.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import I32, I64, ApiModel, FallbackModel, polymorphic

__all__ = [
    "IntegrationPartner",
    "ChannelBase",
    "UnknownChannel",
    "Channel",
    "CHANNEL_TYPES",
    "IntegrationPartnerChannelIoT",
    "IntegrationPartnerChannelHTTP",
    "IntegrationPartnerChannelSMB",
    "IntegrationPartnerChannelFTP",
    "IntegrationPartnerChannelFax",
    "IntegrationPartnerChannelSFTP",
    "IntegrationPartnerChannelMail",
    "IntegrationPartnerChannelX400",
    "IntegrationPartnerChannelAS2",
    "IntegrationPartnerChannelOFTP",
    "IntegrationPartnerChannelAS4",
]


class IntegrationPartner(ApiModel):
    """A partner (company, system) that owns channels."""

    class_: str | None = Field(None, alias="class")
    id: I64 | None = None
    name: str | None = None


class ChannelBase(ApiModel):
    """Fields every channel type shares."""

    class_: str | None = Field(None, alias="class")
    active: bool | None = None
    id: I64 | None = None
    name: str | None = None
    partner: IntegrationPartner | None = None


class UnknownChannel(FallbackModel):
    """A channel whose `class` this toolkit does not know; every field is kept as sent."""


class IntegrationPartnerChannelIoT(ChannelBase):
    """An IoT endpoint (e.g. OPC UA) of a partner."""

    endpoint_url: str | None = None
    local_certificate_id: str | None = None
    opc_security_policy: str | None = None
    remote_certificate_id: str | None = None


class IntegrationPartnerChannelHTTP(ChannelBase):
    """An HTTP endpoint of a partner."""

    group_name: str | None = None
    local_certificate_id: str | None = None
    remote_certificate_id: str | None = None
    url: str | None = None
    user_roles: list[str] | None = None


class IntegrationPartnerChannelSMB(ChannelBase):
    """An SMB (Windows) share of a partner."""

    host: str | None = None
    share: str | None = None
    smb_domain: str | None = None


class IntegrationPartnerChannelFTP(ChannelBase):
    """An FTP server of a partner."""

    host: str | None = None
    local_certificate_id: str | None = None
    port: I32 | None = None
    remote_certificate_id: str | None = None
    remote_path: str | None = None


class IntegrationPartnerChannelFax(ChannelBase):
    """A fax line of a partner."""

    default_send_headline: str | None = None
    default_send_station_id: str | None = Field(None, alias="defaultSendStationID")
    expected_headline: str | None = None
    expected_station_id: str | None = Field(None, alias="expectedStationID")
    fax_incoming_directory: str | None = None
    fax_outgoing_directory: str | None = None
    isdn_local_number: str | None = None
    isdn_remote_number: str | None = None


class IntegrationPartnerChannelSFTP(ChannelBase):
    """An SFTP server of a partner; the key is referenced by id only."""

    host: str | None = None
    key_fingerprint: str | None = None
    key_type: str | None = None
    port: I32 | None = None
    private_key_id: str | None = None
    remote_path: str | None = None


class IntegrationPartnerChannelMail(ChannelBase):
    """A mailbox of a partner."""

    imap_folder: str | None = None
    incoming_max_size: I64 | None = None
    local_certificate_id: str | None = None
    remote_certificate_id: str | None = None
    retrieval_auth_mechanism: str | None = None
    smtp_auth_mechanism: str | None = None
    smtp_server_url: str | None = None


class IntegrationPartnerChannelX400(ChannelBase):
    """An X.400 connection to a partner."""

    local_id: str | None = None
    presentation_selector: str | None = None
    remote_id: str | None = None
    session_selector: str | None = None
    transport_access_point: str | None = None
    uafi_config_directory: str | None = None
    uafi_in_directory: str | None = None
    uafi_out_directory: str | None = None


class IntegrationPartnerChannelAS2(ChannelBase):
    """An AS2 connection to a partner."""

    as2_url: str | None = None
    encryption_algorithm: str | None = None
    local_certificate_id: str | None = None
    mdn_mode: I32 | None = None
    partner_as2_id: str | None = None
    remote_certificate_id: str | None = None
    signing_algorithm: str | None = None
    station_id: str | None = None


class IntegrationPartnerChannelOFTP(ChannelBase):
    """An OFTP connection to a partner."""

    endpoint_url: str | None = None
    local_certificate_id: str | None = None
    local_ssid: str | None = None
    remote_certificate_id: str | None = None
    remote_sfid: str | None = None


class IntegrationPartnerChannelAS4(ChannelBase):
    """An AS4 connection to a partner."""

    endpoint_url: str | None = None
    local_certificate_id: str | None = None
    remote_certificate_id: str | None = None


CHANNEL_TYPES: tuple[type[ChannelBase], ...] = (
    IntegrationPartnerChannelIoT,
    IntegrationPartnerChannelHTTP,
    IntegrationPartnerChannelSMB,
    IntegrationPartnerChannelFTP,
    IntegrationPartnerChannelFax,
    IntegrationPartnerChannelSFTP,
    IntegrationPartnerChannelMail,
    IntegrationPartnerChannelX400,
    IntegrationPartnerChannelAS2,
    IntegrationPartnerChannelOFTP,
    IntegrationPartnerChannelAS4,
)

Channel: Any = polymorphic(CHANNEL_TYPES, UnknownChannel)
"""Any channel: the type named by `class`, or `UnknownChannel`."""
