"""dealerbox's benchmark suite: ``bench/run`` (or ``python -m bench``) runs every benchmark, prints one table
and writes ``bench/results/latest.json``. Not a test: nothing here asserts a timing (see docs/performance.md).
"""
