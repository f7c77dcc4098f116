# SPDX-License-Identifier: GPL-2.0
"""make check's host side in Python, as tools/testing/kunit does it; the
statistics come from the bench's (bench/stbench/stats.py)."""
