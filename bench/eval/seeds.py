"""The frozen seeds of the fleet scenarios, fixed before any component was tuned.

Tune only on the development scenarios (``DEV_SEED`` with the development phrasebook, ``DEV2_SEED``
with the second, ``DEV3_SEED`` with the third, ``DEV4_SEED`` with the fourth, ``DEV5_SEED`` with the
fifth, ``DEV6_SEED`` with the sixth and ``DEV7_SEED`` with the seventh, each an independently worded
development phrasebook). The held-out scenario (``HELDOUT_SEED`` with the held-out phrasebook, whose
wording and content differ) is run for reporting only; changing any seed, or tuning on held-out
numbers, voids the comparison.
``DEV2_SEED`` came later, with the ``dev2`` phrasebook; it was fixed before any ``dev2`` scenario
was generated. ``DEV3_SEED`` came later still, with the ``dev3`` phrasebook, and was likewise fixed
before any ``dev3`` scenario was generated; so was ``DEV4_SEED``, with the ``dev4`` phrasebook, before
any ``dev4`` scenario was generated, ``DEV5_SEED``, with the ``dev5`` phrasebook, before any ``dev5``
scenario was generated, ``DEV6_SEED``, with the ``dev6`` phrasebook, before any ``dev6`` scenario was
generated, and ``DEV7_SEED``, with the ``dev7`` phrasebook, before any ``dev7`` scenario was generated.
"""

from __future__ import annotations

from typing import Final

DEV_SEED: Final[int] = 80_101
HELDOUT_SEED: Final[int] = 80_977
DEV2_SEED: Final[int] = 81_353
#: The third development seed (``dev3`` phrasebook), a new value chosen when that book was written.
DEV3_SEED: Final[int] = 82_417
#: The fourth development seed (``dev4`` phrasebook), a new value chosen when that book was written.
DEV4_SEED: Final[int] = 83_961
#: The fifth development seed (``dev5`` phrasebook), a new value chosen when that book was written.
DEV5_SEED: Final[int] = 84_637
#: The sixth development seed (``dev6`` phrasebook), a new value chosen when that book was written.
DEV6_SEED: Final[int] = 85_829
#: The seventh development seed (``dev7`` phrasebook), a new value chosen when that book was written.
DEV7_SEED: Final[int] = 86_743
