"""Reading a tool's output: the fields it states, and the conflicts and identities they make.

Outputs are written here in the shapes common tools print (a key-value describe, an HCL attribute,
a SQL client's table, tab-separated describe output, a bare count, one value for a named output);
none is a phrasebook's sentence.
"""

from __future__ import annotations

import time

import pytest

from reverie.conflicts import conflicting, different_things
from reverie.extract import clean_statement
from reverie.statements import identifiers, read
from reverie.tool_output import agreeing, fields, is_tool_output, same_key

DESCRIBE = "$ pgctl describe orders-db\nversion: 16\ninstance_class: db.r6g.large\nstatus: available"
HCL = '$ terraform state show aws_db_instance.orders | grep instance_class\n    instance_class = "db.r6g.xlarge"'
TABLE = ("> SELECT name, status, tier FROM clusters WHERE name = 'search-eu';\n"
         "name | status | tier\nsearch-eu | RUNNING | gold\n(1 row)")
TABS = "$ rabbitmqctl describe_queue jobs\nQueue: jobs\tConsumerCount: 8\tDurable: true"
COUNT = "$ kubectl get pods -n search | grep -c 'Running'\n6"


@pytest.mark.parametrize(("text", "expected"), [
    (DESCRIBE, {"version": "16", "instance class": "db.r6g.large", "status": "available"}),
    (HCL, {"instance class": "db.r6g.xlarge"}),
    (TABLE, {"name": "search-eu", "status": "running", "tier": "gold"}),
    (TABS, {"queue": "jobs", "consumer count": "8", "durable": "true"}),
    (COUNT, {"running count": "6"}),
    ("$ terraform output -raw orders_backup_bucket\ns3://orders-backup-eu/", {"order backup bucket": "s3://orders-backup-eu"}),
    ('$ curl -s localhost:9200/_cluster/settings\n{"persistent": {"cluster": {"max_shards_per_node": 3000}},\n'
     ' "transient": {}, "nodes": ["a", "b"], "read_only": false}', {"max shard per node": "3000"}),
    ("$ python -c 'import numpy; print(numpy.__version__)'\n2.1.3", {"version": "2.1.3"}),
    ("$ aws rds describe-db-instances --query 'DBInstances[0].EngineVersion' --output text\n16.4", {}),
    ("$ gcloud sql instances describe orders --format 'value(settings.tier)'\ndb-custom-4-16384",
     {"tier": "db-custom-4-16384"}),
])
def test_the_fields_a_tool_prints(text: str, expected: dict[str, str]) -> None:
    assert fields(text) == expected


def test_prose_and_flattened_output_state_no_field() -> None:
    assert not is_tool_output("The orders database runs on version: 16, says the runbook.")
    assert fields("The orders database runs on version: 16, says the runbook.") == {}
    assert fields(DESCRIBE.replace("\n", " ")) == {}
    assert fields("$ make test\n") == {}


def test_keys_match_by_their_last_words() -> None:
    assert same_key("size", "warehouse size")
    assert same_key("instance class", "instance class")
    assert not same_key("size", "sizes limit")
    assert not same_key("state", "instance class")


def test_two_outputs_of_one_field_with_other_values_conflict() -> None:
    found = conflicting(DESCRIBE, HCL)
    assert found is not None and found.kind == "field"
    assert conflicting(DESCRIBE, "$ dbctl get orders-db\ninstance_class: db.r6g.large") is None  # one value
    assert conflicting(HCL, HCL.replace("xlarge", "large")) is not None


def test_a_count_a_tool_prints_is_the_nouns_value() -> None:
    """``ConsumerCount: 8`` states what "8 consumers" states, so prose of another count conflicts."""
    assert read(TABS).values.get("consumer") == frozenset({8.0})
    found = conflicting("The jobs queue has 4 consumers.", TABS)
    assert found is not None and found.kind == "value"
    assert conflicting("The jobs queue has 8 consumers.", TABS) is None


def test_a_count_under_grep_names_nothing() -> None:
    """``grep -c 'Partition:'`` then ``24`` is a count of partitions, not a thing called partition 24."""
    assert identifiers("$ kafka-topics --describe --topic t | grep -c 'Partition:'\n24") == frozenset()
    assert identifiers("PR 311 and pool-2 and ticket #42") == {"pr 311", "pool 2", "ticket 42"}


def test_records_of_other_things_are_apart() -> None:
    other = TABLE.replace("search-eu", "search-us").replace("gold", "silver")
    assert different_things(read(TABLE), read(other))
    assert conflicting(TABLE, other) is None


def test_a_run_named_in_json_and_in_a_table_is_one_record_and_other_runs_are_apart() -> None:
    """``job`` / ``job name`` name one record: a JSON job spec and a table row of one job conflict on their
    replica count; the spec of another job is another thing."""
    spec = '$ cat jobs/ingest.json\n{"job": "ingest-nightly", "replicas": 6, "queue_depth": 50}'
    table = "> SELECT job_name, replicas FROM jobs WHERE job_name = 'ingest-nightly';\njob_name | replicas\ningest-nightly | 4"
    other = '$ cat jobs/export.json\n{"job": "export-hourly", "replicas": 2, "queue_depth": 50}'
    assert conflicting(spec, table) is not None and conflicting(table, spec) is not None
    assert different_things(read(spec), read(other)) and conflicting(spec, other) is None


def test_a_tool_output_has_no_polarity() -> None:
    """``warn_after: none`` prints a setting; it negates nothing a prose note says."""
    assert read("$ yq .freshness sources.yml\nerror_after: 6 hours\nwarn_after: none").polarity == 1


def test_a_tool_events_note_keeps_its_lines() -> None:
    raw = "$ rabbitmqctl describe_queue jobs\nQueue: jobs\tConsumerCount: 8\tDurable:     true\n\n"
    kept = clean_statement(raw, tool=True)
    assert kept == "$ rabbitmqctl describe_queue jobs\nQueue: jobs  ConsumerCount: 8  Durable:  true"
    assert fields(kept) == fields(raw)
    assert "\n" not in clean_statement("Ok, the queue has 8 consumers.\nAnd it is durable.")


def test_outputs_agree_on_one_field_with_one_value() -> None:
    assert agreeing(fields(HCL), fields("$ dbctl get ledger\ninstance_class: db.r6g.xlarge"))
    assert not agreeing(fields(HCL), fields(DESCRIBE))
    assert not agreeing(fields(TABLE), fields(TABLE.replace("gold", "silver").replace("RUNNING", "STOPPED")))


@pytest.mark.parametrize("text", [
    "# Decision\nWe do not use tabs anymore.",            # a markdown heading, not a root prompt
    "> quoted from the review\nStatus: done\nOwner: alice",  # a quote, not a SQL client
])
def test_prose_with_a_heading_or_a_quote_is_no_tool_output(text: str) -> None:
    assert not is_tool_output(text) and fields(text) == {}
    assert read("# Decision\nWe do not use tabs anymore.").polarity == -1


def test_a_key_printed_once_per_record_states_no_one_value() -> None:
    described = "$ kafka-topics --describe --topic t\nTopic: t  Partition: 0  Leader: 1\nTopic: t  Partition: 1  Leader: 2"
    assert fields(described) == {"topic": "t"}


def test_generic_fields_conflict_only_between_runs_of_one_program() -> None:
    health = "$ curl -s https://web.internal/health\nstatus: ok"
    assert conflicting(health, "$ kubectl rollout status deploy/web\nstatus: progressing") is None
    assert conflicting(health, "$ curl -s https://web.internal/health\nstatus: degraded") is not None


def test_a_long_output_keeps_whole_lines() -> None:
    raw = "$ dbctl describe orders-db\n" + "".join(f"param_{i}: {'x' * 30}\n" for i in range(20)) + "size: X-Small\n"
    kept = clean_statement(raw, tool=True)
    assert len(kept) <= 500 and all(line == "$ dbctl describe orders-db" or line.endswith("x" * 30)
                                     for line in kept.split("\n"))


def test_reading_pathological_texts_takes_linear_time() -> None:
    start = time.perf_counter()
    for text in ("pool" + " " * 20000 + "x", "pool" + " -" * 10000 + "x", "$ run " + "a_" * 10000 + " x\nv",
                 "$ grep -c " + "a" * 20000 + "\n3"):
        read(text)
    assert time.perf_counter() - start < 2.0


def test_a_two_line_output_is_a_table_between_blanks_and_more_rows_are_records() -> None:
    ports = "$ hilctl ports --rig 3\nPORT          DEVICE        BAUD      STATE\n/dev/ttyACM0  ledger        460800    open"
    assert fields(ports) == {"port": "/dev/ttyacm0", "device": "ledger", "baud": "460800", "state": "open"}
    two_rows = ports + "\n/dev/ttyACM1  billing       115200    open"
    assert "baud" not in fields(two_rows)
    assert fields("$ ls firmware/\nREADME.md  CMakeLists.txt  Kconfig\nsrc  boards  tests") == {}  # a listing
    assert fields("$ tail -2 ota.log\nINFO  fetch  started\nERROR  fetch  timeout") == {}  # log lines
