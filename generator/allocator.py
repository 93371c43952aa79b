"""How a long-running process (serve) asks the C allocator to give memory back, where it can be asked.

CPython takes every object larger than 512 bytes from malloc. With glibc's defaults, two things keep what
a rebuild frees out of the system's reach: each thread that allocates gets an arena of its own (serve
rebuilds in its own thread, so the first build's memory and every rebuild's sit in different arenas, and
neither reuses the other's free space), and each large block freed raises the size from which blocks are
mapped on their own (up to 32 MB), so the next large texts and tables are carved from the arenas, which
then only grow. At 10,000 proposals, serve's peak resident memory grew by some 55 MB over ten edits so
(274 MB after the first build, 330 MB after the edits; 285 MB with the settings below). And what a rebuild
frees inside the heap stays resident until the allocator is asked to hand its pages back (`trim_heap`, after
each rebuild): the next rebuild's peak then starts lower (at 10,000 proposals, 302 MB after the bench's
edits instead of 308 MB).
"""
from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable

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


def trim_heap() -> None:
    """Hand the pages the last rebuild freed inside the heap back to the system (glibc's malloc_trim; elsewhere
    nothing). Some ten milliseconds for a long game's heap: called once a rebuild is shown, not before."""
    malloc_trim = _malloc_trim()
    if malloc_trim is not None:
        malloc_trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, looked up once (a lookup leaves a cycle for the collector)."""
    try:
        malloc_trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    malloc_trim.argtypes, malloc_trim.restype = (ctypes.c_size_t,), ctypes.c_int
    return malloc_trim
