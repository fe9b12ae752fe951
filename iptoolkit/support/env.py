"""The environment variables iptoolkit reads: one table for the client, the CLI and the docs.

`Client.from_env`, `iptoolkit fetch` (its options' `envvar`s and error messages) and the
reference server's start-up banner take the names from here, so a renamed variable is
renamed everywhere at once. No imports: the server and the client may both use it.
"""

from __future__ import annotations

__all__ = [
    "BASE_URL",
    "CLIENT_ID",
    "CLIENT_SECRET",
    "GUEST_TOKEN",
    "SESSION_COOKIE",
    "BEARER_TOKEN",
    "PROFILES_PATH",
    "DEBUG",
    "MAX_LOAD_SIZE",
    "APP_SNAPSHOT",
    "APP_FOLDER",
    "APP_UNMASKED",
    "APP_TOKEN",
    "APP_VIEWS",
    "APP_SINCE",
    "APP_ARCHIVE",
    "MCP_TOKEN",
    "PROGRESS_DELAY",
    "NOTIFY",
    "ENV_VARS",
    "SECRET_VARIABLES",
]

BASE_URL = "IPTOOLKIT_BASE_URL"
CLIENT_ID = "IPTOOLKIT_CLIENT_ID"
CLIENT_SECRET = "IPTOOLKIT_CLIENT_SECRET"
GUEST_TOKEN = "IPTOOLKIT_GUEST_TOKEN"
SESSION_COOKIE = "IPTOOLKIT_SESSION_COOKIE"
BEARER_TOKEN = "IPTOOLKIT_BEARER_TOKEN"
PROFILES_PATH = "IPTOOLKIT_PROFILES_PATH"
DEBUG = "IPTOOLKIT_DEBUG"
MAX_LOAD_SIZE = "IPTOOLKIT_MAX_LOAD_SIZE"
APP_SNAPSHOT = "IPTOOLKIT_APP_SNAPSHOT"
APP_FOLDER = "IPTOOLKIT_APP_FOLDER"
APP_UNMASKED = "IPTOOLKIT_APP_UNMASKED"
APP_TOKEN = "IPTOOLKIT_APP_TOKEN"
APP_VIEWS = "IPTOOLKIT_APP_VIEWS"
APP_SINCE = "IPTOOLKIT_APP_SINCE"
APP_ARCHIVE = "IPTOOLKIT_APP_ARCHIVE"
MCP_TOKEN = "IPTOOLKIT_MCP_TOKEN"
PROGRESS_DELAY = "IPTOOLKIT_PROGRESS_DELAY"
NOTIFY = "IPTOOLKIT_NOTIFY"

ENV_VARS: dict[str, str] = {
    BASE_URL: "the platform's base URL, e.g. https://platform.example.com",
    CLIENT_ID: f"client id of the client-credentials flow (with {CLIENT_SECRET})",
    CLIENT_SECRET: "client secret of the client-credentials flow",
    GUEST_TOKEN: "a guest user's login token",
    SESSION_COOKIE: "the web UI's session cookie, as name=value",
    BEARER_TOKEN: "a ready bearer token",
    PROFILES_PATH: "the profile listing's path under the base URL, if not the default",
    DEBUG: "1: the iptoolkit command shows tracebacks (as --debug)",
    MAX_LOAD_SIZE: "the most JSON a loaded file may hold, e.g. 4GiB (default 1 GiB)",
    APP_SNAPSHOT: "the snapshot the Explorer app shows (set by iptoolkit explore; else a demo)",
    APP_FOLDER: "where the Explorer app's Export tab writes (set by iptoolkit explore)",
    APP_UNMASKED: "1: the app's exports unmasked (iptoolkit explore --unmasked-downloads)",
    APP_SINCE: "an older snapshot: the app's map shows what changed since (explore --since)",
    APP_ARCHIVE: "an archive: the app's map has a timeline over its snapshots (explore --archive)",
    APP_TOKEN: "the app's token, for its Copy link (set by iptoolkit explore for its kernels)",
    APP_VIEWS: "the folder of the app's saved views (iptoolkit explore --views; else beside "
    "the snapshot)",
    MCP_TOKEN: "the token iptoolkit mcp --http asks for (default: a new one each start)",
    NOTIFY: "webhook URLs iptoolkit watch posts to, separated by spaces (as --notify, kept "
    "off the command line: a webhook's path is its secret)",
    PROGRESS_DELAY: "seconds a step runs before --progress auto shows its bar (default 2; "
    "0: at once)",
}
"""Every variable iptoolkit reads -> what it holds."""

SECRET_VARIABLES: dict[str, str] = {
    "client": CLIENT_SECRET,
    "guest": GUEST_TOKEN,
    "session": SESSION_COOKIE,
    "bearer": BEARER_TOKEN,
}
"""Auth flow -> the variable holding its secret, in the order `from_env` tries them."""
