"""Following a listing's pages, decided without doing any I/O (sans-IO).

The spec does not say how the listing pages, so the client follows what a response shows,
in this order:

1. a Spring page object: `{"content": [...], "number", "size", "totalPages", "last", ...}`,
   or Spring Data's `PagedModel` with those numbers under `page`; the next page is the same
   URL with `page=number+1` and the server's `size`;
2. an RFC 8288 `Link: <...>; rel="next"` header;
3. a next link in the body: `next`, `nextPage`, `@odata.nextLink`, HAL `_links.next.href`,
   JSON:API `links.next`, or a `links` list with `rel: next`.

Nothing of that: the response is the whole listing, unless it announces a total beyond
what it holds (`PagingError`: paging we cannot follow). Paging never loops forever:

- it ends when the listing's own numbers say it is done: an empty page, Spring's `last`
  or `totalPages`, or as many profiles received as the total the server announced
  (`totalElements`, `total`, `totalCount`; a `count` may mean one page's count, so not it);
- a page URL seen before, a page whose profiles all came on earlier pages, a next link
  to another host (it would receive our bearer token), or more pages than the limit raise
  `PagingError` rather than returning a listing that may be partial;
- the limit is `max_pages` when given; otherwise it is derived from what the first page
  announced (its page count, or its total over its size, plus `PAGE_MARGIN`), and
  `MAX_PAGES` when it announced nothing (or more than that).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import httpx

from ..models import Issue, ParseError, listing_issues, locate_profiles, read_json
from ._retry import logger
from ._urls import RequestInfo, origin, redact_url
from .errors import PagingError, ResponseParseError

__all__ = ["MAX_PAGES", "PAGE_MARGIN", "Page", "Pager", "next_from_link_header", "next_from_body"]

MAX_PAGES = 10_000
"""Default limit on the number of pages of a listing that announces neither a total nor a
page count."""
PAGE_MARGIN = 0.1
"""How many pages beyond the announced count the derived limit allows (a listing may grow
while it is read): this fraction of them, and at least 10."""

_BODY_NEXT_KEYS = ("next", "nextPage", "next_page", "nextPageUrl", "nextLink", "@odata.nextLink")
_LINK = re.compile(r"<([^>]*)>((?:\s*;\s*[^;,]+(?:=(?:\"[^\"]*\"|[^;,]*))?)*)")
_REL = re.compile(r";\s*rel\s*=\s*(?:\"([^\"]*)\"|([^;,\s]*))", re.IGNORECASE)


@dataclass
class Page:
    """One page of the listing: its raw profiles and where the next one is, if anywhere."""

    items: list[Any]
    index: int
    """0 for the first page fetched, then 1, 2, ..."""
    url: str
    """This page's URL, credentials masked."""
    next_url: httpx.URL | None
    total: int | None = None
    """How many profiles the whole listing holds, when the server says so."""
    total_pages: int | None = None
    style: str = "single"
    """How paging was recognised: single, spring, link-header or body-link."""
    issues: Mapping[int, list[Issue]] = field(default_factory=dict)
    """What the text gave some profiles of this page, by index on the page: a key given
    twice (`$[3].id: ...`). Such a profile is a problem of the estate fetched, as it is
    of one loaded from a file; the other profiles are kept."""

    refused: ResponseParseError | None = None
    """What a reader taking the profiles unchecked raises (`fetch_raw`, `list_profiles`):
    the first issue, naming the page; None when there is none."""


class Pager:
    """Reads each response of a listing and says what the next request is, if any."""

    def __init__(self, start_url: httpx.URL | str, *, max_pages: int | None = None) -> None:
        if max_pages is not None and max_pages < 1:
            raise ValueError("max_pages must be at least 1")
        self.start_url = httpx.URL(start_url)
        self.max_pages = MAX_PAGES if max_pages is None else max_pages
        self._derive_limit = max_pages is None
        self.pages_read = 0
        self.items_read = 0
        self._seen_urls: set[str] = {str(self.start_url)}
        self._seen_content: dict[str, int] = {}
        self._seen_items: set[Hashable] = set()
        self._first_page_size: int | None = None

    def read(self, response: httpx.Response) -> Page:
        """Turn a successful response into a `Page`; raise ResponseParseError (also a
        ParseError) for a body that is not a listing, or PagingError."""
        url = response.request.url
        shown = redact_url(url)
        try:
            data, duplicates = read_json(response.content)
            data = _lift_page_metadata(data)
            items, at, next_url, style, total, total_pages = self._interpret(data, response)
            issues = listing_issues(at, duplicates)  # a key repeated outside a profile raises
        except ParseError as exc:
            raise ResponseParseError(
                f"page {self.pages_read + 1} ({shown}): {exc}",
                request=RequestInfo.of(response.request),
                status_code=response.status_code,
            ) from None
        page = Page(items, self.pages_read, shown, next_url, total, total_pages, style, issues)
        if issues:
            found = issues[min(issues)]
            page.refused = ResponseParseError(
                f"page {self.pages_read + 1} ({shown}): {found[0]}",
                request=RequestInfo.of(response.request),
                status_code=response.status_code,
            )
        self._check_whole(page, _announced_total(data))
        self.pages_read += 1
        self.items_read += len(items)
        self._check_repeat(page)
        if page.index == 0 and self._derive_limit:
            self._limit_from(page)
        if page.next_url is not None and not items:
            logger.debug("page %d (%s) is empty; stopping", page.index + 1, shown)
            page.next_url = None
        announced = _announced_total(data)
        if page.next_url is not None and announced is not None and self.items_read >= announced:
            logger.debug(
                "page %d (%s): %d profiles received, as many as the %d announced; stopping",
                page.index + 1,
                shown,
                self.items_read,
                announced,
            )
            page.next_url = None
        if page.next_url is not None:
            self._check_next(page)
        logger.debug(
            "page %d (%s, %s): %d profiles; %s",
            page.index + 1,
            shown,
            style,
            len(items),
            f"next {redact_url(page.next_url)}" if page.next_url else "last page",
        )
        return page

    def _interpret(
        self, data: Any, response: httpx.Response
    ) -> tuple[list[Any], tuple[Any, ...] | None, httpx.URL | None, str, int | None, int | None]:
        here = response.request.url
        if _is_spring_page(data):
            number, total_pages = data["number"], data.get("totalPages")
            if not isinstance(total_pages, int) and "last" not in data:
                if self._first_page_size is None:
                    self._first_page_size = len(data["content"])
                total_pages = _pages_from_total(data, self._first_page_size)
            last = data.get("last") is True or (
                isinstance(total_pages, int) and number + 1 >= total_pages
            )
            next_url = None
            if not last:
                next_url = here.copy_set_param("page", str(number + 1))
                if isinstance(data.get("size"), int):
                    next_url = next_url.copy_set_param("size", str(data["size"]))
            total = data.get("totalElements")
            return (
                data["content"],
                ("content",),
                next_url,
                "spring",
                total if isinstance(total, int) else None,
                total_pages if isinstance(total_pages, int) else None,
            )
        items, at = locate_profiles(data)
        link = next_from_link_header(response.headers.get_list("link"))
        if link is not None:
            return items, at, _join(here, link), "link-header", _total(data), None
        if isinstance(data, dict) and (link := next_from_body(data)) is not None:
            return items, at, _join(here, link), "body-link", _total(data), None
        return items, at, None, "single", len(items), 1

    def _limit_from(self, first: Page) -> None:
        """The default page limit: what the first page announced, with a margin."""
        pages = first.total_pages
        if pages is None and first.total is not None and first.items:
            pages = -(-first.total // len(first.items))
        if pages is not None and first.style != "single":
            self.max_pages = min(pages + max(10, int(pages * PAGE_MARGIN)), MAX_PAGES)
            logger.debug("page limit %d, from the %d pages announced", self.max_pages, pages)

    def _check_whole(self, page: Page, announced: int | None) -> None:
        """A response showing no way to a next page is the whole listing, unless it
        announces more profiles than it holds: then it pages in a way we cannot follow."""
        if page.style == "single" and announced is not None and announced > len(page.items):
            raise PagingError(
                f"page {page.index + 1} ({page.url}) holds {len(page.items)} profiles but "
                f"announces {announced}, with no next page link or page number to follow; "
                "stopped rather than return part of the listing"
            )

    def _check_repeat(self, page: Page) -> None:
        if not page.items:
            return
        fingerprint = _fingerprint(page.items)
        earlier = self._seen_content.setdefault(fingerprint, page.index)
        if earlier != page.index:
            raise PagingError(
                f"page {page.index + 1} ({page.url}) repeats page {earlier + 1}: the server "
                "seems to ignore the paging parameters; stopped so as not to loop forever"
            )
        keys = {_item_key(item) for item in page.items}
        if keys <= self._seen_items:
            raise PagingError(
                f"page {page.index + 1} ({page.url}) holds only profiles of earlier pages: "
                "the server seems to page in circles; stopped so as not to loop forever"
            )
        self._seen_items |= keys

    def _check_next(self, page: Page) -> None:
        assert page.next_url is not None
        shown = redact_url(page.next_url)
        if origin(page.next_url) != origin(self.start_url):
            raise PagingError(
                f"page {page.index + 1} ({page.url}) links its next page to another host "
                f"({shown}); not following it with our credentials"
            )
        if str(page.next_url) in self._seen_urls:
            raise PagingError(
                f"page {page.index + 1} ({page.url}) points back to a page already read "
                f"({shown}); stopped so as not to loop forever"
            )
        if self.pages_read >= self.max_pages:
            derived = " (the pages its first page announced, and a margin)" * self._derive_limit
            raise PagingError(
                f"the listing has more than {self.max_pages} pages{derived} (stopped before "
                f"{shown}); pass a larger max_pages if that many is expected"
            )
        self._seen_urls.add(str(page.next_url))


def next_from_link_header(values: list[str]) -> str | None:
    """The target of the first `rel="next"` link in RFC 8288 `Link` header values."""
    for value in values:
        for match in _LINK.finditer(value):
            for rel in _REL.finditer(match.group(2)):
                if "next" in (rel.group(1) or rel.group(2) or "").lower().split():
                    return match.group(1).strip()
    return None


def next_from_body(data: dict[str, Any]) -> str | None:
    """A next-page link carried in a response body, in the common API styles."""
    for key in _BODY_NEXT_KEYS:
        if (href := _href(data.get(key))) is not None:
            return href
    for key in ("_links", "links", "paging", "pagination"):
        links = data.get(key)
        if isinstance(links, dict) and (href := _href(links.get("next"))) is not None:
            return href
        if isinstance(links, list):
            for link in links:
                if isinstance(link, dict) and str(link.get("rel", "")).lower() == "next":
                    return _href(link)
    return None


def _join(here: httpx.URL, link: str) -> httpx.URL:
    """The next page's URL; a link that is no URL at all is a `PagingError`."""
    try:
        return here.join(link)
    except httpx.InvalidURL as exc:
        raise PagingError(
            f"the page at {redact_url(here)} links its next page to something that is not a "
            f"URL ({exc})"
        ) from None


def _href(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("href", value.get("url"))
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _is_spring_page(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("content"), list)
        and isinstance(data.get("number"), int)
        and not isinstance(data.get("number"), bool)
        and ("totalPages" in data or "last" in data or _is_count(data.get("totalElements")))
    )


def _lift_page_metadata(data: Any) -> Any:
    """Spring Data's `PagedModel` (`{"content": [...], "page": {"number", "size",
    "totalElements", "totalPages"}}`) as the classic page object, its numbers at the top."""
    if (
        isinstance(data, dict)
        and isinstance(data.get("content"), list)
        and isinstance(meta := data.get("page"), dict)
        and _is_count(meta.get("number"))
        and "number" not in data
    ):
        return {**data, **meta, "content": data["content"]}
    return data


def _pages_from_total(data: dict[str, Any], first_page_size: int) -> int | None:
    """A page object that only says how many elements there are: derive the page count."""
    total, size = data.get("totalElements"), data.get("size")
    if not _is_count(size) or size < 1:
        size = first_page_size  # without `size`, the first page is a full one
    if not _is_count(total) or size < 1:
        return None
    return -(-total // size)


def _is_count(value: Any) -> TypeGuard[int]:
    """An int that is not a bool (False is not a count of 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _total(data: Any) -> int | None:
    """The total a page names, `count` included (which may be one page's count)."""
    return _first_count(data, ("totalElements", "total", "count", "totalCount"))


def _announced_total(data: Any) -> int | None:
    """The listing's total, when the page names it unambiguously (not `count`)."""
    return _first_count(data, ("totalElements", "total", "totalCount"))


def _first_count(data: Any, keys: tuple[str, ...]) -> int | None:
    if isinstance(data, dict):
        for key in keys:
            if _is_count(value := data.get(key)):
                return int(value)
    return None


def _item_key(item: Any) -> Hashable:
    """A profile's id when it has one (cheap, and allocating nothing that would wake the
    garbage collector over a freshly parsed page), else a digest of its content."""
    ident = item.get("id") if isinstance(item, dict) else None
    if type(ident) is str or type(ident) is int:
        return ident
    if ident is not None:
        return "id:" + json.dumps(ident, default=str)
    basis = json.dumps(item, sort_keys=True, default=str)
    return hashlib.blake2b(basis.encode(), digest_size=16).hexdigest()


def _fingerprint(items: list[Any]) -> str:
    """Profile ids when every item has one (cheap), else the content itself."""
    ids = [item.get("id") if isinstance(item, dict) else None for item in items]
    if all(value is not None for value in ids):
        basis = json.dumps(ids, default=str)
    else:
        basis = json.dumps(items, sort_keys=True, default=str)
    return hashlib.blake2b(basis.encode(), digest_size=16).hexdigest()
