"""Governance of what is stored (DESIGN §7, §8): hard forgetting, export and import, re-embedding a
store with another model, and the memory quality metrics with their alerts."""
