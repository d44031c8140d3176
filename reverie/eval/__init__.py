"""Measuring memory: seeded fleet scenarios with ground truth, quality metrics, comparison arms, LoCoMo.

Nothing here is imported by the service; the benchmarks (``python -m bench``) and ``reverie demo``
use it to show what consolidation buys over piling up raw logs.
"""
