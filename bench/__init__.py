"""The benchmark suite: ``python -m bench`` (see ``bench/__main__.py``; entries register in ``bench.registry``)."""
