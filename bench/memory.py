"""Peak resident memory of this process during one benchmark entry.

On Linux the kernel's high-water mark (``VmHWM``) is reset by writing ``5`` to
``/proc/self/clear_refs``; where that is not possible the peak since the process started is reported
and marked as such. Memory of other processes an entry starts (Ray workers) is not included: such
entries measure it themselves.
"""

from __future__ import annotations

import re
import resource
from pathlib import Path
from types import TracebackType

_STATUS = Path("/proc/self/status")
_CLEAR = Path("/proc/self/clear_refs")


def _high_water_kib() -> int:
    if _STATUS.exists():
        found = re.search(r"VmHWM:\s+(\d+)\s+kB", _STATUS.read_text())
        if found:
            return int(found.group(1))
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


class PeakMemory:
    """``with PeakMemory() as peak: ...`` then ``peak.mib`` and ``peak.scope``."""

    def __init__(self) -> None:
        self.mib = 0.0
        self.scope = "entry"

    def __enter__(self) -> PeakMemory:
        try:
            _CLEAR.write_text("5")
        except OSError:
            self.scope = "process"
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.mib = _high_water_kib() / 1024
