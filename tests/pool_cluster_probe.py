"""Run by test_pool_cluster.py in its own process: mining on a two-node Ray cluster.

The head node has no background resource, the second node has ``reverie_background``. Three
projects are mined through the mining service; the probe prints, as JSON, which node each run's
task ran on and the two nodes' ids.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import ray
from ray.cluster_utils import Cluster

from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.records import Note
from reverie.settings import ActorSettings, EmbeddingSettings, Settings, StoreSettings
from reverie.store import NoteWrite, Store


def _notes(store: Store, project: str, clock: ManualClock) -> None:
    embedder = HashEmbedder(EmbeddingSettings(provider="hash"))
    texts = ["run migrations before deploying the api", "apply the migrations then deploy the api",
             "migrate the database before the api deploy", "rotate the logs every night"]
    vectors = embedder.embed(texts)
    writes = [
        NoteWrite(Note(
            note_id=f"{project}-n{i}", type="lesson", subject="deploys", statement=text, scope=f"personal:a{i}",
            owner_agent=f"a{i}", project=project, source_sessions=[f"s{i}"], source_agents=[f"a{i}"],
            created_at=clock.now(), updated_at=clock.now(),
        ), "add", vector=np.asarray(vector))
        for i, (text, vector) in enumerate(zip(texts, vectors, strict=True))
    ]
    store.batches.run("local", writes, project=project)


def main(root: Path) -> dict:
    from mining.service import Mining

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    worker = cluster.add_node(num_cpus=1, resources={"reverie_background": 1})
    try:
        ray.init(address=cluster.address, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": os.environ["PYTHONPATH"]}})
        settings = Settings(
            store=StoreSettings(uri=str(root / "store")), embedding=EmbeddingSettings(provider="hash"),
            actors=ActorSettings(namespace="probe"),
        )
        clock = ManualClock()
        store = Store.open(settings.store, spec_for(settings.embedding), clock)
        for project in ("atlas", "orion", "vega"):
            _notes(store, project, clock)
        mining = Mining(settings, clock)
        runs = [mining.start(p) for p in ("atlas", "orion", "vega")]
        done = [mining.wait(r.run_id, timeout=120) for r in runs]
        mining.close()
        head = next(n["NodeID"] for n in ray.nodes() if n["NodeID"] != worker.node_id)
        return {"worker": worker.node_id, "head": head,
                "runs": [{"status": r.status, "nodes": r.stats.get("nodes", [])} for r in done]}
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
