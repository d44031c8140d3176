"""Values two people fill one frame with are alternatives of one choice (``reverie.alternatives``)."""

from __future__ import annotations

import pytest

from reverie.alternatives import learn

PIPELINES = [("personal:a1", "Write new pipelines in Snakemake."),
             ("personal:a2", "Write new pipelines in WDL on Cromwell."),
             ("personal:a3", "Nextflow DSL2 is what I want new workflows in, since the group maintains it."),
             ("personal:a4", "Snakemake is what I want new workflows in, since the group maintains it.")]


def test_two_peoples_fillers_of_one_frame_are_alternatives_and_frames_never_chain() -> None:
    alternatives = learn(PIPELINES)
    assert alternatives.changed("Snakemake is what I want, the rest of the group knows it.",
                                "Didn't I tell you we switched to WDL on Cromwell? New stuff goes there.")
    assert alternatives.changed("Snakemake, please.", "Nextflow DSL2 from now on.")
    variants = learn([("personal:a1", "Variant lists come to me as a TSV with HGVS c. and p. notation, not in chat."),
                      ("personal:a2", "Variant lists come to me as an Excel workbook with one sheet per sample, not in chat.")])
    assert variants.changed("oh, whenever you send me calls, a TSV with HGVS c. and p. notation please.",
                            "Scratch what I said about the variant format. an Excel workbook with one sheet per sample.")
    assert not alternatives.changed("Nextflow DSL2 for anything with more than two steps.",  # only through Snakemake
                                    "We switched to WDL on Cromwell.")


@pytest.mark.parametrize(("old", "new"), [
    ("Write new pipelines in Snakemake.", "Still Snakemake, keep WDL on Cromwell for the old ones."),  # names both
    ("Curves on a log scale, please.", "We switched to WDL on Cromwell."),  # names no other filler
    ("Write new pipelines in Snakemake.", "Snakemake, every time."),  # the same value
    ("Write new pipelines in Snakemake.", "Correction: we are not moving to WDL on Cromwell after all."),  # denied
    ("Write new pipelines in Snakemake.", "Please drop WDL on Cromwell for new work."),  # replaced
    ("Write new pipelines in Snakemake.", "Can you stop sending me WDL on Cromwell drafts?"),  # withdrawn
    ("Write new pipelines in Snakemake.", "Forget WDL on Cromwell, it was a mess."),  # withdrawn
    ("Write new pipelines in Snakemake.", "New work in Snakemake, not WDL on Cromwell."),  # a contrast
    ("Never touch the legacy Snakemake pipelines, they are frozen.", "We switched to WDL on Cromwell."),  # old denies it
])
def test_a_change_asserts_another_filler_than_the_one_the_old_wish_asserts(old: str, new: str) -> None:
    assert not learn(PIPELINES).changed(old, new)


@pytest.mark.parametrize("statements", [
    [("personal:a1", "Write new pipelines in Snakemake."), ("personal:a1", "Write new pipelines in WDL on Cromwell.")],
    [("personal:a1", "I really like tables."), ("personal:a2", "I really like short answers.")],  # 3 words of frame
    [("personal:a1", "Since the new postdoc started I've wanted figures as ggplot2 PDFs in the lab palette."),  # who speaks
     ("personal:a2", "My rule for anything I read: figures as ggplot2 PDFs in the lab palette.")],
    [("personal:a1", "Opening the metrics-api repo to poke at code snippets."),  # two modules
     ("personal:a2", "Opening the cdc-sync repo to poke at code snippets.")],
    [("personal:a1", "Write new pipelines in Nextflow DSL2, please."),  # one value refined
     ("personal:a2", "Write new pipelines in Nextflow DSL2 with containers, please.")],
    [("personal:a1", "Send the weekly summary to [PII:email] as a PDF."),  # a masked span teaches nothing
     ("personal:a2", "Send the weekly summary to the lab channel as a PDF.")],
])
def test_no_link_from_one_person_a_short_frame_a_lead_in_a_thing_name_a_refinement_or_a_mask(
        statements: list[tuple[str, str]]) -> None:
    assert learn(statements, names=["metrics-api", "cdc-sync"]).links == {}
