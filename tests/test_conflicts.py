from __future__ import annotations

import pytest

from reverie.conflicts import (
    addresses,
    conflict_between,
    conflicting,
    different_things,
    one_kind_of_place,
    other_address,
    other_part,
    other_tool_version,
    other_value,
    same_address,
)
from reverie.restatements import changed_readings
from reverie.statements import identifiers, normalise, part_names, polarity, read, split_contrast, topic


@pytest.mark.parametrize(("a", "b", "kind"), [
    ("Never call the payments API directly.", "Call the payments API directly.", "polarity"),
    ("The man is not playing the guitar and is not singing", "The man is playing the guitar and singing", "polarity"),
    ("The auth service must keep tokens valid for 15 minutes at most.", "Tokens may now live 30 minutes.", "value"),
    ("Session timeout is 900 seconds.", "Session timeout is 20 minutes.", "value"),
    ("Invoices are rounded to 4 decimals.", "Correction: invoices are rounded to 2 decimals, not 4.", "value"),
    ("Write the weekly report as a table instead of paragraphs.", "Write the weekly report as long paragraphs, not a table.",
     "choice"),
    ("Prefer tabs over spaces.", "Use spaces for indentation.", "choice"),
    ("Use tabs for indentation.", "Use spaces for indentation.", "option"),
    ("Export the data as JSON.", "Export the data as YAML.", "option"),
    ("Set max_retries=3 for the client.", "max_retries = 5 in the client config", "setting"),
])
def test_contradictions_are_found_with_their_kind(a: str, b: str, kind: str) -> None:
    found = conflicting(a, b)
    assert found is not None and found.kind == kind
    again = conflicting(b, a)
    assert again is not None and again.kind == kind


@pytest.mark.parametrize(("a", "b"), [
    ("Please write the weekly billing report as a table, not long paragraphs.", "Format weekly reports as tables."),
    ("Tables please for the weekly report - no walls of text.", "Format weekly reports as tables."),
    ("Token lifetime is 15 minutes in production config.", "The auth service must keep tokens valid for 15 minutes at most."),
    ("Correction: invoices are rounded to 2 decimals, not 4.", "Rounding invoices to 2 decimals matches the ledger export."),
    ("Use the shared error wrapper for every handler, no bare try/except.",
     "Route all error handling through the shared wrapper layer."),
    ("Session timeout is 900 seconds.", "Session timeout is 15 minutes."),
])
def test_agreeing_statements_do_not_conflict(a: str, b: str) -> None:
    assert conflicting(a, b) is None


def test_a_contrast_clause_is_a_rejected_alternative_not_a_negation() -> None:
    main, rejected = split_contrast("Use tables, not prose, for the weekly report")
    assert rejected == ["prose"] and "tables" in main
    assert polarity("Use tables, not prose") == 1
    assert polarity("Do not use prose") == -1
    reading = read("Round to 2 decimals, not 4")
    assert reading.values == {"decimal": frozenset({2.0})}
    assert reading.rejected_values == {"decimal": frozenset({4.0})}


def test_durations_and_sizes_are_compared_in_one_unit() -> None:
    assert read("keep it for 2 hours").values == read("keep it for 120 minutes").values
    assert read("a 1 MiB limit").values == read("a 1048576 byte limit").values


def test_topic_and_normal_form() -> None:
    assert topic("The auth service must keep tokens valid for 15 minutes at most.") == "auth service token"
    assert topic("Please write the weekly billing report as a table, not long paragraphs.") == "weekly billing report"
    assert normalise("  Prefer  TABLES!  ") == normalise("prefer tables")


@pytest.mark.parametrize(("a", "b"), [
    ("Never restart worker pool 1 during business hours.", "Always restart worker pool 2 during business hours."),
    ("Reviewed PR 311; error paths bypassed the wrapper.", "Reviewed PR 318; error paths bypassed the wrapper."),
])
def test_statements_about_different_numbered_things_are_different_slots(a: str, b: str) -> None:
    assert conflicting(a, b) is None
    assert different_things(read(a), read(b))


@pytest.mark.parametrize(("a", "b"), [
    ("Use Python 3 for scripts.", "Use Python 2 for scripts."), ("Serve on port 8080.", "Serve on port 9090."),
])
def test_versions_and_ports_are_values_not_names(a: str, b: str) -> None:
    found = conflicting(a, b)
    assert found is not None and found.kind == "value"


@pytest.mark.parametrize(("a", "b"), [
    ("The api runs on Python 3.13, trust me.", "Runtime check for api: interpreter Python 3.11 (ok)"),
    ("CI image for api reports python=3.12", "api runs on Python 3.13"),
    ("Use Python 3.1 here.", "Use Python 3.10 here."),
])
def test_dotted_versions_differ_by_their_minor(a: str, b: str) -> None:
    found = conflicting(a, b)
    assert found is not None and found.kind == "value", (a, b)


@pytest.mark.parametrize(("a", "b"), [
    ("$ api/bin/python --version Python 3.13.4", "api runs on Python 3.13."),  # a patch level is no other version
    ("Scripts need Python 3.", "The scripts run on Python 3.11."),             # a bare major names no minor
])
def test_versions_that_agree(a: str, b: str) -> None:
    assert conflicting(a, b) is None


def test_a_host_and_port_states_a_port() -> None:
    found = conflicting("That's wrong, the ledger db uses port 5544.", "Port check ledger-db:15432 -> open")
    assert found is not None and found.kind == "value"
    assert "port" not in read("The standup is at 14:30.").values


def test_identifiers_name_things_and_values_measure_them() -> None:
    assert identifiers("migration 0042 failed; see PR 311") == {"migration 42", "pr 311"}
    assert identifiers("round to 2 decimals, at most 30 deploys, in 1998") == frozenset()
    assert identifiers("the ingest job 5 gets at most 12 deploys a week, not 9") == {"job 5"}


def test_a_negation_after_a_conjunction_is_part_of_the_statement() -> None:
    assert polarity("At most 3 deploys a week for the cache layer, and never on Fridays.") == -1
    assert conflicting("Never change the cache layer on Fridays; at most 3 deploys a week.",
                       "At most 3 deploys a week for the cache layer, and never on Fridays.") is None


def test_a_number_after_a_noun_names_it_even_before_a_verb() -> None:
    assert identifiers("The schema migration 27 passes all tests.") == {"migration 27"}
    assert conflicting("The schema migration 27 passes all tests.", "The schema migration 147 passes all tests.") is None
    found = conflicting("Return the top 5 results.", "Return the top 10 results.")
    assert found is not None and found.kind == "value"


def test_a_version_after_a_noun_measures_it_and_names_nothing() -> None:
    assert identifiers("The platform team bumped the image to CUDA 12.1.") == frozenset()
    found = conflicting("The trainer image ships CUDA 12.1.", "FROM nvidia/cuda:11.8.0-cudnn8-devel")
    assert found is not None and found.kind == "value"
    assert conflicting("The trainer image ships CUDA 12.1.", "It is built against CUDA 12.1.4.") is None


@pytest.mark.parametrize(("first", "second", "expected"), [
    ("$ head -1 images/x/Dockerfile\nFROM nvidia/cuda:12.1.0-cudnn8",
     "$ head -1 images/x/Dockerfile\nFROM nvidia/cuda:11.8.0-cudnn8", True),
    ("[2026-03-04 10:12:01] rank0 INFO trainer: world_size=64", "[2026-03-09 08:00:13] rank0 INFO trainer: world_size=8", True),
    ("[2026-03-04 10:12:01] rank0 INFO trainer: world_size=64", "[2026-03-09 08:00:13] rank0 INFO trainer: world_size=64", False),
    ("The pool runs g2-standard-48 machines.", "The pool runs a2-ultragpu-8g machines.", True),
    ("Use the small queue for ingest jobs.", "Use the large queue for ingest jobs.", False),  # words, not values
    ("The pool runs g2-standard-48 machines.", "The pool runs g2-standard-48 machines.", False),
    ("Deploy 3 pods.", "Deploy 5 pods tonight after the review.", False),  # other words too
])
def test_other_value_reads_one_text_with_another_value_in_it(first: str, second: str, expected: bool) -> None:
    assert other_value(first, second) is expected


def test_a_tools_output_negates_nothing() -> None:
    listing = ("$ kubectl get nodes -l pool=ledger -L node.kubernetes.io/instance-type\n"
               "NAME  STATUS  ROLES  AGE  VERSION  INSTANCE-TYPE\n"
               "gke-ledger-pool-4f2a  Ready  <none>  12d  v1.29.6  g2-standard-48")
    assert conflicting(listing, "$ terraform console\n\"g2-standard-48\"") is None


def test_addresses_are_compared_as_places() -> None:
    """One place listed at two depths is one address; another bucket is another; a denied one is none."""
    listing = "$ gcloud storage ls gs://ckpt-hot/ledger/ | tail -1\ngs://ckpt-hot/ledger/step_014000/"
    assert same_address(listing, "$ env | grep ^CKPT_\nCKPT_ROOT=gs://ckpt-hot/ledger")
    assert other_address(listing, "The ledger run dumps its weights into gs://ckpt-cold.")
    assert not other_address("Use gs://ckpt-hot, not gs://ckpt-cold.", "CKPT_ROOT=gs://ckpt-hot/ledger")
    assert addresses("so it's definitely not https://a.example/sym.") == frozenset()


def test_an_address_ends_before_the_punctuation_around_it_and_a_denial_stays_on_its_line() -> None:
    assert same_address("Uploading to https://a.example/sym: 1284 files", "StorePath=https://a.example/sym")
    assert addresses("Proxy: not set\nStorePath: https://a.example/sym") == frozenset({"https://a.example/sym"})


def test_a_documents_own_schema_is_no_address_it_names() -> None:
    """A plist's doctype names Apple's DTD and a POM its namespaces whatever host they set: the one
    changed address of two readings is the host, so a turn repeating the old host can be found."""
    plist = ('$ plutil -extract ApiHost xml1 -o - ledger/Info.plist\n<?xml version="1.0" encoding="UTF-8"?>\n'
             '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
             '<string>edge-1.ledger.example</string>')
    assert addresses(plist) == frozenset({"edge-1.ledger.example"})
    pom = ('<project xmlns="http://maven.apache.org/POM/4.0.0" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 '
           'https://maven.apache.org/xsd/maven-4.0.0.xsd"><url>https://repo.example.com/m2</url>')
    assert addresses(pom) == frozenset({"https://repo.example.com/m2"})
    assert addresses("See http://www.apple.com/DTDs/PropertyList-1.0.dtd.") == frozenset()
    assert changed_readings(plist, "$ curl -sI https://gw.ledger.example/health\nx-served-by: gw.ledger.example") == [
        "edge-1.ledger.example"]


def test_only_a_key_ending_in_a_unit_of_measure_is_measured() -> None:
    assert conflict_between(read("$ cat x.yaml\nrequest_timeout_ms: 500"), read("the request timeout is 2 seconds"))
    assert read("$ cat hpa.yaml\nreplicas_min: 2\nstart_hour: 2").values == {}


# --- versions of named things, hosts named bare (issue 15, dev5) --------------------------------
@pytest.mark.parametrize("text", [
    "ledger is built on Zephyr 3.6.0.",
    "*** Booting Zephyr OS build v3.6.0 ***\n[00:00:00.004,000] <inf> main: ledger starting",
    "$ west list zephyr\nzephyr       zephyr       v3.6.0       https://github.com/zephyrproject-rtos/zephyr",
    "$ grep -A3 'name: zephyr' ledger/west.yml\n    - name: zephyr\n      revision: v3.6.0\n      import: true",
    "$ cat ledger/versions.json\n{\n  \"ZephyrVersion\": \"3.6.0\",\n  \"Changelist\": 31166578\n}",
])
def test_a_version_of_a_named_thing_reads_alike_in_every_shape(text: str) -> None:
    assert read(text).values == {"zephyr version": frozenset({3.006})}


@pytest.mark.parametrize("text", [
    "We upgraded to 3.6.0 yesterday.",                     # no name: a verb before it
    "[2026.03.04-09.41.17:003] LogInit: started",          # a date and a clock
    "$ ping -c1 10.0.4.17\n1 packets transmitted",         # an address
    "ledger got rebased last sprint; 3.5.0 is gone",        # a clause's end is no name
    "see section 4.2.1; We're on 3.5.0",                      # a place in a text; a contraction
    "$ helm list\nledger-0.3.1  deployed",                   # an artifact's file name
])
def test_a_dotted_number_without_a_name_is_no_version_of_anything(text: str) -> None:
    assert not any(unit.endswith(" version") for unit in read(text).values)


def test_two_shapes_printing_two_versions_of_one_thing_conflict_and_two_things_never() -> None:
    banner = "*** Booting Zephyr OS build v3.5.0 ***\n[00:00:00.004,000] <inf> main: ledger starting"
    listing = "$ west list zephyr\nzephyr       zephyr       v3.6.0       https://github.com/zephyrproject-rtos/zephyr"
    assert conflicting(banner, listing) is not None
    assert conflicting(banner, "$ openocd --version\nOpen On-Chip Debugger 0.12.0") is None
    assert conflicting("ledger is built on Zephyr 3.0.0.", banner) is not None  # x.0.y is no bare major


def test_a_host_named_bare_is_an_address_and_a_urls_host_is_one_place_with_it() -> None:
    curl = "$ curl -sI https://updates.example.dev/ledger/manifest.json\nHTTP/2 200\ncontent-type: application/json"
    assert addresses("ledger fetches updates from ota.example.net.") == frozenset({"ota.example.net"})
    assert other_address("I'm fairly sure ledger still talks to ota.example.net.", curl)
    assert not other_address("ledger pulls firmware from updates.example.dev", curl)  # the URL's host
    assert addresses("see manifest.json, torch.version.cuda, logger.info(x), config.local and ops@example.com") == set()
    assert addresses("db-1.internal:5432, not ota.example.net") == frozenset({"db-1.internal:5432"})
    assert not other_address("db-1.internal", "db-1.internal:5432") and other_address("db.internal:5432", "db.internal:6379")


def test_a_part_mixes_letters_and_digits_and_an_instance_name_a_measure_or_a_digest_is_none() -> None:
    assert part_names("Info : [STM32U585.cpu] ok; soc ESP32-S3; U1,nRF5340,Main MCU") == {"stm32u585", "esp32-s3", "nrf5340"}
    assert part_names("machine types g2-standard-48, a3-highgpu-8g") == {"g2-standard-48", "a3-highgpu-8g"}
    assert part_names("gs-node-14 gke-pool-4f2a 41m 3h12m 0x01 v3.6.0 utf8 ue5 4000khz sha256 base64 arm64") == frozenset()


# --- settings read in linear time ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "settings"), [
    ("set log.level = debug and retry_count: 3", {"log.level": "debug", "retry_count": "3"}),
    ("2.foo=1", {"foo": "1"}),  # a key starts at a word, not at a digit
    ("x-foo = 3", {"x-foo": "3"}),
    ("the pool.size is 8 now", {"pool.size": "8"}),
    ("x. = 3", {}),  # a key ends in a letter or digit
    ("a.b = c.d = e", {"a.b": "c.d"}),  # a value is never the next key
])
def test_settings_are_keys_before_a_separator(text: str, settings: dict[str, str]) -> None:
    assert read(text).settings == settings


def test_a_long_dotted_or_hyphenated_run_is_read_in_linear_time() -> None:
    """A setting's regex restarted at every word inside one long run of key characters: 30 KB took
    10 s, and a statement may be 32 KiB long."""
    import time
    for text in ("a." * 16_000, "ab-" * 10_900, "x.y-z_" * 5_400 + " = 3"):
        read.cache_clear()
        start = time.perf_counter()
        read(text)
        assert time.perf_counter() - start < 2.0, text[:12]


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Deploys go out after 18:00.", "Deploys go out after 20:00.", False),  # no shared "00"
    ("Deploys go out after 18:00.", "Ship at 18:00 sharp.", True),
    ("[09:14:02]: Resolved DEVELOPER_DIR: /Applications/Xcode_15.4.app", "Build time: 2024-07-11 14:37:41 UTC", False),
    ("Backups ran on 2024-07-11.", "The backup of 2024-07-11 is the last good one.", True),
    ("Deployed at 2024-07-11T09:14:02Z.", "Alerted at 2024-07-12T14:37:41Z.", False),  # ISO stamps, whole
])
def test_a_date_or_a_clock_time_is_one_value(a: str, b: str, same: bool) -> None:
    """dev6: two tools' log lines shared the "14" of their timestamps and merged as one fact."""
    from reverie.statements import same_value
    assert same_value(a, b) is same


def test_parts_and_a_tools_versions_are_compared_as_one_fact() -> None:
    assert other_part("[STM32U585.cpu] examination succeeded", '"soc": "ESP32-S3"')
    assert not other_part("POOL=win64-gpu-a10", "Running on win64-gpu-a10-07")  # an instance of the pool
    assert not other_part("ledger-nrf5340 boots", "ledger-nrf5340", frozenset({"ledger-nrf5340"}))
    catalogue = "$ grep -A1 '# ledger' gradle/libs.versions.toml\n# ledger\nkotlin = \"2.1.10\""
    assert other_tool_version(catalogue, "i: kotlinc-jvm 2.0.21 (JRE 17.0.11+9)")
    assert not other_tool_version(catalogue, "i: kotlinc-jvm 2.1.10 (JRE 17.0.11+9)")
    assert other_tool_version("node 20.1.0", "nodejs 18.2.0")
    assert not other_tool_version("node 20.1.0", "nodejs 20.1.0")
    assert not other_tool_version("ruby 3.2.2", "rubygems 3.4.10")  # another tool
    assert not other_tool_version("python 3.11.2", "python-dateutil 2.8.2")


def test_addresses_of_two_kinds_of_place_are_two_things() -> None:
    bucket = "Publishing qc outputs to s3://gx-results-eu/qc/run_1"
    assert one_kind_of_place(bucket, "$ aws s3 ls s3://gx-results/qc/")
    assert not one_kind_of_place(bucket, "##reference=file:///refs/GRCh38/genome.fa")
    assert not one_kind_of_place(bucket, "N E X T F L O W version 24.10.2 http://nextflow.io")
    assert one_kind_of_place("curl -s https://ota.example.net/v2", "host = ota.example.dev:8443")  # the web's


def test_a_version_printed_bare_under_a_command_asking_a_tool_its_version_is_that_tools() -> None:
    banner = "$ cd ledger && nextflow -version\n  N E X T F L O W\n  version 23.10.1 build 5917\n  http://nextflow.io"
    found = conflicting(banner, "ledger uses Nextflow 24.04.4, I installed it myself.")
    assert found is not None and found.kind == "value"
    assert conflicting(banner, "ledger uses Nextflow 23.10.1.") is None
    assert "version" in read("$ grep -v version notes.txt\nversion 1.2.3").values  # -v asks no version


def test_a_months_day_and_a_commands_flag_name_nothing() -> None:
    assert identifiers("Mar-10 22:41:07.552 [Task monitor] INFO publishing") == frozenset()
    assert identifiers("$ aws s3 ls s3://bucket/x/ | tail -2") == frozenset()
    assert identifiers("pool-2 and PR #311") == {"pool 2", "pr 311"}
