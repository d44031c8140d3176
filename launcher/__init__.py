"""The entry side: what wires the parts together (a whole local Reverie, ``launcher.local``) and what
the CLI runs beyond parsing (``launcher.demo`` for ``reverie demo``, ``launcher.figures`` for PNGs).

``reverie/``, ``actors/``, ``mining/`` and ``serve/`` never import each other's parts (DESIGN §2);
this package is the app launcher that does, for the CLI (``reverie up``, ``reverie demo``), the
benchmarks and the tests. Nothing in those four packages imports it.
"""
