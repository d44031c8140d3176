"""A tiny file in LoCoMo's shape, with each of the real file's quirks in it once."""

from __future__ import annotations

import json
from pathlib import Path

SAMPLE = [
    {
        "sample_id": "conv-1",
        "conversation": {
            "speaker_a": "Ana", "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat called Pixel last week."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I started rowing on the river."},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "Look at this.", "img_url": ["x"],
                 "blip_caption": "a photo of a cat on a windowsill"},
            ],
            "session_2_date_time": "not a date",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "The rowing race is in Hamburg in June."},
                {"speaker": "Ana", "dia_id": "D2:2", "text": "My sister moved to Lisbon for a teaching job."},
            ],
            "session_3_date_time": "9:00 am on 1 June, 2023",
        },
        "qa": [
            {"question": "What is the name of Ana's cat?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
            {"question": "Where is Ben's rowing race?", "answer": "Hamburg", "evidence": ["D2:1; D1:2"], "category": 1},
            {"question": "Where did Ana's sister move?", "answer": "Lisbon", "evidence": ["D:2:02"], "category": 2},
            {"question": "Is Ana an animal lover?", "answer": "yes", "evidence": [], "category": 3},
            {"question": "What did Ben paint?", "evidence": ["D1:2"], "category": 5, "adversarial_answer": "x"},
            {"question": "Which month is the race?", "answer": "June", "evidence": ["D9:99", "D"], "category": 2},
        ],
    },
    {
        "sample_id": "conv-2",
        "conversation": {
            "speaker_a": "Cy", "speaker_b": "Di",
            "session_1_date_time": "10:15 am on 3 March, 2022",
            "session_1": [
                {"speaker": "Cy", "dia_id": "D1:1", "text": "I am learning the cello."},
                {"speaker": "Di", "dia_id": "D1:2", "text": "I bake sourdough every Sunday."},
            ],
        },
        "qa": [
            {"question": "What instrument does Cy learn?", "answer": "cello", "evidence": ["D1:1"], "category": 4},
        ],
    },
]


def write_locomo_sample(folder: Path) -> Path:
    path = folder / "locomo-sample.json"
    path.write_text(json.dumps(SAMPLE))
    return path
