"""Measuring memory: seeded fleet scenarios with ground truth, quality metrics, comparison arms, LoCoMo.

Nothing shipped imports it (tests may); the benchmarks (``python -m bench``) use it to show what
consolidation buys over piling up raw logs.
"""
