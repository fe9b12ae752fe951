"""Paging: Spring pages, Link headers, next links in bodies, no paging, and every loop guard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from iptoolkit.client import BearerToken, Client, PagingError, paging
from iptoolkit.client.paging import Pager, next_from_body, next_from_link_header
from iptoolkit.models import ParseError

from .client_helpers import BASE

LISTING = BASE + "/api/preview/profiles"
TOKEN = "paging-Bearer-Secret-42"

pytestmark = pytest.mark.usefixtures("no_sleep")


def profiles(start: int, count: int) -> list[dict[str, Any]]:
    return [
        {"class": "core:IntegrationProfile", "id": f"P{i}"} for i in range(start, start + count)
    ]


ALL = profiles(0, 7)


def spring(
    page: int,
    size: int,
    *,
    total: int = len(ALL),
    with_last: bool = True,
    with_total_pages: bool = True,
) -> dict[str, Any]:
    pages = -(-total // size)
    body: dict[str, Any] = {
        "content": ALL[page * size : (page + 1) * size],
        "number": page,
        "size": size,
        "totalElements": total,
        "first": page == 0,
        "numberOfElements": len(ALL[page * size : (page + 1) * size]),
    }
    if with_last:
        body["last"] = page + 1 >= pages
    if with_total_pages:
        body["totalPages"] = pages
    return body


def run(
    handler: Callable[[httpx.Request], httpx.Response], **kw: Any
) -> tuple[list[Any], list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def recording(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return handler(request)

    with Client(
        BASE, auth=BearerToken(TOKEN), transport=httpx.MockTransport(recording), **kw
    ) as client:
        return client.fetch_raw(), seen


def urls(requests: list[httpx.Request]) -> list[str]:
    return [str(r.url).removeprefix(LISTING) for r in requests]


# -- Spring pages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("with_last", "with_total_pages"), [(True, True), (True, False), (False, True)]
)
def test_spring_pages_are_followed_with_the_servers_size(
    with_last: bool, with_total_pages: bool
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        size = int(request.url.params.get("size", 3))
        return httpx.Response(
            200, json=spring(page, size, with_last=with_last, with_total_pages=with_total_pages)
        )

    items, requests = run(handler)
    assert items == ALL
    assert urls(requests) == ["", "?page=1&size=3", "?page=2&size=3"]


@pytest.mark.parametrize("with_size", [True, False])
def test_a_page_object_with_only_a_total_is_followed_to_the_end(with_size: bool) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        body = spring(page, 3, with_last=False, with_total_pages=False)
        if not with_size:
            del body["size"]
        return httpx.Response(200, json=body)

    items, requests = run(handler)
    assert items == ALL
    assert len(requests) == 3


@pytest.mark.parametrize(
    ("with_last", "with_total_pages"), [(True, True), (True, False), (False, True)]
)
def test_spring_pages_without_a_total_stop_at_the_last_page(
    with_last: bool, with_total_pages: bool
) -> None:
    """No `totalElements` to count up to: the page's own `last` or `totalPages` ends the
    listing, with no request for the page past it."""

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        body = spring(page, 3, with_last=with_last, with_total_pages=with_total_pages)
        del body["totalElements"]
        return httpx.Response(200, json=body)

    items, requests = run(handler)
    assert items == ALL
    assert urls(requests) == ["", "?page=1&size=3", "?page=2&size=3"]


def test_a_spring_listing_that_fits_one_page_takes_one_request() -> None:
    items, requests = run(lambda r: httpx.Response(200, json=spring(0, 20)))
    assert items == ALL
    assert len(requests) == 1


def test_an_empty_spring_listing() -> None:
    body = {
        "content": [],
        "number": 0,
        "size": 20,
        "totalElements": 0,
        "totalPages": 0,
        "last": True,
    }
    items, requests = run(lambda r: httpx.Response(200, json=body))
    assert items == []
    assert len(requests) == 1


def test_paging_parameters_in_the_profiles_path_are_kept_and_advanced() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        return httpx.Response(200, json=spring(page, int(request.url.params["size"])))

    items, requests = run(handler, profiles_path="/api/preview/profiles?size=5&sort=id")
    assert items == ALL
    assert urls(requests) == ["?size=5&sort=id", "?size=5&sort=id&page=1"]


def test_spring_data_paged_model_pages_are_followed() -> None:
    """Spring Data's `PagedModel` (the serialisation Spring Data 3.3+ recommends) keeps the
    numbers under `page`; reading only `content` would return the first page as if whole."""

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        body = spring(page, 3, with_last=False)
        meta = {key: body.pop(key) for key in ("number", "size", "totalElements", "totalPages")}
        return httpx.Response(200, json={"content": body["content"], "page": meta})

    items, requests = run(handler)
    assert items == ALL
    assert urls(requests) == ["", "?page=1&size=3", "?page=2&size=3"]


@pytest.mark.parametrize("key", ["total", "totalElements", "totalCount"])
def test_a_listing_announcing_more_than_it_holds_and_no_way_on_is_a_paging_error(
    key: str,
) -> None:
    body = {"items": ALL[:3], key: len(ALL), "offset": 0, "limit": 3}
    with pytest.raises(PagingError, match=f"holds 3 profiles but announces {len(ALL)}"):
        run(lambda r: httpx.Response(200, json=body))


def test_spring_data_rest_hal_pages_follow_their_next_link() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        body: dict[str, Any] = {
            "_embedded": {"integrationProfiles": ALL[page * 4 : page * 4 + 4]},
            "page": {"size": 4, "totalElements": 7, "totalPages": 2, "number": page},
            "_links": {"self": {"href": str(request.url)}},
        }
        if page == 0:
            body["_links"]["next"] = {"href": LISTING + "?page=1&size=4"}
        return httpx.Response(200, json=body)

    items, requests = run(handler)
    assert items == ALL
    assert len(requests) == 2


# -- RFC 8288 Link header ------------------------------------------------------------------------


def test_link_header_paging_with_relative_links() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        cursor = int(request.url.params.get("cursor", 0))
        headers = {}
        if cursor + 3 < len(ALL):
            headers["Link"] = (
                f'</api/preview/profiles?cursor=0>; rel="first", '
                f'</api/preview/profiles?cursor={cursor + 3}>; rel="next"'
            )
        return httpx.Response(200, json=ALL[cursor : cursor + 3], headers=headers)

    items, requests = run(handler)
    assert items == ALL
    assert urls(requests) == ["", "?cursor=3", "?cursor=6"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (['<https://h/x?page=2>; rel="next"'], "https://h/x?page=2"),
        (
            ['<https://h/x?page=1>; rel="prev", <https://h/x?page=3>; rel="next"'],
            "https://h/x?page=3",
        ),
        (["<https://h/x?a=1,2>; rel=next"], "https://h/x?a=1,2"),
        (['<https://h/last>; rel="next last"; title="x, y"'], "https://h/last"),
        (['<https://h/p>; rel="prev"', '<https://h/n>; REL="Next"'], "https://h/n"),
        (['<https://h/x>; rel="nextish"'], None),
        (['<https://h/p>; rel="prev"'], None),
        ([], None),
    ],
)
def test_next_from_link_header(values: list[str], expected: str | None) -> None:
    assert next_from_link_header(values) == expected


# -- next links in the body ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wrap",
    [
        lambda items, nxt: {"results": items, "next": nxt},
        lambda items, nxt: {"items": items, "nextPage": nxt},
        lambda items, nxt: {"value": items, "@odata.nextLink": nxt},
        lambda items, nxt: {"data": items, "links": {"next": nxt}},
        lambda items, nxt: {
            "data": items,
            "links": [{"rel": "self", "href": "x"}, {"rel": "next", "href": nxt}],
        },
        lambda items, nxt: {"profiles": items, "_links": {"next": {"href": nxt}}},
        lambda items, nxt: {"entries": items, "paging": {"next": nxt}},
    ],
)
def test_body_next_links_in_common_styles(
    wrap: Callable[[list[Any], str | None], dict[str, Any]],
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        offset = int(request.url.params.get("offset", 0))
        nxt = f"/api/preview/profiles?offset={offset + 4}" if offset + 4 < len(ALL) else None
        return httpx.Response(200, json=wrap(ALL[offset : offset + 4], nxt))

    items, requests = run(handler)
    assert items == ALL
    assert urls(requests) == ["", "?offset=4"]


def test_next_from_body_ignores_non_links() -> None:
    assert next_from_body({"next": None}) is None
    assert next_from_body({"next": ""}) is None
    assert next_from_body({"next": 3}) is None
    assert next_from_body({"links": {"self": "x"}}) is None
    assert next_from_body({"next": {"href": "/p?2"}}) == "/p?2"


# -- no paging -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body", [ALL, {"items": ALL}, {"data": {"profiles": ALL}}, {"profiles": ALL, "count": 7}]
)
def test_no_paging_shown_means_one_request(body: Any) -> None:
    items, requests = run(lambda r: httpx.Response(200, json=body))
    assert items == ALL
    assert len(requests) == 1


def test_iter_profiles_yields_one_list_per_page() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        return httpx.Response(200, json=spring(page, 3))

    with Client(BASE, auth=BearerToken(TOKEN), transport=httpx.MockTransport(handler)) as client:
        pages = list(client.iter_profiles())
    assert [[p.id for p in page] for page in pages] == [
        ["P0", "P1", "P2"],
        ["P3", "P4", "P5"],
        ["P6"],
    ]


def test_stopping_iteration_early_sends_no_more_requests() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        page = int(request.url.params.get("page", 0))
        return httpx.Response(200, json=spring(page, 3))

    with Client(BASE, auth=BearerToken(TOKEN), transport=httpx.MockTransport(handler)) as client:
        first = next(iter(client.iter_profiles()))
    assert len(first) == 3
    assert len(seen) == 1


# -- loop guards ---------------------------------------------------------------------------------


def test_a_server_that_pages_forever_is_stopped_by_the_page_limit() -> None:
    def forever(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        body = {"content": profiles(page * 2, 2), "number": page, "size": 2, "last": False}
        return httpx.Response(200, json=body)

    with pytest.raises(
        PagingError, match=r"more than 25 pages .*pass a larger max_pages"
    ) as caught:
        with Client(
            BASE, auth=BearerToken(TOKEN), transport=httpx.MockTransport(forever)
        ) as client:
            client.fetch_raw(max_pages=25)
    assert TOKEN not in str(caught.value)


def test_the_default_page_limit_stops_an_endless_link_chain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(paging, "MAX_PAGES", 300)  # the real default (10 000) takes seconds
    calls = 0

    def forever(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        n = int(request.url.params.get("n", 0))
        return httpx.Response(200, json={"items": [{"id": n}], "next": f"?n={n + 1}"})

    with pytest.raises(PagingError, match="more than 300 pages"):
        run(forever)
    assert calls == 300


def test_a_server_that_ignores_the_page_parameter_is_caught() -> None:
    """Spring metadata advances, but the content is always the first page."""

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        return httpx.Response(200, json={**spring(0, 3), "number": page, "last": False})

    with pytest.raises(PagingError, match=r"page 2 \(.*\) repeats page 1"):
        run(handler)


def test_a_page_number_that_never_advances_is_caught() -> None:
    """The server always answers page 0: the next URL is one already read."""

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        body = {"content": profiles(page * 10 + 100, 2), "number": 0, "size": 2, "last": False}
        return httpx.Response(200, json=body)

    with pytest.raises(PagingError, match="points back to a page already read"):
        run(handler)


def test_a_link_back_to_an_earlier_page_is_caught() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        n = int(request.url.params.get("n", 0))
        return httpx.Response(200, json={"items": [{"id": n}], "next": f"?n={n % 2 + 1}"})

    with pytest.raises(PagingError, match=r"page 3 .*points back .*\?n=1"):
        run(handler)


def test_an_empty_page_ends_the_listing_even_if_the_server_says_more() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        content = ALL if page == 0 else []
        return httpx.Response(
            200, json={"content": content, "number": page, "size": 7, "last": False}
        )

    items, requests = run(handler)
    assert items == ALL
    assert len(requests) == 2


def test_a_next_link_to_another_host_is_not_followed_with_our_token() -> None:
    contacted: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        contacted.append(request.url.host)
        return httpx.Response(200, json={"items": ALL, "next": "https://evil.test/steal?page=2"})

    with pytest.raises(PagingError, match=r"another host \(https://evil\.test/steal\?page=2\)"):
        run(handler)
    assert contacted == ["platform.test"]


def test_profiles_without_ids_are_compared_by_content() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        n = int(request.url.params.get("n", 0))
        return httpx.Response(200, json={"items": [{"name": "same"}], "next": f"?n={n + 1}"})

    with pytest.raises(PagingError, match="repeats page 1"):
        run(handler)


# -- bodies that are not JSON -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b"<html>Sign in</html>",
            r"page 2 \(https://platform\.test/api/preview/profiles\?page=1&size=3\): not JSON",
        ),
        (b'{"content": [', "not JSON"),
        (b"", "not JSON"),
        (b'"just a string"', "no list of profiles found: the JSON is a string"),
    ],
)
def test_a_page_that_is_not_a_listing_raises_parse_error_naming_the_page(
    body: bytes, message: str
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if "page" in request.url.params:
            return httpx.Response(200, content=body)
        return httpx.Response(200, json=spring(0, 3))

    with pytest.raises(ParseError, match=message):
        run(handler)


# -- the pager alone (sans-IO) ---------------------------------------------------------------------


def test_pager_without_io() -> None:
    pager = Pager(LISTING, max_pages=3)
    first = pager.read(
        httpx.Response(200, json=spring(0, 3), request=httpx.Request("GET", LISTING))
    )
    assert (first.index, first.style, first.total, first.total_pages) == (0, "spring", 7, 3)
    assert str(first.next_url) == LISTING + "?page=1&size=3"
    assert first.next_url is not None
    second = pager.read(
        httpx.Response(200, json=spring(1, 3), request=httpx.Request("GET", first.next_url))
    )
    assert second.index == 1
    assert str(second.next_url) == LISTING + "?page=2&size=3"


def test_pager_refuses_a_zero_limit() -> None:
    with pytest.raises(ValueError):
        Pager(LISTING, max_pages=0)
