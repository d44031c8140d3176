"""What a statement says it replaces, the lexical evidence that a note states it, and the slot text."""

from __future__ import annotations

import pytest

from reverie.statements import asserts, replaced, says_replacement, slot_text


@pytest.mark.parametrize(("text", "phrase"), [
    ("Use the streaming exporter instead of the batch job.", "batch job"),
    ("Rounded to 2 decimals, not 4.", "4"),
    ("The runtime moved from Python 3.11 to 3.12.", "Python 3.11"),
    ("It is no longer on 3.11.", "3.11"),
    ("Deploys go out after 18:00 now (it used to be Tuesdays).", "Tuesdays"),
    ("The approval rule is two reviewers now (was a change ticket).", "change ticket"),
    ("Stop using PDF attachments; the portal handles it.", "PDF attachments"),
    ("Drop the PDF attachments: a link is enough.", "PDF attachments"),
    ("The jobs-low queue is retired.", "jobs-low queue"),
])
def test_the_ordinary_ways_of_saying_what_is_replaced(text: str, phrase: str) -> None:
    assert phrase in replaced(text) and says_replacement(text)


@pytest.mark.parametrize(("text", "phrase"), [
    ("Webpack got replaced by Vite in the frontend repo.", "Webpack"),
    ("We threw out the custom auth middleware and use Auth0 now.", "custom auth middleware"),
    ("Jest is no longer our test runner, Vitest is.", "Jest"),
    ("Merging without CI passing isn't allowed anymore.", "Merging without CI passing"),
    ("Please ignore my earlier comment about pinning protobuf.", "pinning protobuf"),
    ("Monday? No — the planning session is Tuesday now.", "Monday"),
    ("Correction: the Slack channel is #deploys (previously #releases).", "#releases"),
    ("Thursday is the new Friday for demos.", "Friday"),
])
def test_wordings_that_name_the_old_value_around_a_verb_of_ending(text: str, phrase: str) -> None:
    assert phrase in replaced(text) and says_replacement(text)


@pytest.mark.parametrize("text", [
    "No worries, Jon!", "Let me know if you need any more.", "Would it make sense to replace Consul with etcd?",
    "We may move the docs to Docusaurus at some point.", "We didn't switch banks after all.",
    "I walked to work instead of taking the tram this morning.", "The replace() call strips the newline characters.",
    "I'm used to the old dashboard.", "Not that I know of.",
])
def test_questions_hedges_denials_and_chit_chat_replace_nothing(text: str) -> None:
    assert replaced(text) == [] and not says_replacement(text)


def test_switch_to_is_a_replacement_frame_even_without_the_old_value() -> None:
    assert says_replacement("Please switch to tabs.") and not says_replacement("Please use tabs.")


def test_lexical_evidence_needs_the_numbers_and_most_words_in_the_main_clause() -> None:
    assert asserts("Invoices are rounded to 4 decimals.", "4", 0.6)
    assert not asserts("Invoices are rounded to 2 decimals, not 4.", "4", 0.6)  # it rejects 4
    assert asserts("Reports are emailed as PDF attachments with a cover note.", "PDF attachments", 0.6)
    assert not asserts("Reports are a table, not long paragraphs.", "long paragraphs", 0.6)


def test_slot_text_masks_values_options_and_what_is_replaced() -> None:
    assert slot_text("Invoices are rounded to 2 decimals, not 4.") == slot_text("Invoices are rounded to 4 decimals.")
    assert "#" in slot_text("Use tabs for indentation.")
