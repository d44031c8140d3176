"""On a two-node cluster, background mining runs only on the node that declares the resource.

The cluster lives in its own process (tests/pool_cluster_probe.py) so it never meets the test
session's Ray.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_background_tasks_run_only_where_the_resource_is(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
           "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "pool_cluster_probe.py"), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["worker"] != found["head"]
    assert [r["status"] for r in found["runs"]] == ["committed"] * 3
    assert all(r["nodes"] == [found["worker"]] for r in found["runs"])
