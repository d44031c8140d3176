"""What every route depends on: the caller (set by the gate from the key) and the replica's services."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from reverie.api import ErrorEnvelope
from reverie.errors import AuthError
from reverie.records import ID_PATTERN, NAME_PATTERN, SCOPE_PATTERN
from serve.auth.access import Principal
from serve.services import Services

_bearer = HTTPBearer(auto_error=False, description="an API key from `reverie keys add`")

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorEnvelope, "description": text}
    for status, text in {
        401: "no key, or an unknown key", 403: "the key's role or principal may not do this",
        404: "unknown id, or one the caller may not see", 409: "the state does not allow this now",
        413: "body over the limit", 422: "invalid request", 429: "over the key's quota (see Retry-After)",
        503: "a part of the service is restarting (see Retry-After)",
    }.items()
}


def caller(request: Request, _: HTTPAuthorizationCredentials | None = Security(_bearer)) -> Principal:
    principal = request.scope.get("state", {}).get("principal")
    if not isinstance(principal, Principal):  # the gate sets it on every route but /healthz
        raise AuthError("no API key; send 'Authorization: Bearer <key>'")
    return principal


def services(request: Request) -> Services:
    return request.app.state.services


Caller = Annotated[Principal, Depends(caller)]
Deps = Annotated[Services, Depends(services)]

ID = ID_PATTERN.pattern
NAME = NAME_PATTERN.pattern
SCOPE = SCOPE_PATTERN.pattern
IdPath = Annotated[str, Path(pattern=ID, description="an id: letters, digits and . _ : @ -")]
NameQuery = Annotated[str | None, Query(pattern=NAME, description="a project name")]
IdQuery = Annotated[str | None, Query(pattern=ID)]
