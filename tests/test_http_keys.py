"""Keys against a running app: changes to the keys file are picked up within 5 s, quotas answer 429
with Retry-After, there is no CORS unless allowed, and no key ever reaches Ray's logs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import ray

from serve.auth.keys import KeysFile
from serving import Served, served, served_settings
from waiting import wait_until, waited

BURST = 5


@pytest.fixture(scope="module")
def app(serve_session: int, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    settings = served_settings(tmp_path_factory.mktemp("keys"), auth={"requests_per_minute": 60, "burst": BURST})
    roles = {"ana-1": ("analyst", ["atlas"]), "ana-2": ("analyst", ["atlas"]), "ana-3": ("analyst", ["atlas"])}
    with served(settings, roles) as running:
        yield running


def _status(app: Served, key: str) -> int:
    return httpx.get(f"{app.url}/v1/notes", headers={"Authorization": f"Bearer {key}"}, timeout=30).status_code


def _until(app: Served, key: str, status: int, limit: float = 5.0) -> float:
    return waited(lambda: _status(app, key) == status, limit, f"the key to get {status}", every=0.2)


def test_added_and_revoked_keys_take_effect_within_five_seconds(app: Served) -> None:
    keys = KeysFile(Path(app.settings.auth.keys_file or ""))
    key = keys.add("ana-new", "analyst", ["atlas"])
    assert _until(app, key, 200) < 5.0
    keys.revoke(key)
    assert _until(app, key, 401) < 5.0


def test_a_key_over_its_quota_gets_429_with_retry_after(app: Served) -> None:
    key = app.keys["ana-1"]
    statuses = [_status(app, key) for _ in range(BURST + 2)]
    assert statuses[:BURST] == [200] * BURST and statuses[-1] == 429
    response = httpx.get(f"{app.url}/v1/notes", headers={"Authorization": f"Bearer {key}"})
    assert response.json()["error"]["code"] == "quota_exceeded"
    assert 1 <= int(response.headers["Retry-After"]) <= 2
    assert _status(app, app.keys["ana-2"]) == 200  # quotas are per key


def test_no_cross_origin_access_by_default(app: Served) -> None:
    preflight = httpx.options(f"{app.url}/v1/notes", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization"})
    simple = httpx.get(f"{app.url}/v1/notes", headers={"Origin": "https://evil.example",
                                                        "Authorization": f"Bearer {app.keys['ana-3']}"})
    for response in (preflight, simple):
        assert "access-control-allow-origin" not in response.headers


def test_no_key_reaches_the_logs(app: Served) -> None:
    for key in app.keys.values():
        _status(app, key)
    logs = Path(ray._private.worker.global_worker.node.get_logs_dir_path())
    texts = [p.read_bytes() for p in logs.rglob("*") if p.is_file()]
    assert texts
    for key in app.keys.values():
        assert not any(key.encode() in text for text in texts)


def test_request_metrics_reach_prometheus_by_route_and_status(app: Served) -> None:
    key = app.keys["ana-3"]
    for _ in range(3):
        _status(app, key)
    port = ray._private.worker.global_worker.node.metrics_export_port
    wanted = ('ray_reverie_http_requests_total', 'route="/v1/notes"', 'status="200"')

    def exported() -> list[str]:
        lines = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text.splitlines()
        return lines if any(all(w in line for w in wanted) for line in lines) else []

    # Ray's metrics agent exports every few seconds
    lines = wait_until(exported, 40, "request metrics to reach Ray's Prometheus endpoint", every=0.5)
    assert any(line.startswith("ray_reverie_http_request_seconds_bucket") and 'route="/v1/notes"' in line for line in lines)
    assert not any(key in line for line in lines)
