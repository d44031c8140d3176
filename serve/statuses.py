"""Errors to HTTP, in one place: statuses, the ``{"error": {code, message, field}}`` shape, headers.

Everything a route can raise ends here: our :class:`ReverieError` tree (unwrapped from Ray's task
errors when an actor raised it), request validation errors (their messages are rebuilt from field
names and pydantic's error kinds, never from the submitted values), Starlette's own 404/405, Ray's
"actor unavailable" family (503 with ``Retry-After``) and, last, anything unexpected (500, logged by
type only: a message may hold submitted text).
"""

from __future__ import annotations

import logging
import math
import re
import traceback
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from ray import exceptions as ray_errors
from starlette.exceptions import HTTPException as StarletteHTTPException

from reverie.errors import (
    AuthError,
    CommitError,
    ConfigError,
    ConflictError,
    EmbedderMismatchError,
    ExtractionError,
    ForbiddenError,
    NotFoundError,
    PayloadTooLargeError,
    QuotaError,
    ReverieError,
    StoreError,
    UnavailableError,
    ValidationError,
)
from reverie.records import ID_PATTERN, NAME_PATTERN, SCOPE_PATTERN
from reverie.remote import unwrap

log = logging.getLogger(__name__)

#: Most specific first: the first class an error is an instance of gives its status.
STATUSES: Sequence[tuple[type[ReverieError], int]] = (
    (PayloadTooLargeError, 413),
    (ValidationError, 422),
    (NotFoundError, 404),
    (ConflictError, 409),
    (ForbiddenError, 403),
    (AuthError, 401),
    (QuotaError, 429),
    (UnavailableError, 503),
    (CommitError, 503),
    (EmbedderMismatchError, 500),
    (StoreError, 503),
    (ExtractionError, 502),
    (ConfigError, 500),
    (ReverieError, 500),
)

_UNAVAILABLE = (ray_errors.RayActorError, ray_errors.ActorUnavailableError, ray_errors.GetTimeoutError)
_QUOTED = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"")
PATTERN_RULES = {
    ID_PATTERN.pattern: "ids are 1-128 letters, digits and . _ : @ -, starting with a letter or digit",
    NAME_PATTERN.pattern: "names are 1-64 lowercase letters, digits, _ or -",
    SCOPE_PATTERN.pattern: "a scope is 'team', 'project:<p>', 'module:<p>/<m>' or 'personal:<agent_id>'",
}
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large", 401: "unauthorized"}


def status_of(error: ReverieError) -> int:
    return next(status for cls, status in STATUSES if isinstance(error, cls))


def body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


def error_response(error: ReverieError) -> JSONResponse:
    """The response of one of our errors (also used by the ASGI gate, before any route runs)."""
    status = status_of(error)
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None or status == 503:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after or 1)))
    return JSONResponse(body(error.code, error.message, error.field), status_code=status, headers=headers)


def translate(error: BaseException) -> ReverieError | None:
    """Our error for anything we know how to answer; ``None`` for a real bug."""
    error = unwrap(error)
    if isinstance(error, ReverieError):
        return error
    if isinstance(error, _UNAVAILABLE):
        return UnavailableError(
            "a memory actor is restarting or unreachable; nothing of this request was acknowledged; "
            "retry in a moment", retry_after=1,
        )
    return None


# --- request validation -------------------------------------------------------------------------
def validation_error(exc: RequestValidationError) -> ValidationError:
    """One 422 naming the first bad field, with pydantic's kind of error but none of the input."""
    problems = exc.errors()
    if not problems:
        return ValidationError("the request is invalid; see /openapi.json for its shape")
    first = problems[0]
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        loc = ()
    elif first.get("type") == "extra_forbidden":
        loc = loc[:-1]  # the unknown name itself is submitted text: name its parent instead
    field = _field(loc)
    message = _message(first, field)
    more = f" ({len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})" if len(problems) > 1 else ""
    return ValidationError(f"{message}{more}", field=field)


def _field(loc: Sequence[Any]) -> str | None:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or None


def _message(problem: dict[str, Any], field: str | None) -> str:
    kind = problem.get("type", "")
    if kind == "json_invalid":
        return "the body is not valid JSON; send a JSON object with Content-Type: application/json"
    if kind == "missing":
        return f"{field or 'a field'} is required; add it"
    if kind == "extra_forbidden":
        return f"{field or 'the body'} holds a field that is not known; remove it (see /openapi.json)"
    if kind == "string_pattern_mismatch":
        return f"{field or 'a value'}: {PATTERN_RULES.get(problem.get('ctx', {}).get('pattern', ''), 'has the wrong form')}"
    raw = str(problem.get("msg", "invalid value"))
    raw = raw.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if kind not in ("value_error", "assertion_error", "literal_error"):
        raw = _QUOTED.sub("…", raw)
    return f"{field or 'the body'}: {raw[:300]}"


# --- installation -----------------------------------------------------------------------------------
def install(app: FastAPI) -> None:
    """Register the handlers on the FastAPI application."""

    async def reverie_error(_: Request, exc: Exception) -> JSONResponse:
        return error_response(translate(exc) or _internal(exc))

    async def invalid_request(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(validation_error(exc))

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = "no such route; see /openapi.json for the routes" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse(body(code, message), status_code=exc.status_code, headers=getattr(exc, "headers", None))

    app.add_exception_handler(ReverieError, reverie_error)
    app.add_exception_handler(ray_errors.RayError, reverie_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)


def internal_error(exc: BaseException) -> JSONResponse:
    """The 500 of a real bug: logged with its type and frames, never its message (it may hold input)."""
    return error_response(_internal(exc))


def _internal(exc: BaseException) -> ReverieError:
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("unexpected %s while serving a request\n%s", type(exc).__name__, frames)
    return ReverieError("an unexpected error occurred; it was logged; retry, and report it if it persists")
