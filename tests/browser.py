"""Headless Chromium for the tests of the explorer page: Debian's browser, driven by Playwright.

The browser is installed by the project's set-up (``make install`` installs Debian's ``chromium``
and ``chromium-driver`` when ``/usr/bin/chromium`` is missing); nothing here downloads one. A missing
browser fails the test with a message that says how to install it: these tests are never skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from conftest import ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts" / "explorer"


@contextmanager
def chromium() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make install` (it installs Debian's chromium and chromium-driver)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"
