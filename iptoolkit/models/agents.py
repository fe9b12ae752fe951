"""Input agent settings (the `ProfileInputAgentSettings` family): how data enters a profile.

Thirty-five agent types, each with `class` and `typeName` besides its own fields. Channels an
agent holds are full channel objects (`channel`, `channels`); some agents name channels only
by id (`comChannelId`, `channelIds`, `channelId`, `registryChannelId`).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import I32, I64, ApiModel, FallbackModel, polymorphic
from .channels import Channel
from .http import HttpClientSettings

__all__ = [
    "AgentSettings",
    "UnknownAgentSettings",
    "InputAgentSettings",
    "AGENT_TYPES",
    "KafkaAgentSettings",
    "AS2AgentSettings",
    "CronCloudStorageAgentSettings",
    "CronLdapAgentSettings",
    "DataQueueAgentSettings",
    "AS4AgentSettings",
    "FaxAgentSettings",
    "HttpAgentSettings",
    "CronOftpAgentSettings",
    "SFTPAgentSettings",
    "ManualUploadAgentSettings",
    "TcpAgentSettings",
    "CronCustomAgentSettings",
    "FTPAgentSettings",
    "CronPop3AgentSettings",
    "MQTTAgentSettings",
    "MessageAgentSettings",
    "OFTPAgentSettings",
    "CronImapAgentSettings",
    "CronMongodbAgentSettings",
    "CronOrchestrationAgentSettings",
    "AMQPAgentSettings",
    "PortalAgentSettings",
    "CronFileAgentSettings",
    "CronSqlAgentSettings",
    "CronSapAgentSettings",
    "SMTPAgentSettings",
    "CronSshAgentSettings",
    "CronWebdavAgentSettings",
    "SolutionAgentSettings",
    "CronX400AgentSettings",
    "CronHttpAgentSettings",
    "CronFtpAgentSettings",
    "CronSftpAgentSettings",
    "IoTAgentSettings",
]


class AgentSettings(ApiModel):
    """Fields every input agent type shares."""

    class_: str | None = Field(None, alias="class")
    type_name: str | None = None


class UnknownAgentSettings(FallbackModel):
    """An input agent whose `class` this toolkit does not know; every field is kept as sent."""


class KafkaAgentSettings(AgentSettings):
    """Consumes records from a Kafka topic (schema registry named by `registryChannelId`)."""

    alias: str | None = None
    assigned: bool | None = None
    binary_converter_class_name: str | None = None
    client_id: str | None = None
    commit_each: bool | None = None
    commit_interval: I32 | None = None
    complex_data_type: str | None = None
    data_type: str | None = None
    delimiter: str | None = None
    final_value_function: str | None = None
    generic_data_type: I32 | None = None
    key_type: str | None = None
    message_buffer_size: I32 | None = None
    message_interval_check: I32 | None = None
    null_instance: bool | None = None
    registry_channel_id: I64 | None = None
    schema_registry_url: str | None = None
    timeout: I32 | None = None
    topic_name: str | None = None
    trigger_on_any_server: bool | None = None


class AS2AgentSettings(AgentSettings):
    """Receives AS2 messages from partners over their AS2 channels."""

    channels: list[Channel] | None = None
    file_pattern: str | None = None
    mime_type: str | None = None
    subject: str | None = None


class CronCloudStorageAgentSettings(AgentSettings):
    """Polls a cloud storage bucket or document library on a schedule."""

    accept_empty_files: bool | None = None
    bucket: str | None = None
    com_channel_id: I64 | None = None
    cron_schedule: list[str] | None = None
    delete_empty_files: bool | None = None
    dir: str | None = None
    dmz: bool | None = None
    document_library: str | None = None
    exclude_hour: I32 | None = None
    exclude_minute: I32 | None = None
    exclude_second: I32 | None = None
    file_handling: I32 | None = None
    file_pattern: str | None = None
    file_sort_ascending: bool | None = None
    file_sort_item: I32 | None = None
    read_temp_files: bool | None = None
    recursive_dir: bool | None = None
    run_in_background: bool | None = None


class CronLdapAgentSettings(AgentSettings):
    """Queries an LDAP directory on a schedule."""

    alias: str | None = None
    attributes: str | None = None
    base_dn: str | None = Field(None, alias="baseDN")
    cron_schedule: list[str] | None = None
    result_limit: I32 | None = None
    search: str | None = None
    search_scope: I32 | None = None
    time_limit: I32 | None = None
    wrap_fields: bool | None = None


class DataQueueAgentSettings(AgentSettings):
    """Reads from a data queue (or an SQL statement) on an interval."""

    alias: str | None = None
    class_name: str | None = None
    error_on_no_data: bool | None = None
    factory_name: str | None = None
    host: str | None = None
    interval: I64 | None = None
    key: str | None = None
    queue: str | None = None
    sql_statement: str | None = None
    use_sql: bool | None = None


class AS4AgentSettings(AgentSettings):
    """Receives AS4 messages from partners over their AS4 channels."""

    channels: list[Channel] | None = None
    file_pattern: str | None = None
    mime_type: str | None = None


class FaxAgentSettings(AgentSettings):
    """Receives faxes on the channels named by `channelIds`."""

    accept_all: bool | None = None
    channel_ids: list[I64] | None = None


class HttpAgentSettings(AgentSettings):
    """Receives HTTP requests (REST or web service) on a URL of the platform."""

    accept_empty_body: bool | None = None
    accept_empty_response: bool | None = None
    accept_http_delete: bool | None = None
    accept_http_get: bool | None = None
    accept_http_head: bool | None = None
    accept_http_patch: bool | None = None
    accept_http_post: bool | None = None
    accept_http_put: bool | None = None
    accept_rest: bool | None = Field(None, alias="acceptREST")
    async_request: bool | None = None
    authentication_type: str | None = None
    delete_has_payload: bool | None = None
    enable_api: bool | None = None
    error_code: str | None = None
    invisible_for_dmz: bool | None = None
    jwt_scopes: str | None = None
    mime_type: str | None = None
    multi_part_file_key: str | None = None
    namespace_url: str | None = None
    response_on_error: str | None = None
    response_on_success: str | None = None
    rest_url_placeholder: str | None = None
    swagger_response_desc: str | None = None
    swagger_transformer_version: str | None = None
    url: str | None = None
    use_response_on_success: bool | None = None
    webservice: bool | None = None
    wsdl_creator: str | None = None


class CronOftpAgentSettings(AgentSettings):
    """Polls an OFTP partner on a schedule."""

    accept_empty_files: bool | None = None
    channel: Channel | None = None
    cron_schedule: list[str] | None = None
    destination: str | None = None
    oftp_dmz_option: str | None = None
    oftp_port: I32 | None = None
    oftp_service_name: str | None = None
    oftp_tls: bool | None = Field(None, alias="oftpTLS")
    origin: str | None = None
    run_in_background: bool | None = None


class SFTPAgentSettings(AgentSettings):
    """Receives files that partners upload over SFTP."""

    accept_empty_files: bool | None = None
    channels: list[Channel] | None = None
    dir: str | None = None
    file_name: str | None = None
    process_on_logout: bool | None = None
    transfer_type: I32 | None = None


class ManualUploadAgentSettings(AgentSettings):
    """Data uploaded by hand in the UI; no fields beyond `class` and `typeName`."""


class TcpAgentSettings(AgentSettings):
    """Receives data on a raw TCP connection."""

    alias: str | None = None
    binary_converter_class_name: str | None = None
    factory_name: str | None = None


class CronCustomAgentSettings(AgentSettings):
    """Runs a custom class on a schedule."""

    config_file: str | None = None
    cron_schedule: list[str] | None = None
    custom_class: str | None = None
    run_in_background: bool | None = None


class FTPAgentSettings(AgentSettings):
    """Receives files that partners upload over FTP."""

    accept_empty_files: bool | None = None
    channels: list[Channel] | None = None
    dir: str | None = None
    file_name: str | None = None
    process_on_logout: bool | None = None


class CronPop3AgentSettings(AgentSettings):
    """Fetches mail over POP3 on a schedule."""

    channel: Channel | None = None
    cron_schedule: list[str] | None = None
    handle_unknown_mail_data: I32 | None = None
    run_in_background: bool | None = None
    skip_corrupt_mail: bool | None = None
    support_smime: bool | None = Field(None, alias="supportSMIME")


class MQTTAgentSettings(AgentSettings):
    """Subscribes to an MQTT topic."""

    alias: str | None = None
    binary_converter_class_name: str | None = None
    complex_data_type: str | None = None
    delimiter: str | None = None
    final_value_function: str | None = None
    generic_data_type: I32 | None = None
    message_buffer_size: I32 | None = None
    message_interval_check: I32 | None = None
    qos: str | None = None
    timeout: I32 | None = None
    topic: str | None = None


class MessageAgentSettings(AgentSettings):
    """Receives platform-internal messages from a queue."""

    com_channel_id: I64 | None = None
    context: str | None = None
    param: str | None = None
    queue: str | None = None


class OFTPAgentSettings(AgentSettings):
    """Receives files that partners send over OFTP."""

    channels: list[Channel] | None = None
    destination: str | None = None
    file_name: str | None = None
    origin: str | None = None
    process_on_logout: bool | None = None


class CronImapAgentSettings(AgentSettings):
    """Fetches mail over IMAP on a schedule."""

    channel: Channel | None = None
    cron_schedule: list[str] | None = None
    dir: str | None = None
    handle_unknown_mail_data: I32 | None = None
    imap_move_dir: str | None = None
    run_in_background: bool | None = None
    skip_corrupt_mail: bool | None = None
    support_smime: bool | None = Field(None, alias="supportSMIME")


class CronMongodbAgentSettings(AgentSettings):
    """Queries a MongoDB collection on a schedule."""

    alias: str | None = None
    collection_name: str | None = None
    cron_schedule: list[str] | None = None
    database_name: str | None = None
    json_type: str | None = None
    max_batch_size: I32 | None = None
    max_rows: I32 | None = None
    one_document: bool | None = None
    projection: str | None = None
    query: str | None = None


class CronOrchestrationAgentSettings(AgentSettings):
    """Runs an orchestration class on a schedule."""

    config_file: str | None = None
    cron_schedule: list[str] | None = None
    custom_class: str | None = None
    run_in_background: bool | None = None


class AMQPAgentSettings(AgentSettings):
    """Consumes messages from an AMQP queue."""

    alias: str | None = None
    confirm_message_at_end: bool | None = None
    delimiter: str | None = None
    final_value_function: str | None = None
    generic_data_type: I32 | None = None
    jms_unsubscribe_topic: bool | None = None
    message_buffer_size: I32 | None = None
    message_interval_check: I32 | None = None
    persistent: bool | None = None
    prefetch_count: I32 | None = None
    prefetch_size: I32 | None = None
    property_key_for_file_name: str | None = None
    quality_of_service: str | None = None
    queue_name: str | None = None
    queue_type: I32 | None = None
    requeue091: bool | None = None
    routing_key: str | None = None
    subscriber_name: str | None = None
    timeout: I32 | None = None


class PortalAgentSettings(AgentSettings):
    """Receives form input from the platform's portal."""

    allow_anonymous_access: bool | None = None
    event_timeout: I32 | None = None
    form: str | None = None
    read_only: bool | None = None
    roles: list[str] | None = None
    synchronous: bool | None = None
    upload: bool | None = None
    user_ids: list[str] | None = None


class CronFileAgentSettings(AgentSettings):
    """Polls a local or mounted directory on a schedule."""

    accept_empty_files: bool | None = None
    cron_schedule: list[str] | None = None
    delete_empty_files: bool | None = None
    dir_is_mounted: bool | None = None
    directory: str | None = None
    exclude_hour: I32 | None = None
    exclude_minute: I32 | None = None
    exclude_second: I32 | None = None
    file_handling: I32 | None = None
    file_pattern: str | None = None
    file_sort_ascending: bool | None = None
    file_sort_item: I32 | None = None
    lock_file: str | None = None
    read_temp_files: bool | None = None
    recursive_dir: bool | None = None
    run_in_background: bool | None = None
    single_file: bool | None = None


class CronSqlAgentSettings(AgentSettings):
    """Runs an SQL query on a schedule."""

    cron_schedule: list[str] | None = None
    db_alias: str | None = None
    encode_blob: bool | None = None
    sql: str | None = None
    sql_test_timeout: I32 | None = None
    sql_timeout: I32 | None = None


class CronSapAgentSettings(AgentSettings):
    """Calls an SAP RFC on a schedule."""

    alias: str | None = None
    cron_schedule: list[str] | None = None
    format: I32 | None = None
    rfc_name: str | None = None
    wait_time: I32 | None = None


class SMTPAgentSettings(AgentSettings):
    """Receives mail that the platform's SMTP server accepts."""

    active: bool | None = None
    cc: str | None = None
    channel_id: I64 | None = None
    channel_match_type: I32 | None = None
    content_type: I32 | None = None
    exact_subject_match: bool | None = None
    file_pattern: str | None = None
    mail_type: I32 | None = None
    mime_type: str | None = None
    profile_name: str | None = None
    sender: str | None = None
    subject: str | None = None
    to: str | None = None


class CronSshAgentSettings(AgentSettings):
    """Polls a directory over SSH on a schedule."""

    channel: Channel | None = None
    cron_schedule: list[str] | None = None
    dir: str | None = None
    file_handling: I32 | None = None
    file_pattern: str | None = None
    file_rename: str | None = None
    run_in_background: bool | None = None


class CronWebdavAgentSettings(AgentSettings):
    """Polls a WebDAV folder on a schedule."""

    cert_id: I64 | None = None
    com_channel_id: I64 | None = None
    cron_schedule: list[str] | None = None
    dir: str | None = None
    file_handling: I32 | None = None
    file_pattern: str | None = None
    file_rename: str | None = None
    run_in_background: bool | None = None
    url: str | None = None


class SolutionAgentSettings(AgentSettings):
    """Receives HTTP requests for a solution's API."""

    accept_http_delete: bool | None = None
    accept_http_get: bool | None = None
    accept_http_head: bool | None = None
    accept_http_patch: bool | None = None
    accept_http_post: bool | None = None
    accept_http_put: bool | None = None
    mime_type: str | None = None
    rest_url_placeholder: str | None = None
    solution_name: str | None = None
    swagger_path: str | None = None
    swagger_url: str | None = None
    url: str | None = None


class CronX400AgentSettings(AgentSettings):
    """Fetches X.400 messages on a schedule."""

    channel: Channel | None = None
    cron_schedule: list[str] | None = None
    dmz: bool | None = None
    filter_only_new_x400: bool | None = None
    filter_x400_addresses: bool | None = None
    filter_x400_date: bool | None = None
    handle_unknown_mail_data: I32 | None = None
    run_in_background: bool | None = None
    x400_do_not_delete: bool | None = None


class CronHttpAgentSettings(AgentSettings):
    """Calls an HTTP endpoint on a schedule."""

    cert_id: I64 | None = None
    continue_http_cron_with_same_url: bool | None = None
    cron_schedule: list[str] | None = None
    dmz: bool | None = None
    encode_url: bool | None = None
    http_content_type: str | None = None
    http_settings: HttpClientSettings | None = None
    http_time_out: I32 | None = None
    ignore_http_error: bool | None = None
    max_paging: I32 | None = None
    run_in_background: bool | None = None
    self_trigger: bool | None = None
    soap_data: str | None = None
    valid_certificate_chain: bool | None = None
    web_service_request: bool | None = None


class CronFtpAgentSettings(AgentSettings):
    """Polls an FTP server on a schedule."""

    accept_empty_files: bool | None = None
    as400_member: bool | None = None
    channel: Channel | None = None
    control_suffix: str | None = None
    cron_schedule: list[str] | None = None
    delete_empty_files: bool | None = None
    delete_master_ctrl_file: bool | None = None
    dir: str | None = None
    dmz: bool | None = None
    fetch_control_file: bool | None = None
    fetch_master_ctrl_file: bool | None = None
    file_handling: I32 | None = None
    file_pattern: str | None = None
    file_rename: str | None = None
    file_sort_ascending: bool | None = None
    file_sort_item: I32 | None = None
    ftp_control_name_type: I32 | None = None
    ftp_passive: bool | None = None
    ftp_site_commands: str | None = None
    ftp_transfer_mode: bool | None = None
    keep_local_ftp_file_if_delete_was_unsuccessful: bool | None = None
    master_ctrl_file: str | None = None
    master_ctrl_file_in_sub_dir: bool | None = None
    max_files_per_batch: I32 | None = None
    run_in_background: bool | None = None
    use_control_file: bool | None = None
    use_ftp_short_list: bool | None = None


class CronSftpAgentSettings(CronFtpAgentSettings):
    """Same fields as CronFtpAgentSettings; `channel` is an SFTP channel."""


class IoTAgentSettings(AgentSettings):
    """Subscribes to IoT (e.g. OPC UA) data on the channels named by `channelIds`."""

    agent_type: str | None = None
    channel_ids: list[I64] | None = None
    ignore_error_status: bool | None = None
    notify_initial: bool | None = None
    send_generic_ok_response: bool | None = Field(None, alias="sendGenericOKResponse")
    subscription_alias: str | None = None
    subscription_interval: I64 | None = None
    subscription_type: str | None = None


AGENT_TYPES: tuple[type[AgentSettings], ...] = (
    KafkaAgentSettings,
    AS2AgentSettings,
    CronCloudStorageAgentSettings,
    CronLdapAgentSettings,
    DataQueueAgentSettings,
    AS4AgentSettings,
    FaxAgentSettings,
    HttpAgentSettings,
    CronOftpAgentSettings,
    SFTPAgentSettings,
    ManualUploadAgentSettings,
    TcpAgentSettings,
    CronCustomAgentSettings,
    FTPAgentSettings,
    CronPop3AgentSettings,
    MQTTAgentSettings,
    MessageAgentSettings,
    OFTPAgentSettings,
    CronImapAgentSettings,
    CronMongodbAgentSettings,
    CronOrchestrationAgentSettings,
    AMQPAgentSettings,
    PortalAgentSettings,
    CronFileAgentSettings,
    CronSqlAgentSettings,
    CronSapAgentSettings,
    SMTPAgentSettings,
    CronSshAgentSettings,
    CronWebdavAgentSettings,
    SolutionAgentSettings,
    CronX400AgentSettings,
    CronHttpAgentSettings,
    CronFtpAgentSettings,
    CronSftpAgentSettings,
    IoTAgentSettings,
)

InputAgentSettings: Any = polymorphic(AGENT_TYPES, UnknownAgentSettings)
"""Any input agent settings: the type named by `class`, or `UnknownAgentSettings`."""
