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
"""

from __future__ import annotations

from typing import Any, cast

from fastapi import FastAPI
from ray import serve as ray_serve
from ray.serve import Application, Deployment

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
    ray_serve.start(http_options={"host": settings.serve.host, "port": settings.serve.port})
    ray_serve.run(build_app(settings), name=settings.serve.app_name, route_prefix="/")
    return f"http://{settings.serve.host}:{settings.serve.port}"
