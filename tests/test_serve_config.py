"""serve/config.yaml is a valid Serve deploy config whose import path builds our application."""

from __future__ import annotations

import yaml
from ray.serve._private.api import call_user_app_builder_with_args_if_necessary
from ray.serve._private.utils import import_attr
from ray.serve.schema import ServeDeploySchema

from conftest import ROOT
from serve.app import ReverieApi


def test_the_deploy_config_validates_and_builds_the_app() -> None:
    config = ServeDeploySchema.model_validate(yaml.safe_load((ROOT / "serve" / "config.yaml").read_text()))
    (application,) = config.applications
    built = call_user_app_builder_with_args_if_necessary(import_attr(application.import_path), application.args)
    deployment = built._bound_deployment
    assert deployment.func_or_class is ReverieApi.func_or_class
    assert deployment.num_replicas == 2 and deployment.ray_actor_options["num_cpus"] == 0.5
    assert deployment.max_ongoing_requests == 64 and deployment.max_queued_requests == 256
    (settings,) = deployment.init_args
    assert settings.serve.num_replicas == 2 and settings.store.uri == "./reverie-data"  # the rest from the environment
