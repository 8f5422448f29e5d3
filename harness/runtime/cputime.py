"""CPU seconds from the kernel's accounts (getrusage): what our benchmarks and run reports measure, since
wall time on a shared machine follows the neighbours."""
from __future__ import annotations

import resource

__all__ = ["process_cpu_s", "children_cpu_s"]


def children_cpu_s() -> float:
    """User and system CPU seconds of this process's children that have ended (waited for)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def process_cpu_s() -> float:
    """User and system CPU seconds of this process and of its children that have ended (workers, once joined)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + children_cpu_s()
