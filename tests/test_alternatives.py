"""Values two people fill one frame with are alternatives of one choice (``reverie.alternatives``)."""

from __future__ import annotations

import pytest

from reverie.alternatives import learn

PIPELINES = [("personal:a1", "Write new pipelines in Snakemake."),
             ("personal:a2", "Write new pipelines in WDL on Cromwell."),
             ("personal:a3", "Nextflow DSL2 is what I want new workflows in, since the group maintains it."),
             ("personal:a4", "Snakemake is what I want new workflows in, since the group maintains it.")]


def test_two_peoples_fillers_of_one_frame_are_one_group_and_groups_chain() -> None:
    alternatives = learn(PIPELINES)
    assert len(set(alternatives.group.values())) == 1
    assert alternatives.changed("Snakemake is what I want, the rest of the group knows it.",
                                "Didn't I tell you we switched to WDL on Cromwell? New stuff goes there.")
    assert alternatives.changed("Nextflow DSL2 for anything with more than two steps.",  # chained through Snakemake
                                "Didn't I tell you we switched to WDL on Cromwell?")


@pytest.mark.parametrize(("old", "new"), [
    ("Write new pipelines in Snakemake.", "Still Snakemake, keep WDL on Cromwell for the old ones."),  # names both
    ("Curves on a log scale, please.", "We switched to WDL on Cromwell."),  # names no other filler
    ("Write new pipelines in Snakemake.", "Snakemake, every time."),  # the same value
])
def test_a_change_needs_another_filler_of_the_group_named_by_the_old_wish_only(old: str, new: str) -> None:
    assert not learn(PIPELINES).changed(old, new)


@pytest.mark.parametrize("statements", [
    [("personal:a1", "Write new pipelines in Snakemake."), ("personal:a1", "Write new pipelines in WDL on Cromwell.")],
    [("personal:a1", "I like tables."), ("personal:a2", "I like short answers.")],  # too short a frame
    [("personal:a1", "Since the new postdoc started I've wanted figures as ggplot2 PDFs in the lab palette."),  # who speaks
     ("personal:a2", "My rule for anything I read: figures as ggplot2 PDFs in the lab palette.")],
    [("personal:a1", "Opening the metrics-api repo to poke at code snippets."),  # two modules
     ("personal:a2", "Opening the cdc-sync repo to poke at code snippets.")],
    [("personal:a1", "Write new pipelines in Nextflow DSL2."),  # one value refined
     ("personal:a2", "Write new pipelines in Nextflow DSL2 with containers.")],
    [("personal:a1", "Send the weekly summary to [EMAIL] as a PDF."),  # a masked span is no value
     ("personal:a2", "Send the weekly summary to the lab channel as a PDF.")],
])
def test_no_group_from_one_person_a_short_frame_a_lead_in_a_thing_name_a_refinement_or_a_mask(
        statements: list[tuple[str, str]]) -> None:
    assert learn(statements, names=["metrics-api", "cdc-sync"]).group == {}
