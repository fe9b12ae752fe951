"""The reference server's FastAPI application: the spec's endpoints over an estate.

`create_app(estate, principals)` builds an app that serves the estate's profiles exactly as
stored to callers holding a bearer token, obtained through any of the spec's three flows.
Every error answers with the spec's envelope (see `error_responses`); `/openapi.json`
documents it all. The endpoints live on a module-level router and find their state on
`request.app.state`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from .._version import __version__
from .bodies import LoginForm, TokenForm, TokenResponse
from .catalogue import Catalogue, raw_profiles_of
from .connections import BodyDeadline
from .error_responses import ApiProblem, error_response, install_error_handlers
from .openapi import (
    NO_TOKEN,
    error_responses,
    install_openapi,
    listing_response,
    session_redirect,
)
from .pages import PAGE_HEADERS, login_page
from .principals import PROFILES_VIEW, Identity, Principals
from .settings import ServerLimits
from .streaming import ChunkedBody
from .throttle import Attempt, LoginThrottle
from .tokens import DEFAULT_SESSION_TTL, DEFAULT_TOKEN_TTL, IssuedToken, SessionStore, TokenStore

__all__ = [
    "create_app",
    "ServerState",
    "TOKEN_PATH",
    "SESSION_TOKEN_PATH",
    "PROFILES_PATH",
    "SESSION_COOKIE",
    "DEFAULT_PAGE_SIZE",
    "MAX_PAGE_SIZE",
]

TOKEN_PATH = "/dw/register/oauth/token"
SESSION_TOKEN_PATH = "/auth/sessionBearerToken"
PROFILES_PATH = "/api/preview/profiles"
SESSION_COOKIE = "JSESSIONID"
DEFAULT_PAGE_SIZE = 20
"""Spring's default, used when only `page` is given."""
MAX_PAGE_SIZE = 1000
MAX_PAGE_NUMBER = 2**31 - 1
"""Page numbers are 32-bit, as in Spring; larger ones are a validation error, not a crash."""

VERIFY_THREADS = 2
"""Threads that check secrets (slow hashes); the listing never waits for them."""

_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
_BEARER_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="integration-platform"'}
_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearerToken",
    description="A token from the token endpoint or from `/auth/sessionBearerToken`.",
)
_session = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    scheme_name="sessionCookie",
    description="The session cookie set by logging in at `/` (user or guest).",
)


@dataclass
class ServerState:
    """What the endpoints share: profiles, principals, tokens, sessions, guards, cookies."""

    catalogue: Catalogue
    principals: Principals
    tokens: TokenStore
    sessions: SessionStore
    throttle: LoginThrottle
    verifier: ThreadPoolExecutor
    """Where secrets are checked: a few threads of their own, so that a storm of guesses
    queues there and not on the threads and the loop that answer everyone else."""
    secure_cookies: bool | None = None
    """True or False: always or never `Secure`; None: `Secure` on requests that came over
    HTTPS (directly, or through a proxy uvicorn trusts)."""


def create_app(
    estate: Any,
    principals: Principals,
    *,
    token_ttl: float = DEFAULT_TOKEN_TTL,
    session_ttl: float = DEFAULT_SESSION_TTL,
    secure_cookies: bool | None = None,
    limits: ServerLimits | None = None,
) -> FastAPI:
    """A FastAPI app serving `estate` (an `Estate`, or a list of raw profiles) to `principals`.

    `token_ttl` is the bearer tokens' lifetime in seconds. `secure_cookies` marks the session
    cookie `Secure` (None: only on requests that came over HTTPS). `limits` bound failed
    logins, tokens per principal and the time a body may take (the connection limits apply
    where uvicorn runs the app: `running`, `serve`).
    """
    limits = limits if limits is not None else ServerLimits()
    state = ServerState(
        Catalogue(raw_profiles_of(estate)),
        principals,
        TokenStore(token_ttl, max_per_principal=limits.max_tokens_per_principal),
        SessionStore(session_ttl, max_per_principal=limits.max_tokens_per_principal),
        LoginThrottle(limits.login_limit_principal, limits.login_limit_address),
        ThreadPoolExecutor(VERIFY_THREADS, thread_name_prefix="iptoolkit-verify"),
        secure_cookies,
    )
    for identity in principals.identities():  # prepare every view before the first request
        state.catalogue.view(identity.patterns)
    app = FastAPI(
        title="Integration Platform REST API (preview): iptoolkit reference server",
        version=__version__,
        description=(
            "The reference implementation of the integration platform's preview API, serving "
            f"{len(state.catalogue)} profiles. Every error answers with the `errorInfo` envelope."
        ),
        redoc_url=None,
        redirect_slashes=False,  # `/path/` is another path: a 404 envelope, not a bare 307
    )
    app.state.server = state
    app.include_router(router)
    app.add_middleware(BodyDeadline, timeout=limits.body_timeout)
    install_error_handlers(app)
    install_openapi(app)
    return app


router = APIRouter()
F = TypeVar("F", bound=Callable[..., Any])


def _state(request: Request) -> ServerState:
    state: ServerState = request.app.state.server  # Starlette's State holds any attribute
    return state


State = Annotated[ServerState, Depends(_state)]


def _token_body(state: ServerState, token: IssuedToken, response: Response) -> TokenResponse:
    response.headers.update(_NO_STORE)
    return TokenResponse(access_token=token.value, expires_in=token.expires_in(state.tokens.now()))


def _start_session(request: Request, state: ServerState, identity: Identity) -> Response:
    session = state.sessions.open(identity)
    secure = state.secure_cookies
    if secure is None:
        secure = request.url.scheme == "https"
    response = RedirectResponse("/", status_code=303, headers=PAGE_HEADERS)
    response.set_cookie(
        SESSION_COOKIE,
        session.id,
        max_age=int(state.sessions.ttl),
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    return response


def _refused(request: Request, text: str) -> Response:
    """A failed UI login: the login page for a browser, the envelope for anyone else."""
    if "text/html" in request.headers.get("accept", ""):
        return HTMLResponse(login_page(error=text), status_code=401, headers=PAGE_HEADERS)
    return error_response(401, text)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _authenticate(
    state: ServerState, attempt: Attempt, check: Callable[[], Identity | None]
) -> Identity | None:
    """Run `check` on the verifier threads unless the attempt is over a limit (then 429)."""
    wait = state.throttle.retry_after(attempt)  # the cheap refusal, before any queueing
    if wait is None:
        outcome = await asyncio.get_running_loop().run_in_executor(
            state.verifier, _check_and_count, state.throttle, attempt, check
        )
        if not isinstance(outcome, int):
            return outcome
        wait = outcome
    raise ApiProblem(
        429,
        f"Too many failed attempts from this address or for this name: try again in {wait} s.",
        headers={"Retry-After": str(wait)},
    )


def _check_and_count(
    throttle: LoginThrottle, attempt: Attempt, check: Callable[[], Identity | None]
) -> Identity | int | None:
    """On a verifier thread: the limit again (concurrent guesses queued meanwhile may have
    reached it), then the check, then the count, so that at most one guess per verifier
    thread slips past a limit, and concurrent successes never count."""
    wait = throttle.retry_after(attempt)
    if wait is not None:
        return wait
    identity = check()
    if identity is None:
        throttle.failed(attempt)
    else:
        throttle.succeeded(attempt)
    return identity


def _same_origin(request: Request) -> bool:
    """Whether a form post comes from this server's own page (login CSRF).

    The browser's `Origin` (or else `Referer`) must name the host the request went to.
    Without either header the caller is not a browser submitting a form elsewhere.
    """
    source = request.headers.get("origin") or request.headers.get("referer")
    if source is None:
        return True
    sent_from = urlsplit(source)
    host = request.headers.get("host", "")
    return sent_from.scheme in ("http", "https") and _netloc(
        sent_from.netloc, sent_from.scheme
    ) == _netloc(host, sent_from.scheme)


def _netloc(netloc: str, scheme: str) -> str:
    default = {"http": ":80", "https": ":443"}[scheme]
    netloc = netloc.lower()
    return netloc[: -len(default)] if netloc.endswith(default) else netloc


def _viewer(
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Identity:
    """The caller behind the bearer token; 401 without a live one, 403 without the right.

    A dependency, so that it runs (and refuses) before query parameters are validated.
    """
    identity = state.tokens.lookup(credentials.credentials) if credentials is not None else None
    if identity is None:
        text = (
            "A bearer token is required: send Authorization: Bearer <token>."
            if credentials is None
            else "The bearer token is not valid or has expired."
        )
        raise ApiProblem(401, text, headers=_BEARER_CHALLENGE)
    if not identity.can(PROFILES_VIEW):
        raise ApiProblem(403, f"Your roles do not grant the permission {PROFILES_VIEW}.")
    return identity


def _token_route(
    method: str,
    path: str,
    operation_id: str,
    summary: str,
    *errors: int,
    openapi_extra: dict[str, Any] | None = None,
) -> Callable[[F], F]:
    """The route of an endpoint that answers a bearer token (`TokenResponse`)."""
    return router.api_route(
        path,
        methods=[method],
        tags=["authentication"],
        operation_id=operation_id,
        summary=summary,
        response_model=TokenResponse,
        responses=error_responses(*errors),
        openapi_extra=openapi_extra,
    )


@_token_route(
    "POST",
    TOKEN_PATH,
    "issueToken",
    "Client credentials: a bearer token for an API client",
    400, 401, 429, 500,
    openapi_extra=NO_TOKEN,  # the client id and secret are the form
)  # fmt: skip
async def issue_token(
    request: Request, state: State, form: Annotated[TokenForm, Form()], response: Response
) -> TokenResponse:
    identity = await _authenticate(
        state,
        Attempt("client", form.client_id, _address(request)),
        lambda: state.principals.authenticate_client(form.client_id, form.client_secret),
    )
    if identity is None:
        raise ApiProblem(401, "Unknown client, or wrong client secret.")
    return _token_body(state, state.tokens.issue(identity), response)


@router.get(
    "/",
    tags=["web UI"],
    operation_id="loginPage",
    summary="The login page; with `loginToken`, a guest session",
    response_class=HTMLResponse,
    openapi_extra={"security": [{}, {_session.scheme_name: []}]},  # the cookie is optional
    responses={
        303: session_redirect("Guest session opened; go to `/`."),
        **error_responses(401, 429, 500, html=True),
    },
)
async def home(
    request: Request,
    state: State,
    login_token: Annotated[
        str | None, Query(alias="loginToken", description="A guest user's login token.")
    ] = None,
) -> Response:
    if login_token is not None:
        identity = await _authenticate(
            state,
            Attempt("guest", None, _address(request)),
            lambda: state.principals.authenticate_guest(login_token),
        )
        if identity is None:
            return _refused(request, "This guest login token is not valid.")
        return _start_session(request, state, identity)
    session_id = request.cookies.get(SESSION_COOKIE)
    session = state.sessions.get(session_id) if session_id else None
    identity = session.identity if session is not None else None
    return HTMLResponse(login_page(identity), headers=PAGE_HEADERS)


@router.post(
    "/",
    tags=["web UI"],
    operation_id="login",
    summary="Log in as a UI user: sets the session cookie and redirects to `/`",
    response_class=Response,
    status_code=303,
    openapi_extra=NO_TOKEN,  # the user name and password are the form
    responses={
        303: session_redirect("Session opened; go to `/`."),
        **error_responses(400, 401, 403, 429, 500, html=True),
    },
)
async def login(request: Request, state: State, form: Annotated[LoginForm, Form()]) -> Response:
    if not _same_origin(request):
        raise ApiProblem(403, "A login form posted from another site is refused.")
    identity = await _authenticate(
        state,
        Attempt("user", form.username, _address(request)),
        lambda: state.principals.authenticate_user(form.username, form.password),
    )
    if identity is None:
        return _refused(request, "Wrong user name or password.")
    return _start_session(request, state, identity)


@_token_route(
    "GET",
    SESSION_TOKEN_PATH,
    "sessionBearerToken",
    "The bearer token of the current UI or guest session",
    401, 500,
)  # fmt: skip
def session_bearer_token(
    state: State, session_id: Annotated[str | None, Depends(_session)], response: Response
) -> TokenResponse:
    session = state.sessions.get(session_id) if session_id else None
    if session is None:
        raise ApiProblem(401, "No valid session: log in at / first.")
    return _token_body(state, state.sessions.bearer(session, state.tokens), response)


@router.get(
    PROFILES_PATH,
    tags=["profiles"],
    operation_id="listProfiles",
    summary="Every integration profile the caller may view",
    description=(
        "A bare JSON array of profiles, each exactly as stored. With `page` or `size`, a "
        "Spring-style page object instead. Needs the `profiles:view` permission; a caller "
        "sees the profiles whose `group` matches its roles' group patterns."
    ),
    response_class=Response,
    responses={200: listing_response(), **error_responses(400, 401, 403, 404, 500)},
)
async def list_profiles(
    state: State,
    identity: Annotated[Identity, Depends(_viewer)],
    page: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_PAGE_NUMBER,
            description="Page number, from 0: returns a page object.",
        ),
    ] = None,
    size: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_PAGE_SIZE,
            description=f"Page size (default {DEFAULT_PAGE_SIZE}): returns a page object.",
        ),
    ] = None,
) -> Response:
    view = state.catalogue.view(identity.patterns)
    if page is None and size is None:  # the whole listing, shared by every caller of the view
        return ChunkedBody(view.body, media_type="application/json")
    body = view.page(page or 0, size or DEFAULT_PAGE_SIZE)
    return Response(body, media_type="application/json")


# HEAD answers like GET without a body (uvicorn leaves the body out); not in the document.
router.add_api_route("/", home, methods=["HEAD"], include_in_schema=False)
router.add_api_route(PROFILES_PATH, list_profiles, methods=["HEAD"], include_in_schema=False)
