# SPDX-License-Identifier: GPL-2.0
"""make check's host side in Python, as tools/testing/kunit does it; the
statistics come from the bench's (bench/stbench/stats.py)."""


def read_lines(path):
    """PATH's lines without their ends (and without a serial port's
    carriage returns), or none for a file that is not there."""
    try:
        with open(path, encoding="utf-8", errors="replace",
                  newline="\n") as f:
            return [line.rstrip("\n").replace("\r", "") for line in f]
    except FileNotFoundError:
        return []
