"""The ASGI gate in front of every route: key, quota and body size, before anything is parsed.

Order: ``/healthz`` and the explorer's static page (``/ui/``, no data) pass; every other path needs
``Authorization: Bearer <key>`` (401), then a token of the key's quota (429 with ``Retry-After``),
then a body no larger than the limit — checked on ``Content-Length`` first and on the bytes actually
received (413), so a body over the limit is never read whole. The principal is left in the request
state for the routes. The gate also times every request for the metrics (by route template, never
by raw path) and the background pool's load signal, and turns an unexpected exception into a 500 of
our error shape.
"""

from __future__ import annotations

import time
from collections.abc import Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reverie.errors import PayloadTooLargeError, ValidationError
from serve.auth.access import Principal
from serve.routes.ui import is_page_path
from serve.services import Services
from serve.statuses import error_response, internal_error, translate

OPEN_PATHS = frozenset({"/healthz"})
IMPORT_PATH = "/v1/import"


class Gate:
    def __init__(self, app: ASGIApp, services: Callable[[], Services]) -> None:
        self.app = app
        self._services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        services = self._services()
        started = time.perf_counter()
        sent = _Sent(send)
        services.load.started()
        try:
            await self._admit(scope, receive, sent, services)
        except Exception as exc:  # noqa: BLE001 - every failure gets our error shape, once
            if sent.status is not None:
                raise
            known = translate(exc)
            response = error_response(known) if known is not None else internal_error(exc)
            await response(scope, receive, sent)
        finally:
            seconds = time.perf_counter() - started
            services.load.finished(seconds)
            route = getattr(scope.get("route"), "path", "unmatched")
            services.telemetry.request(route, scope["method"], sent.status or 500, seconds)

    async def _admit(self, scope: Scope, receive: Receive, send: Send, services: Services) -> None:
        if scope["path"] not in OPEN_PATHS and not is_page_path(scope["path"]):
            identity = services.keys.identify(_bearer(scope))
            services.quotas.take(identity.key_id)
            scope.setdefault("state", {})["principal"] = Principal.of(identity)
        limit = self._limit(scope, services)
        _check_length(scope, limit)
        await self.app(scope, _limited(receive, limit), send)

    @staticmethod
    def _limit(scope: Scope, services: Services) -> int:
        serve = services.settings.serve
        return serve.max_import_bytes if scope["path"] == IMPORT_PATH else services.settings.capture.max_body_bytes


class _Sent:
    """``send`` that remembers the status it sent."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status: int | None = None

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
        await self._send(message)


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if scheme.lower() == "bearer" else None
    return None


def _too_large(limit: int) -> PayloadTooLargeError:
    return PayloadTooLargeError(
        f"the body is over the limit of {limit} bytes; split it into several requests "
        "(events: REVERIE_CAPTURE__MAX_BODY_BYTES, imports: REVERIE_SERVE__MAX_IMPORT_BYTES)"
    )


def _check_length(scope: Scope, limit: int) -> None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            if not value.isdigit():
                raise ValidationError("the Content-Length header is not a number of bytes; fix the client")
            if int(value) > limit:
                raise _too_large(limit)


def _limited(receive: Receive, limit: int) -> Receive:
    """``receive`` that stops a body growing over the limit (a chunked body has no Content-Length)."""
    seen = 0

    async def limited() -> MutableMapping[str, Any]:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                # FastAPI turns errors while reading a body into 400 but passes HTTPException through.
                raise HTTPException(413, detail=_too_large(limit).message)
        return message

    return limited

