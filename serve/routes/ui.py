"""The analysts' explorer: one static page and its assets under ``/ui/`` (no data, no key).

The page holds no data: it asks the API for everything with the key its user pastes (sent as a
Bearer header, kept in the tab's sessionStorage, never in a URL). Its files ship with the package
(``serve/ui/``); the one library it uses, cytoscape.js, is bundled in ``assets/vendor/`` with its
licence, so the page needs nothing from the internet. Every response carries a Content-Security-
Policy that allows scripts, styles and requests from this origin only: no inline script, no eval,
no other host.
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse, RedirectResponse

from reverie.errors import NotFoundError

router = APIRouter(include_in_schema=False)

UI_DIR = FilePath(__file__).resolve().parents[1] / "ui"
PREFIX = "/ui"
CSP = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
    "font-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY", "Cache-Control": "no-cache",
}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".txt": "text/plain; charset=utf-8",
         ".svg": "image/svg+xml"}


def _assets() -> dict[str, FilePath]:
    """Every file under ``assets/``, by its path there: only these are ever served."""
    root = UI_DIR / "assets"
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in TYPES}


ASSETS = _assets()


def _file(path: FilePath, immutable: bool = False) -> FileResponse:
    headers = {**HEADERS, "Cache-Control": "public, max-age=31536000, immutable"} if immutable else HEADERS
    return FileResponse(path, media_type=TYPES[path.suffix], headers=headers)


@router.get(PREFIX)
def ui_redirect() -> RedirectResponse:
    return RedirectResponse(f"{PREFIX}/", status_code=308, headers=HEADERS)


@router.get(f"{PREFIX}/")
def ui_page() -> FileResponse:
    return _file(UI_DIR / "index.html")


@router.get(f"{PREFIX}/assets/{{name:path}}")
def ui_asset(name: Annotated[str, Path(max_length=200)]) -> FileResponse:
    if name not in ASSETS:
        raise NotFoundError("no such file of the explorer page; open /ui/")
    return _file(ASSETS[name], immutable=name.startswith("vendor/") and name.endswith(".mjs"))  # versioned names


def is_page_path(path: str) -> bool:
    """Paths of the page and its assets: public, like the page itself (they hold no data)."""
    return path == PREFIX or path.startswith(f"{PREFIX}/")
