"""
Timing and printing shared by the odds benches (bench/bench_*_odds.py).

Every figure is the median, in ms, of several runs timed with time.perf_counter; the rows
print it beside icepool's figure measured in the same run and the ratio between them.
"""

import os
import statistics
import sys
import time

import icepool


def median_ms(call, repeats, before=None):
    """Median ms of `repeats` calls; `before` (untimed) runs ahead of each, e.g. to clear caches."""
    times = []
    for _ in range(repeats):
        if before:
            before()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def print_header(subject, our_repeats, icepool_repeats):
    """The first line: what is compared, on which versions and machine, and how often each ran."""
    print(
        f"{subject} vs icepool {icepool.__version__}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs; medians of {our_repeats} (ours) / {icepool_repeats} (icepool) runs, ms per query"
    )


def print_cold_warm_row(label, figures, *, label_width, icepool_spec, ratio_width, note=" faster than icepool"):
    """One query, ours and icepool's each cold and warm: `figures` is (ours cold, ours warm,
    icepool cold, icepool warm)."""
    ours_cold, ours_warm, ice_cold, ice_warm = figures
    print(
        f"{label:<{label_width}} {ours_cold:9.3f} {ours_warm:9.3f} {ice_cold:{icepool_spec}} {ice_warm:{icepool_spec}}"
        f"   cold {ice_cold / ours_cold:{ratio_width}.0f}x{note}, warm {ice_warm / ours_warm:{ratio_width}.0f}x"
    )


def print_uncached_row(label, label_width, ours, ice_cold, ice_warm):
    """One query where ours keeps no cache (one figure) and icepool is timed cold and warm."""
    print(
        f"{label:<{label_width}} {ours:8.3f} {ice_cold:12.2f} {ice_warm:12.2f}"
        f"   {ice_cold / ours:6.0f}x faster than icepool cold, {ice_warm / ours:6.0f}x warm"
    )
