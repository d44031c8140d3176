"""Scoped retrieval (DESIGN §4.6): recall and ranking, the note index and its per-scope blocks, the
raw-turn layer, the memory block, the retrieval log and the hit/feedback tallies."""
