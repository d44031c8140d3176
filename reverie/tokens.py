"""Token counting with the bundled model's own tokenizer (the light ``tokenizers`` library, no torch)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tokenizers import Tokenizer

from reverie.embed import bundled_model_path


class TokenCounter:
    """Counts WordPiece tokens the way all-MiniLM-L6-v2 sees them, without truncation."""

    def __init__(self, model_path: str | None = None) -> None:
        path = Path(model_path or bundled_model_path()) / "tokenizer.json"
        self._tokenizer = Tokenizer.from_file(str(path))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [len(encoding.ids) for encoding in encodings]
