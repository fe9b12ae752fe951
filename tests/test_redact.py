"""One list of secret parameters and one way of masking them, for client, server and exports."""

from __future__ import annotations

import pytest

from iptoolkit.client._urls import redact_url as client_redact_url
from iptoolkit.exporters.attributes import redact_text as exporter_redact_text
from iptoolkit.redact import MASK, SECRET_PARAMS, redact_query, redact_text, redact_url


def test_the_exporter_and_the_client_use_the_shared_functions() -> None:
    assert exporter_redact_text is redact_text
    assert client_redact_url("https://h/?sig=abc") == redact_url("https://h/?sig=abc")


@pytest.mark.parametrize("name", ["passwd", "pwd", "sig", "signature", "loginToken", "TOKEN"])
def test_every_secret_name_is_masked_in_any_case(name: str) -> None:
    assert name.lower() in SECRET_PARAMS
    assert redact_url(f"https://h/p?{name}=abc&page=2") == f"https://h/p?{name}={MASK}&page=2"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://h/?api%5Fkey=k&x=1", f"https://h/?api%5Fkey={MASK}&x=1"),  # encoded name
        ("https://h/?a=1;token=x;y&b=2", f"https://h/?a=1;token={MASK}&b=2"),  # ; inside
        ("https://h/p;a=1?token=x&b=2", f"https://h/p;a=1?token={MASK}&b=2"),
        ("https://u:p@ss@h/x?q=a%20b#f", f"https://u:{MASK}@h/x?q=a%20b#f"),  # kept as written
        ("https://user@h/?q=1", "https://user@h/?q=1"),  # no password, nothing to mask
        ("/login?next=%2F&Token=z", f"/login?next=%2F&Token={MASK}"),  # relative
    ],
)
def test_redact_url(url: str, expected: str) -> None:
    assert redact_url(url) == expected


def test_redact_query_in_a_log_line_and_redact_text_around_urls() -> None:
    line = '"GET /?token=ab;cd&lang=en HTTP/1.1" 200'
    assert redact_query(line) == f'"GET /?token={MASK}&lang=en HTTP/1.1" 200'
    text = "see https://u:S@h/p?pwd=S&x=1, and no URL ?token=t here"
    assert redact_text(text) == f"see https://u:{MASK}@h/p?pwd={MASK}&x=1, and no URL ?token=t here"
