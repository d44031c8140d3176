"""The Ray Serve application: ``build_app(settings)`` and the deployment behind it.

One deployment with a FastAPI ingress. Each replica reserves a fractional CPU
(``serve.num_cpus``), takes up to ``serve.max_ongoing_requests`` requests at once and queues at most
``serve.max_queued_requests`` more (beyond that Serve answers 503 instead of queueing without bound).
A stopping replica checks every ``serve.drain_check_seconds`` whether its requests in flight are done.
The FastAPI app is built inside the replica, after its services (store, keys, actor handles), so
routes close over live objects rather than pickled ones::

    ray_serve.start(http_options={"host": "127.0.0.1", "port": 8000})
    ray_serve.run(build_app(Settings()), name="reverie", route_prefix="/")

``app_builder`` is the same for ``serve run`` / ``serve deploy`` config files
(``import_path: serve.app:app_builder``): it reads the settings from the environment there.

``deploy`` starts the deploy and hands back the wait, so a caller starts the memory actors while the
replicas start (the replicas find those actors by name when they are first needed)::

    running = deploy(settings)
    stop = start_parts(settings)
    running()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from fastapi import FastAPI
from ray import serve as ray_serve
from ray.serve import Application, Deployment, RunTarget

from reverie.errors import UnavailableError
from reverie.settings import Settings
from serve.ingress import create_api
from serve.services import Services


@ray_serve.deployment(name="reverie-api", health_check_period_s=10)
@ray_serve.ingress()
class ReverieApi:
    """One replica: its services, and the FastAPI app built over them."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._services = Services(settings)

    def __serve_build_asgi_app__(self) -> FastAPI:
        return create_api(self._settings, self._services)

    def __del__(self) -> None:
        services = getattr(self, "_services", None)
        if services is not None:
            services.close()


def build_app(settings: Settings) -> Application:
    """The Serve application for these settings (bind it with ``ray_serve.run``)."""
    serve = settings.serve
    deployment = cast(Deployment, ReverieApi)  # mypy keeps a decorated class's own type (python/mypy#3135)
    return deployment.options(
        num_replicas=serve.num_replicas,
        max_ongoing_requests=serve.max_ongoing_requests,
        max_queued_requests=serve.max_queued_requests,
        graceful_shutdown_wait_loop_s=serve.drain_check_seconds,
        ray_actor_options={"num_cpus": serve.num_cpus},
    ).bind(settings)


def app_builder(args: dict[str, Any]) -> Application:
    """Entry point of Serve config files: settings from the environment (``REVERIE_*``) and ``args``."""
    return build_app(Settings(**args))


def start(settings: Settings) -> str:
    """Start Serve's HTTP proxy on the configured host and port and run the app; returns its URL."""
    start_proxy(settings)
    deploy(settings)()
    return url_of(settings)


def start_proxy(settings: Settings) -> None:
    """Serve's HTTP proxy on the configured host and port (a no-op while Serve runs)."""
    ray_serve.start(http_options={"host": settings.serve.host, "port": settings.serve.port})


def url_of(settings: Settings) -> str:
    return f"http://{settings.serve.host}:{settings.serve.port}"


def deploy(settings: Settings) -> Callable[[], None]:
    """Start deploying the app on the running Serve and return at once; the function returned waits
    until it runs (Serve's own blocking run polls once a second)."""
    target = RunTarget(target=build_app(settings), name=settings.serve.app_name, route_prefix="/")
    ray_serve.run_many([target], wait_for_applications_running=False)
    return partial(wait_running, settings.serve.app_name)


def wait_running(app_name: str, timeout: float = 300.0) -> None:
    """Block until the app runs; a failed deploy or one still going after ``timeout`` raises."""
    deadline = time.monotonic() + timeout
    while True:
        app = ray_serve.status().applications.get(app_name)
        status = app.status if app is not None else None
        if status == "RUNNING":
            return
        if status == "DEPLOY_FAILED" or time.monotonic() > deadline:
            detail = app.message if app is not None else "it is not on this Serve"
            raise UnavailableError(f"the Serve app {app_name!r} is not running ({status}: {detail}); see Ray's "
                                   "Serve logs (the replica's constructor error is there)", retry_after=5)
        time.sleep(0.05)
