"""cluster.yaml passes Ray's own cluster-config validation (no SSH) and declares the background resource."""

from __future__ import annotations

import json
import re

import yaml
from ray.autoscaler._private.util import prepare_config, validate_config

from conftest import ROOT
from reverie.settings import Settings


def _config() -> dict:
    return yaml.safe_load((ROOT / "cluster.yaml").read_text())


def test_cluster_yaml_is_a_valid_ray_cluster_config() -> None:
    config = prepare_config(_config())
    validate_config(config)
    assert config["provider"]["type"] == "local"


def test_every_node_installs_the_project_and_declares_the_background_resource() -> None:
    config = _config()
    resource = Settings().mining.background_resource
    assert any("make install" in c for c in config["setup_commands"])
    for key in ("head_start_ray_commands", "worker_start_ray_commands"):
        starts = [c for c in config[key] if "ray start" in c]
        assert len(starts) == 1
        declared = json.loads(re.search(r"--resources='([^']+)'", starts[0]).group(1))
        assert declared.get(resource, 0) >= 1
    assert config["file_mounts"]["~/reverie"] == "."
