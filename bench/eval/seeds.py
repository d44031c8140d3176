"""The frozen seeds of the fleet scenarios, fixed before any component was tuned.

Tune only on the development scenario (``DEV_SEED`` with the development phrasebook). The held-out
scenario (``HELDOUT_SEED`` with the held-out phrasebook, whose wording and content differ) is run
for reporting only; changing either seed, or tuning on held-out numbers, voids the comparison.
"""

from __future__ import annotations

from typing import Final

DEV_SEED: Final[int] = 80_101
HELDOUT_SEED: Final[int] = 80_977
