"""Numba's on-disk cache for the umap-learn kernels a mining run compiles.

umap-learn compiles several kernels without ``cache=True`` (the fuzzy simplicial set, the layout's
epoch step, the placement of new points), so every new process paid about 12 s of compilation for
its first fit: each mining task, the explorer's map, the first run after a restart. :func:`enable`
swaps those module attributes for dispatchers of the same Python functions with the same options
and ``cache=True`` before anything calls them, so the compiled code lands on disk once (at set-up,
``python -m mining.warm``) and later processes load it. Kernels called only from inside another
kernel are compiled into it and cached with it.
"""

from __future__ import annotations

import importlib

#: (module, function) pairs that umap-learn 0.5 compiles uncached and a mining run calls.
KERNELS = (
    ("umap.umap_", "smooth_knn_dist"),
    ("umap.umap_", "compute_membership_strengths"),
    ("umap.umap_", "init_transform"),
    ("umap.umap_", "init_update"),
    ("umap.layouts", "_nb_optimize_layout_euclidean_single_epoch"),
    ("umap.layouts", "_nb_optimize_layout_euclidean_single_epoch_parallel"),
    ("umap.utils", "fast_knn_indices"),
)

_done = False


def enable() -> None:
    """Make the kernels cached (idempotent; a kernel umap-learn already caches is left alone)."""
    global _done
    if _done:
        return
    from numba import njit
    from numba.core.registry import CPUDispatcher

    for module_name, name in KERNELS:
        module = importlib.import_module(module_name)
        kernel = getattr(module, name, None)
        if isinstance(kernel, CPUDispatcher) and not kernel.targetoptions.get("cache"):
            options = {k: v for k, v in kernel.targetoptions.items() if k != "nopython"}
            setattr(module, name, njit(cache=True, **options)(kernel.py_func))
    _done = True
