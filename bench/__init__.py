"""Benchmark scripts (run each as `python bench/bench_x.py` from the repository root).

A package so that the scripts can share `bench._timing` and `bench._v5_icepool` by one name,
whichever way they are started.
"""
