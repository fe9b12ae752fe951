"""What the demo estate is made of: names, groups, documents, and the fields of each type.

Kept apart from `demo.py` (which assembles an estate) so that the tables read as tables. Every
builder takes the estate's `random.Random` and returns a fresh dict: callers may mutate what
they get. Hostnames are `example.com`, `example.net` or `.test` only; no field carries a
secret (certificates and keys appear as ids, as the spec says).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any, NamedTuple

__all__ = [
    "Ctx",
    "AgentSpec",
    "AGENTS",
    "AGENT_HOLDS",
    "AGENT_REFS",
    "CHANNEL_FIELDS",
    "CHANNEL_LABELS",
    "CHANNEL_WEIGHTS",
    "GROUPS",
    "SYSTEMS",
    "STEMS",
    "SECTORS",
    "LEGAL_FORMS",
    "REGIONS",
    "STRUCTURES",
    "ENCODINGS",
    "EXTRA_TAGS",
    "NAME_VARIANTS",
    "CLIENT_IDS",
    "http_settings",
    "mapping_settings",
]

# -- partners and internal systems ----------------------------------------------------------

STEMS = (
    "Nordwind", "Acme", "Bergmann", "Alpenblick", "Blue Harbor", "Kestrel", "Lindqvist",
    "Meridian", "Northgate", "Oakridge", "Pacifica", "Rheinland", "Sundial", "Tannenberg",
    "Vantage", "Westwind", "Zephyr", "Atlas", "Borealis", "Cascade", "Elbe", "Falcon",
    "Granite", "Hanse", "Iberia", "Juniper", "Kronos", "Lumen", "Mosel", "Orion", "Polaris",
    "Riverside", "Silverline", "Tauber", "Viking", "Wexford", "Brightwater", "Coastal",
    "Danube", "Evergreen", "Fjord", "Greenfield", "Highland", "Ironwood", "Lakeside", "Maple",
    "Neckar", "Oberland", "Pioneer", "Redwood", "Summit", "Thames", "Valley", "Weser",
)  # fmt: skip
SECTORS = (
    "Logistics", "Retail", "Foods", "Freight", "Automotive", "Chemicals", "Pharma",
    "Textiles", "Electronics", "Packaging", "Paper", "Steel", "Tools", "Furniture",
    "Beverages", "Trading", "Components", "Agriculture", "Plastics", "Systems",
)  # fmt: skip
LEGAL_FORMS = ("GmbH", "AG", "Inc.", "Ltd", "S.A.", "B.V.", "GmbH & Co. KG", "")
REGIONS = ("Nord", "Süd", "East", "West", "Central", "Iberia", "Nordic", "Benelux", "Alpine")
"""Qualifiers for partner names once every stem and sector pairing is taken."""

SYSTEMS = {"Finance": ("ERP", "erp"), "Logistics": ("WMS", "wms"), "Sales": ("CRM", "crm"),
           "Procurement": ("ERP", "erp"), "HR": ("HR system", "hcm"),
           "Production": ("MES", "mes"), "IT": ("data warehouse", "dwh")}  # fmt: skip
"""Top-level group -> the internal system (name, host slug) its internal profiles read from."""

# -- groups and the documents that flow through them ---------------------------------------

GROUPS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "Finance/AP": (("INVOIC", "invoic", "edi"), ("supplier invoices", "apinvoices", "csv"),
                   ("XRechnung invoices", "xrechnung", "xml")),
    "Finance/AR": (("REMADV", "remadv", "edi"), ("customer payments", "payments", "csv")),
    "Finance/Treasury": (("bank statements (camt.053)", "camt053", "xml"),
                         ("payment orders (pain.001)", "pain001", "xml"),
                         ("exchange rates", "fxrates", "json")),
    "Finance/GL": (("GL postings", "glpostings", "csv"), ("cost centers", "costcenters", "csv")),
    "Logistics/EDI/Inbound": (("DESADV", "desadv", "edi"), ("IFTSTA", "iftsta", "edi"),
                              ("ORDERS", "orders", "edi"), ("DELFOR", "delfor", "edi")),
    "Logistics/EDI/Outbound": (("IFTMIN", "iftmin", "edi"), ("DESADV", "desadv", "edi"),
                               ("INVOIC", "invoic", "edi")),
    "Logistics/Transport": (("shipment events", "shipments", "json"),
                            ("freight orders", "freight", "xml")),
    "Logistics/Warehouse": (("stock levels", "stock", "csv"),
                            ("picking confirmations", "picking", "xml")),
    "Sales/Orders": (("ORDERS", "orders", "edi"), ("ORDRSP", "ordrsp", "edi"),
                     ("web shop orders", "weborders", "json")),
    "Sales/Pricing": (("PRICAT", "pricat", "edi"), ("price lists", "pricelist", "csv")),
    "Sales/Backoffice": (("faxed orders", "faxorders", "pdf"),
                         ("order confirmations", "orderconf", "pdf")),
    "Sales/Portal": (("order entry forms", "portalorders", "json"),
                     ("complaints", "complaints", "json")),
    "Procurement/Suppliers": (("DELJIT", "deljit", "edi"), ("ORDRSP", "ordrsp", "edi"),
                              ("supplier master data", "suppliers", "csv")),
    "Procurement/Catalogs": (("BMEcat catalogs", "bmecat", "xml"),
                             ("product data", "products", "csv")),
    "HR/Payroll": (("payroll results", "payroll", "csv"), ("time sheets", "timesheets", "csv")),
    "HR/Directory": (("employee directory", "employees", "json"),
                     ("org units", "orgunits", "json")),
    "Production/Shopfloor": (("machine telemetry", "telemetry", "json"),
                             ("production orders", "prodorders", "xml")),
    "Production/Quality": (("inspection results", "inspections", "xml"),
                           ("lab measurements", "labdata", "csv")),
    "IT/Monitoring": (("server alerts", "alerts", "json"), ("heartbeats", "heartbeats", "json")),
    "IT/Archive": (("archive documents", "archive", "xml"), ("audit log", "auditlog", "json")),
    "IT/Test": (("test messages", "testmsg", "xml"),),
}  # fmt: skip
"""Group path -> documents (label, token, file extension) that its profiles carry."""

CLIENT_IDS = {
    "Finance": "ic-erp-prod",
    "Logistics": "ic-edi-hub",
    "Sales": "ic-commerce",
    "Procurement": "ic-erp-prod",
    "HR": "ic-hr",
    "Production": "ic-shopfloor",
    "IT": "ic-ops",
}
"""Top-level group -> integrationClientId."""

ENCODINGS = (("UTF-8", 70), ("ISO-8859-1", 15), ("windows-1252", 8), ("US-ASCII", 4), ("UTF-16", 3))
NAME_VARIANTS = (" - DE", " - AT", " - FR", " - NL", " - PL", " - UK", " (backup)", " (test)")
"""Set apart profiles that would otherwise share a name: one per country, a backup, a test."""
EXTRA_TAGS = ("critical", "legacy", "migrated", "gdpr", "24x7", "month-end", "pilot", "eu")

STRUCTURES: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = (
    (("Header", ("DocumentNumber", "DocumentDate", "BuyerId")),
     ("Item", ("LineNo", "ArticleNo", "Quantity", "Unit")),
     ("Order", ("Number", "Date", "Customer")), ("Line", ("Position", "Material", "Qty", "UoM"))),
    (("Invoice", ("InvoiceNo", "InvoiceDate", "Currency", "Total")),
     ("Position", ("LineNo", "Amount", "TaxRate")),
     ("Document", ("Id", "Date", "Currency", "GrossAmount")), ("Line", ("No", "Net", "Vat"))),
    (("Event", ("EventId", "Timestamp", "Status")), ("Location", ("Code", "Country")),
     ("Record", ("Id", "Time", "State")), ("Place", ("Site", "CountryCode"))),
    (("Row", ("Key", "Name", "Value", "ValidFrom")), ("Meta", ("Source",)),
     ("Entry", ("Id", "Label", "Amount", "Start")), ("Info", ("Origin",))),
)  # fmt: skip
"""Mapping templates: two source segments, then two target segments, field for field."""


def mapping_settings(structure: Any) -> dict[str, Any]:
    """Source and target structures from a template, linked field for field."""
    source, target = structure[:2], structure[2:]
    links = [
        {
            "class": "core:MappingLink",
            "source": f"{src}/{src_field}",
            "destination": f"{dst}/{dst_field}",
            "xpath": f"/{src}/{src_field}",
        }
        for (src, src_fields), (dst, dst_fields) in zip(source, target, strict=True)
        for src_field, dst_field in zip(src_fields, dst_fields, strict=False)
    ]
    return {
        "class": "core:MappingSettings",
        "sourceStructure": {
            "class": "core:SourceDataStructure",
            "nodes": [_node(name, fields, "s") for name, fields in source],
        },
        "targetStructure": {
            "class": "core:DestinationDataStructure",
            "nodes": [_node(name, fields, "t") for name, fields in target],
        },
        "mappings": links,
    }


def _node(name: str, fields: tuple[str, ...], prefix: str) -> dict[str, Any]:
    children = [
        {
            "class": "core:DataStructureItem",
            "name": field,
            "sourceObjectId": f"{prefix}-{name}-{field}",
        }
        for field in fields
    ]
    return {
        "class": "core:DataStructureItem",
        "name": name,
        "children": children,
        "sourceObjectId": f"{prefix}-{name}",
    }


# -- channels -------------------------------------------------------------------------------

CHANNEL_LABELS = ("IoT", "HTTP", "SMB", "FTP", "Fax", "SFTP", "Mail", "X400", "AS2", "OFTP", "AS4")
"""Channel type suffixes (class = core:IntegrationPartnerChannel + suffix), spec order."""
CHANNEL_WEIGHTS = (2, 6, 2, 10, 2, 14, 10, 3, 14, 4, 4)
"""How common each channel type is among a partner's channels (same order)."""


def _cert(rng: Random, kind: str, slug: str) -> dict[str, str]:
    year = 2024 + rng.randrange(3)
    return {
        "localCertificateId": f"cert-{kind}-local-{year}",
        "remoteCertificateId": f"cert-{kind}-{slug}",
    }


def _fingerprint(rng: Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    bits = rng.getrandbits(258)
    return "SHA256:" + "".join(alphabet[(bits >> (6 * i)) & 63] for i in range(43))


def _phone(rng: Random) -> str:
    return f"+49 40 555{rng.randrange(10000):04d}"


CHANNEL_FIELDS: dict[str, Callable[[Random, str, str], dict[str, Any]]] = {
    "IoT": lambda rng, slug, short: {
        "endpointUrl": f"opc.tcp://plc-{rng.randrange(1, 40):02d}.{slug}.test:4840",
        **_cert(rng, "opcua", slug),
        "opcSecurityPolicy": rng.choice(("Basic256Sha256", "Aes128_Sha256_RsaOaep", "None")),
    },
    "HTTP": lambda rng, slug, short: {
        "groupName": f"{short} API",
        **_cert(rng, "https", slug),
        "url": f"https://api.{slug}.example.com/v{rng.randrange(1, 4)}",
        "userRoles": ["edi-partner"] if rng.random() < 0.7 else ["edi-partner", "api-reader"],
    },
    "SMB": lambda rng, slug, short: {
        "host": f"fs{rng.randrange(1, 9):02d}.{slug}.test",
        "share": rng.choice(("edi-exchange", "transfer", "scans")),
        "smbDomain": slug.split("-")[0].upper()[:15],
    },
    "FTP": lambda rng, slug, short: {
        "host": f"ftp.{slug}.example.com",
        **_cert(rng, "ftps", slug),
        "port": rng.choice((21, 21, 990)),
        "remotePath": rng.choice(("/in", "/upload", "/edi/in")),
    },
    "Fax": lambda rng, slug, short: {
        "defaultSendHeadline": f"{short} order desk",
        "defaultSendStationID": _phone(rng),
        "expectedHeadline": f"{short}",
        "expectedStationID": _phone(rng),
        "faxIncomingDirectory": f"/var/fax/in/{slug}",
        "faxOutgoingDirectory": f"/var/fax/out/{slug}",
        "isdnLocalNumber": _phone(rng),
        "isdnRemoteNumber": _phone(rng),
    },
    "SFTP": lambda rng, slug, short: {
        "host": f"sftp.{slug}.example.com",
        "keyFingerprint": _fingerprint(rng),
        "keyType": rng.choice(("ssh-ed25519", "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa")),
        "port": rng.choice((22, 22, 22, 2222)),
        "privateKeyId": f"key-sftp-{slug}",
        "remotePath": rng.choice(("/outbound", "/from_partner", "/edi/out")),
    },
    "Mail": lambda rng, slug, short: {
        "imapFolder": rng.choice(("INBOX", "INBOX/EDI", "INBOX/Orders")),
        "incomingMaxSize": rng.choice((10, 25, 50)) * 1024 * 1024,
        **_cert(rng, "smime", slug),
        "retrievalAuthMechanism": rng.choice(("XOAUTH2", "PLAIN", "LOGIN")),
        "smtpAuthMechanism": rng.choice(("XOAUTH2", "PLAIN", "CRAM-MD5")),
        "smtpServerUrl": f"smtps://smtp.{slug}.example.com:465",
    },
    "X400": lambda rng, slug, short: {
        "localId": "C=DE;A=VIAT;P=EXAMPLE;O=EDI;S=INBOUND",
        "presentationSelector": "0x0001",
        "remoteId": f"C=DE;A=VIAT;P={slug.split('-')[0].upper()[:16]};O=EDI",
        "sessionSelector": "0x0001",
        "transportAccessPoint": f"x400.{slug}.example.net:102",
        "uafiConfigDirectory": "/opt/x400/conf",
        "uafiInDirectory": f"/opt/x400/in/{slug}",
        "uafiOutDirectory": f"/opt/x400/out/{slug}",
    },
    "AS2": lambda rng, slug, short: {
        "as2Url": f"https://as2.{slug}.example.net/as2/receive",
        "encryptionAlgorithm": rng.choice(("AES256_CBC", "AES128_CBC", "3DES")),
        **_cert(rng, "as2", slug),
        "mdnMode": rng.choice((0, 1, 1, 2)),
        "partnerAs2Id": slug.upper().replace("-", "")[:20] + "AS2",
        "signingAlgorithm": rng.choice(("SHA256", "SHA256", "SHA1", "SHA512")),
        "stationId": "EXAMPLECORP-AS2",
    },
    "OFTP": lambda rng, slug, short: {
        "endpointUrl": f"oftp2://oftp.{slug}.example.net:6619",
        **_cert(rng, "oftp", slug),
        "localSsid": "O0013000000EXAMPLE",
        "remoteSfid": f"O0013{rng.randrange(10**8):08d}{slug.split('-')[0].upper()[:5]}",
    },
    "AS4": lambda rng, slug, short: {
        "endpointUrl": f"https://as4.{slug}.example.net/msh",
        **_cert(rng, "as4", slug),
    },
}
"""Channel type -> builder of its own fields, from (rng, partner slug, partner short name)."""

# -- input agents ---------------------------------------------------------------------------


class Ctx(NamedTuple):
    """What an agent's values are derived from: who sends what, in which group."""

    slug: str
    """Host slug of the partner or internal system (`nordwind-logistics`, `erp`)."""
    short: str
    doc: str
    token: str
    ext: str
    group: str


CRONS = (
    "0 */5 * * * ?",
    "0 */15 * * * ?",
    "0 0 * * * ?",
    "0 30 6 * * ?",
    "0 0 2 * * ?",
    "0 0/10 7-19 ? * MON-FRI",
    "0 0 22 L * ?",
    "0 15 5 ? * MON",
)


def _cron(rng: Random) -> list[str]:
    if rng.random() < 0.85:
        return [rng.choice(CRONS)]
    return [rng.choice(CRONS), rng.choice(CRONS)]


def _flag(rng: Random, p: float = 0.5) -> bool:
    return rng.random() < p


def _pattern(c: Ctx) -> str:
    return f"{c.token}_*.{c.ext}"


_MIME = {"edi": "application/edifact", "xml": "application/xml", "json": "application/json",
         "csv": "text/csv", "pdf": "application/pdf"}  # fmt: skip


def _mime(c: Ctx) -> str:
    return _MIME[c.ext]


def _cls(c: Ctx, suffix: str) -> str:
    return f"com.example.integration.{c.token}.{c.token.capitalize()}{suffix}"


def _file_poll(rng: Random, c: Ctx) -> dict[str, Any]:
    """The fields every directory-polling cron agent shares."""
    return {
        "acceptEmptyFiles": _flag(rng, 0.1),
        "cronSchedule": _cron(rng),
        "deleteEmptyFiles": _flag(rng, 0.3),
        "excludeHour": rng.choice((0, 0, 1, 23)),
        "excludeMinute": 0,
        "excludeSecond": 0,
        "fileHandling": rng.randrange(4),
        "filePattern": _pattern(c),
        "fileSortAscending": _flag(rng, 0.8),
        "fileSortItem": rng.randrange(3),
        "readTempFiles": False,
        "recursiveDir": _flag(rng, 0.15),
        "runInBackground": _flag(rng, 0.6),
    }


def _ftp_poll(rng: Random, c: Ctx) -> dict[str, Any]:
    """CronFtp and CronSftp share this field set (their `channel` differs in type)."""
    control = _flag(rng, 0.15)
    return {
        "acceptEmptyFiles": _flag(rng, 0.1),
        "as400Member": False,
        "controlSuffix": ".ctl" if control else "",
        "cronSchedule": _cron(rng),
        "deleteEmptyFiles": _flag(rng, 0.3),
        "deleteMasterCtrlFile": False,
        "dir": f"/outbound/{c.token}",
        "dmz": _flag(rng, 0.2),
        "fetchControlFile": control,
        "fetchMasterCtrlFile": False,
        "fileHandling": rng.randrange(4),
        "filePattern": _pattern(c),
        "fileRename": "%s.done",
        "fileSortAscending": True,
        "fileSortItem": rng.randrange(3),
        "ftpControlNameType": 0,
        "ftpPassive": _flag(rng, 0.8),
        "ftpSiteCommands": "",
        "ftpTransferMode": _flag(rng, 0.7),
        "keepLocalFtpFileIfDeleteWasUnsuccessful": _flag(rng, 0.2),
        "masterCtrlFile": "",
        "masterCtrlFileInSubDir": False,
        "maxFilesPerBatch": rng.choice((0, 50, 100, 500)),
        "runInBackground": _flag(rng, 0.6),
        "useControlFile": control,
        "useFtpShortList": _flag(rng, 0.1),
    }


def _stream(rng: Random, c: Ctx) -> dict[str, Any]:
    """Message-stream settings shared by Kafka, MQTT and AMQP agents."""
    return {
        "delimiter": "\n",
        "finalValueFunction": "",
        "genericDataType": rng.randrange(3),
        "messageBufferSize": rng.choice((100, 500, 1000)),
        "messageIntervalCheck": rng.choice((1000, 5000)),
        "timeout": rng.choice((10000, 30000, 60000)),
    }


def _http_verbs(rng: Random) -> dict[str, bool]:
    return {
        "acceptHttpDelete": _flag(rng, 0.1),
        "acceptHttpGet": _flag(rng, 0.4),
        "acceptHttpHead": False,
        "acceptHttpPatch": _flag(rng, 0.1),
        "acceptHttpPost": True,
        "acceptHttpPut": _flag(rng, 0.3),
    }


def http_settings(rng: Random, c: Ctx, method: str) -> dict[str, Any]:
    return {
        "class": "core:HttpClientSettings",
        "headers": {"Accept": "application/json", "Content-Type": _mime(c)},
        "host": f"api.{c.slug}.example.com",
        "httpMethod": method,
        "port": rng.choice(("443", "443", "8443")),
        "sslEnabled": True,
        "uri": f"/v{rng.randrange(1, 4)}/{c.token}",
    }


def _kafka(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": "kafka-prod",
        "assigned": _flag(rng, 0.3),
        "binaryConverterClassName": "com.example.kafka.AvroToXmlConverter",
        "clientId": f"iptk-{c.token}-consumer",
        "commitEach": _flag(rng, 0.2),
        "commitInterval": rng.choice((1000, 5000)),
        "complexDataType": rng.choice(("AVRO", "JSON")),
        "dataType": "String",
        "keyType": "String",
        "nullInstance": False,
        "schemaRegistryUrl": "https://schema-registry.example.net",
        **_stream(rng, c),
        "topicName": f"{c.token}.events.v1",
        "triggerOnAnyServer": _flag(rng, 0.3),
    }


def _as2(rng: Random, c: Ctx) -> dict[str, Any]:
    return {"filePattern": _pattern(c), "mimeType": _mime(c), "subject": f"{c.doc} {c.short}"}


def _cloud(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        **_file_poll(rng, c),
        "bucket": f"{c.slug}-{c.token}-inbox",
        "dir": f"/{c.token}",
        "dmz": False,
        "documentLibrary": "Shared Documents/EDI",
    }


def _ldap(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": "ldap-corp",
        "attributes": "cn,mail,department,manager",
        "baseDN": "ou=people,dc=corp,dc=example,dc=com",
        "cronSchedule": _cron(rng),
        "resultLimit": rng.choice((1000, 5000)),
        "search": "(objectClass=person)",
        "searchScope": 2,
        "timeLimit": 60,
        "wrapFields": _flag(rng),
    }


def _dataqueue(rng: Random, c: Ctx) -> dict[str, Any]:
    sql = _flag(rng, 0.3)
    return {
        "alias": "as400-dq",
        "className": _cls(c, "QueueReader"),
        "errorOnNoData": False,
        "factoryName": "DataQueueFactory",
        "host": "as400.erp.test",
        "interval": 5000,
        "key": c.token.upper()[:10],
        "queue": f"/QSYS.LIB/EDI.LIB/{c.token.upper()[:10]}.DTAQ",
        "sqlStatement": f"SELECT * FROM EDI.{c.token.upper()} WHERE STATUS = 'N'" if sql else "",
        "useSql": sql,
    }


def _as4(rng: Random, c: Ctx) -> dict[str, Any]:
    return {"filePattern": _pattern(c), "mimeType": _mime(c)}


def _fax(rng: Random, c: Ctx) -> dict[str, Any]:
    return {"acceptAll": _flag(rng, 0.3)}


def _http(rng: Random, c: Ctx) -> dict[str, Any]:
    auth = rng.choice(("NONE", "BASIC", "OAUTH2", "OAUTH2", "CLIENT_CERT"))
    return {
        "acceptEmptyBody": False,
        "acceptEmptyResponse": _flag(rng, 0.2),
        **_http_verbs(rng),
        "acceptREST": _flag(rng, 0.8),
        "asyncRequest": _flag(rng, 0.4),
        "authenticationType": auth,
        "deleteHasPayload": False,
        "enableApi": _flag(rng, 0.7),
        "errorCode": "500",
        "invisibleForDmz": False,
        "jwtScopes": f"{c.token}:write" if auth == "OAUTH2" else "",
        "mimeType": _mime(c),
        "multiPartFileKey": "file",
        "namespaceUrl": f"urn:example:{c.token}",
        "responseOnError": '{"status": "error"}',
        "responseOnSuccess": '{"status": "ok"}',
        "restUrlPlaceholder": "{id}",
        "swaggerResponseDesc": "Accepted for processing",
        "swaggerTransformerVersion": "3.0",
        "url": f"/api/{c.token}/v1",
        "useResponseOnSuccess": _flag(rng, 0.6),
        "webservice": _flag(rng, 0.1),
        "wsdlCreator": "default",
    }


def _cron_oftp(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "acceptEmptyFiles": False,
        "cronSchedule": _cron(rng),
        "destination": "O0013000000EXAMPLE",
        "oftpDmzOption": rng.choice(("NONE", "DMZ")),
        "oftpPort": rng.choice((3305, 6619)),
        "oftpServiceName": "OFTP2",
        "oftpTLS": _flag(rng, 0.8),
        "origin": f"O0013{c.slug.split('-')[0].upper()[:8]}",
        "runInBackground": True,
    }


def _sftp_server(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "acceptEmptyFiles": _flag(rng, 0.1),
        "dir": f"/home/{c.slug}/in",
        "fileName": _pattern(c),
        "processOnLogout": _flag(rng, 0.6),
        "transferType": rng.randrange(2),
    }


def _tcp(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": f"tcp-{rng.choice((9100, 9200, 5020))}",
        "binaryConverterClassName": "com.example.tcp.LengthPrefixedFrames",
        "factoryName": "TcpServerFactory",
    }


def _custom(rng: Random, c: Ctx, suffix: str = "Collector") -> dict[str, Any]:
    return {
        "configFile": f"/opt/integration/conf/{c.token}.properties",
        "cronSchedule": _cron(rng),
        "customClass": _cls(c, suffix),
        "runInBackground": _flag(rng, 0.7),
    }


def _ftp_server(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "acceptEmptyFiles": _flag(rng, 0.1),
        "dir": f"/ftp/{c.slug}/in",
        "fileName": _pattern(c),
        "processOnLogout": _flag(rng, 0.6),
    }


def _mail_poll(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "cronSchedule": _cron(rng),
        "handleUnknownMailData": rng.randrange(3),
        "runInBackground": _flag(rng, 0.6),
        "skipCorruptMail": _flag(rng, 0.7),
        "supportSMIME": _flag(rng, 0.3),
    }


def _mqtt(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": "mqtt-shopfloor",
        "binaryConverterClassName": "",
        "complexDataType": "JSON",
        **_stream(rng, c),
        "qos": rng.choice(("0", "1", "1", "2")),
        "topic": f"plant/line{rng.randrange(1, 9)}/{c.token}",
    }


def _message(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "context": c.group.split("/")[0].upper(),
        "param": c.token,
        "queue": f"internal.{c.token}",
    }


def _oftp(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "destination": "O0013000000EXAMPLE",
        "fileName": _pattern(c),
        "origin": f"O0013{c.slug.split('-')[0].upper()[:8]}",
        "processOnLogout": _flag(rng, 0.5),
    }


def _imap(rng: Random, c: Ctx) -> dict[str, Any]:
    return {**_mail_poll(rng, c), "dir": f"/mail/{c.token}", "imapMoveDir": "INBOX/processed"}


def _mongodb(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": "mongo-shop",
        "collectionName": c.token,
        "cronSchedule": _cron(rng),
        "databaseName": "shop",
        "jsonType": rng.choice(("RELAXED", "CANONICAL")),
        "maxBatchSize": 500,
        "maxRows": rng.choice((1000, 10000)),
        "oneDocument": _flag(rng, 0.2),
        "projection": '{"_id": 0}',
        "query": '{"status": "NEW"}',
    }


def _amqp(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": "rabbitmq-wms",
        "confirmMessageAtEnd": _flag(rng, 0.7),
        **_stream(rng, c),
        "jmsUnsubscribeTopic": False,
        "persistent": _flag(rng, 0.8),
        "prefetchCount": rng.choice((10, 50)),
        "prefetchSize": 0,
        "propertyKeyForFileName": "fileName",
        "qualityOfService": "AT_LEAST_ONCE",
        "queueName": f"{c.token}.in",
        "queueType": rng.randrange(2),
        "requeue091": _flag(rng, 0.2),
        "routingKey": f"{c.token}.#",
        "subscriberName": f"iptk-{c.token}",
    }


def _portal(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "allowAnonymousAccess": False,
        "eventTimeout": 300,
        "form": f"{c.token}-form",
        "readOnly": _flag(rng, 0.2),
        "roles": ["portal-user"] if _flag(rng) else ["portal-user", "key-user"],
        "synchronous": _flag(rng, 0.6),
        "upload": _flag(rng),
        "userIds": [f"u{rng.randrange(1000, 9999)}"],
    }


def _cron_file(rng: Random, c: Ctx) -> dict[str, Any]:
    group = c.group.lower().replace("/", "-")
    return {
        **_file_poll(rng, c),
        "dirIsMounted": _flag(rng, 0.3),
        "directory": f"/data/in/{group}/{c.token}",
        "lockFile": f"{c.token}.lock",
        "singleFile": _flag(rng, 0.1),
    }


def _sql(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "cronSchedule": _cron(rng),
        "dbAlias": rng.choice(("erp-db", "dwh", "wms-db")),
        "encodeBlob": False,
        "sql": f"SELECT * FROM {c.token.upper()}_EXPORT WHERE EXPORTED = 0",
        "sqlTestTimeout": 10,
        "sqlTimeout": 300,
    }


def _sap(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "alias": "sap-prd",
        "cronSchedule": _cron(rng),
        "format": rng.randrange(2),
        "rfcName": f"Z_EDI_{c.token.upper()}_EXPORT",
        "waitTime": 1000,
    }


def _smtp(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "active": _flag(rng, 0.9),
        "cc": "",
        "channelMatchType": rng.randrange(2),
        "contentType": rng.randrange(2),
        "exactSubjectMatch": _flag(rng, 0.3),
        "filePattern": _pattern(c),
        "mailType": rng.randrange(2),
        "mimeType": "message/rfc822",
        "profileName": f"mail-in-{c.token}",
        "sender": f"edi@{c.slug}.example.com",
        "subject": c.doc,
        "to": f"{c.token}@inbound.example.com",
    }


def _ssh(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "cronSchedule": _cron(rng),
        "dir": f"/outbound/{c.token}",
        "fileHandling": rng.randrange(4),
        "filePattern": _pattern(c),
        "fileRename": "%s.done",
        "runInBackground": _flag(rng, 0.6),
    }


def _webdav(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "certId": 3000 + rng.randrange(40),
        "cronSchedule": _cron(rng),
        "dir": f"/{c.token}",
        "fileHandling": rng.randrange(4),
        "filePattern": _pattern(c),
        "fileRename": "%s.done",
        "runInBackground": _flag(rng, 0.6),
        "url": f"https://dav.{c.slug}.example.com/remote.php/dav/files/edi/",
    }


def _solution(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        **_http_verbs(rng),
        "mimeType": _mime(c),
        "restUrlPlaceholder": "{id}",
        "solutionName": f"{c.token.capitalize()} Solution",
        "swaggerPath": f"/swagger/{c.token}.json",
        "swaggerUrl": f"https://integration.example.com/swagger/{c.token}",
        "url": f"/solutions/{c.token}",
    }


def _x400(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "cronSchedule": _cron(rng),
        "dmz": _flag(rng, 0.2),
        "filterOnlyNewX400": True,
        "filterX400Addresses": _flag(rng, 0.5),
        "filterX400Date": _flag(rng, 0.3),
        "handleUnknownMailData": rng.randrange(3),
        "runInBackground": True,
        "x400DoNotDelete": _flag(rng, 0.1),
    }


def _cron_http(rng: Random, c: Ctx) -> dict[str, Any]:
    soap = _flag(rng, 0.1)
    return {
        "certId": 3000 + rng.randrange(40),
        "continueHttpCronWithSameUrl": _flag(rng, 0.2),
        "cronSchedule": _cron(rng),
        "dmz": _flag(rng, 0.2),
        "encodeUrl": True,
        "httpContentType": "text/xml" if soap else "application/json",
        "httpSettings": http_settings(rng, c, "POST" if soap else "GET"),
        "httpTimeOut": rng.choice((30000, 60000)),
        "ignoreHttpError": _flag(rng, 0.1),
        "maxPaging": rng.choice((0, 10, 100)),
        "runInBackground": _flag(rng, 0.6),
        "selfTrigger": False,
        "soapData": "<soap:Envelope/>" if soap else "",
        "validCertificateChain": True,
        "webServiceRequest": soap,
    }


def _iot(rng: Random, c: Ctx) -> dict[str, Any]:
    return {
        "agentType": "OPC_UA",
        "ignoreErrorStatus": _flag(rng, 0.2),
        "notifyInitial": _flag(rng, 0.5),
        "sendGenericOKResponse": _flag(rng, 0.5),
        "subscriptionAlias": f"line{rng.randrange(1, 9)}-{c.token}",
        "subscriptionInterval": rng.choice((500, 1000, 5000)),
        "subscriptionType": rng.choice(("DATA_CHANGE", "EVENT")),
    }


class AgentSpec(NamedTuple):
    """How profiles with one agent type look: label, frequency, naming, groups, fields."""

    label: str
    """Short transport name, used as `typeName` and in profile names: `(AS2)`."""
    weight: int
    kind: str
    """`partner`: data arrives from a partner (named after it); `internal`: from our systems."""
    groups: tuple[str, ...]
    build: Callable[[Random, Ctx], dict[str, Any]]
    source: tuple[str, str] | None = None
    """Where an internal agent reads from (name, host slug); None: the group's system."""


_EDI_IN = ("Logistics/EDI/Inbound", "Sales/Orders", "Finance/AP", "Procurement/Suppliers")
_OUT = ("Logistics/EDI/Outbound", "Finance/AR", "Sales/Orders", "Finance/GL")

AGENTS: dict[str, AgentSpec] = {
    "KafkaAgentSettings": AgentSpec("Kafka", 3, "internal",
        ("Logistics/Transport", "IT/Monitoring", "Sales/Orders"), _kafka,
        source=("the event bus", "events")),
    "AS2AgentSettings": AgentSpec("AS2", 14, "partner", _EDI_IN, _as2),
    "CronCloudStorageAgentSettings": AgentSpec("Cloud storage", 2, "internal",
        ("IT/Archive", "Finance/GL", "Sales/Pricing"), _cloud,
        source=("the cloud inbox", "cloud")),
    "CronLdapAgentSettings": AgentSpec("LDAP", 1, "internal", ("HR/Directory",), _ldap,
        source=("the corporate directory", "ldap")),
    "DataQueueAgentSettings": AgentSpec("Data queue", 1, "internal",
        ("Finance/GL", "Production/Quality"), _dataqueue,
        source=("the AS/400", "as400")),
    "AS4AgentSettings": AgentSpec("AS4", 2, "partner", ("Finance/AP", "Logistics/EDI/Inbound"),
        _as4),
    "FaxAgentSettings": AgentSpec("Fax", 1, "internal", ("Sales/Backoffice",), _fax,
        source=("the fax server", "fax")),
    "HttpAgentSettings": AgentSpec("HTTP", 8, "partner",
        ("Sales/Orders", "Sales/Portal", "Logistics/Transport"), _http),
    "CronOftpAgentSettings": AgentSpec("OFTP poll", 1, "partner",
        ("Logistics/EDI/Inbound", "Procurement/Suppliers"), _cron_oftp),
    "SFTPAgentSettings": AgentSpec("SFTP", 8, "partner",
        ("Logistics/EDI/Inbound", "Finance/AR", "HR/Payroll"), _sftp_server),
    "ManualUploadAgentSettings": AgentSpec("Upload", 2, "internal",
        ("IT/Test", "Sales/Pricing", "Finance/GL"), lambda rng, c: {},
        source=("manual upload", "upload")),
    "TcpAgentSettings": AgentSpec("TCP", 1, "internal",
        ("Production/Shopfloor", "Logistics/Warehouse"), _tcp,
        source=("line controllers", "plc")),
    "CronCustomAgentSettings": AgentSpec("Custom", 2, "internal", ("IT/Monitoring", "IT/Archive"),
        _custom,
        source=("a custom collector", "collector")),
    "FTPAgentSettings": AgentSpec("FTP", 3, "partner",
        ("Logistics/Warehouse", "Logistics/EDI/Inbound"), _ftp_server),
    "CronPop3AgentSettings": AgentSpec("POP3", 1, "partner", ("Sales/Orders", "Finance/AP"),
        _mail_poll),
    "MQTTAgentSettings": AgentSpec("MQTT", 2, "internal",
        ("Production/Shopfloor", "Production/Quality"), _mqtt,
        source=("the shopfloor broker", "mqtt")),
    "MessageAgentSettings": AgentSpec("Message", 3, "internal",
        ("Logistics/EDI/Outbound", "IT/Test"), _message,
        source=("upstream profiles", "internal")),
    "OFTPAgentSettings": AgentSpec("OFTP", 2, "partner",
        ("Logistics/EDI/Inbound", "Procurement/Suppliers"), _oftp),
    "CronImapAgentSettings": AgentSpec("IMAP", 3, "partner", ("Sales/Orders", "Finance/AP"),
        _imap),
    "CronMongodbAgentSettings": AgentSpec("MongoDB", 1, "internal", ("Sales/Orders", "IT/Archive"),
        _mongodb,
        source=("the shop database", "shop")),
    "CronOrchestrationAgentSettings": AgentSpec("Orchestration", 1, "internal",
        ("Logistics/EDI/Outbound", "Finance/GL"), lambda rng, c: _custom(rng, c, "Flow"),
        source=("an orchestration", "orchestration")),
    "AMQPAgentSettings": AgentSpec("AMQP", 2, "internal",
        ("Logistics/Warehouse", "Sales/Orders"), _amqp,
        source=("the message queue", "mq")),
    "PortalAgentSettings": AgentSpec("Portal", 1, "internal", ("Sales/Portal", "HR/Payroll"),
        _portal,
        source=("the customer portal", "portal")),
    "CronFileAgentSettings": AgentSpec("File", 10, "internal",
        ("Finance/GL", "HR/Payroll", "Logistics/EDI/Outbound", "IT/Archive"), _cron_file),
    "CronSqlAgentSettings": AgentSpec("SQL", 6, "internal", _OUT + ("Sales/Pricing",), _sql),
    "CronSapAgentSettings": AgentSpec("SAP", 6, "internal", _OUT + ("Finance/AP",), _sap,
        source=("SAP", "sap")),
    "SMTPAgentSettings": AgentSpec("SMTP", 2, "internal", ("Finance/AP", "Sales/Orders"), _smtp,
        source=("the mailbox", "mail")),
    "CronSshAgentSettings": AgentSpec("SSH", 2, "partner",
        ("Finance/Treasury", "Logistics/Transport"), _ssh),
    "CronWebdavAgentSettings": AgentSpec("WebDAV", 1, "internal",
        ("IT/Archive", "Procurement/Catalogs"), _webdav,
        source=("the document server", "dms")),
    "SolutionAgentSettings": AgentSpec("Solution", 1, "internal", ("Sales/Portal", "IT/Monitoring"),
        _solution,
        source=("the solution API", "api")),
    "CronX400AgentSettings": AgentSpec("X.400", 1, "partner",
        ("Logistics/EDI/Inbound", "Procurement/Suppliers"), _x400),
    "CronHttpAgentSettings": AgentSpec("HTTP poll", 4, "partner",
        ("Finance/Treasury", "Logistics/Transport", "IT/Monitoring"), _cron_http),
    "CronFtpAgentSettings": AgentSpec("FTP poll", 3, "partner",
        ("Procurement/Catalogs", "Logistics/Warehouse"), _ftp_poll),
    "CronSftpAgentSettings": AgentSpec("SFTP poll", 7, "partner",
        ("Finance/Treasury", "Logistics/EDI/Inbound", "Procurement/Catalogs"), _ftp_poll),
    "IoTAgentSettings": AgentSpec("IoT", 1, "internal", ("Production/Shopfloor",), _iot,
        source=("OPC UA servers", "opcua")),
}  # fmt: skip
"""Agent type name -> how its profiles look. Weights are relative frequencies."""

AGENT_HOLDS: dict[str, tuple[str, str]] = {
    "AS2AgentSettings": ("channels", "AS2"),
    "AS4AgentSettings": ("channels", "AS4"),
    "CronOftpAgentSettings": ("channel", "OFTP"),
    "SFTPAgentSettings": ("channels", "SFTP"),
    "FTPAgentSettings": ("channels", "FTP"),
    "CronPop3AgentSettings": ("channel", "Mail"),
    "OFTPAgentSettings": ("channels", "OFTP"),
    "CronImapAgentSettings": ("channel", "Mail"),
    "CronSshAgentSettings": ("channel", "SFTP"),
    "CronX400AgentSettings": ("channel", "X400"),
    "CronFtpAgentSettings": ("channel", "FTP"),
    "CronSftpAgentSettings": ("channel", "SFTP"),
}
"""Agents that hold channel objects: (field, channel type the spec names for it)."""

AGENT_REFS: dict[str, tuple[str, str]] = {
    "FaxAgentSettings": ("channelIds", "Fax"),
    "IoTAgentSettings": ("channelIds", "IoT"),
    "MessageAgentSettings": ("comChannelId", "HTTP"),
    "CronCloudStorageAgentSettings": ("comChannelId", "HTTP"),
    "CronWebdavAgentSettings": ("comChannelId", "HTTP"),
    "SMTPAgentSettings": ("channelId", "Mail"),
    "KafkaAgentSettings": ("registryChannelId", "HTTP"),
}
"""Agents that name channels by id only: (field, channel type referred to)."""
