"""How serve, a long-running process, keeps what its updates free within the system's reach, where the C
allocator can be asked.

CPython takes every object larger than 512 bytes from malloc. With glibc's defaults, each thread that allocates
gets an arena of its own (serve updates in one thread and draws in others, so each update's memory and each
drawing's sit in different arenas, neither reusing the other's free space), and each large block freed raises
the size from which blocks are mapped on their own, so the next large texts and tables are carved from the
arenas, which then only grow. At 10,000 proposals, serve's peak resident memory over the benchmark's edits
(bench/scale.py) was 230 MB so, and 184 MB with the settings below.
"""
from __future__ import annotations

import ctypes

# From glibc's malloc.h.
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
# glibc's own starting value: blocks this large or larger are mapped alone and given back when freed.
MMAP_THRESHOLD = 128 * 1024


def give_memory_back() -> bool:
    """One arena for all threads and a fixed size from which blocks are mapped alone (glibc only; elsewhere
    nothing changes). Call before other threads start. Whether the allocator took both settings."""
    try:  # the C library the interpreter runs on, through its own symbols
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # without mallopt (macOS), or no such lookup (Windows)
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    # mallopt returns 1 on success; musl's stub returns 0 and changes nothing.
    return bool(mallopt(M_ARENA_MAX, 1)) & bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
