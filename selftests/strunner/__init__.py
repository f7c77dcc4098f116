# SPDX-License-Identifier: GPL-2.0
"""make check's host side in Python, as tools/testing/kunit does it; the
statistics come from the bench's (bench/stbench/stats.py)."""

import itertools


def number(word):
    """WORD as a float, 0 for a word that is not a number (as awk reads
    it)."""
    try:
        return float(word)
    except ValueError:
        return 0.0


def read_lines(path, limit=None):
    """PATH's lines without their ends (and without a serial port's
    carriage returns), the first LIMIT of them if given, or none for a
    file that is not there."""
    try:
        with open(path, encoding="utf-8", errors="replace",
                  newline="\n") as f:
            return [line.rstrip("\n").replace("\r", "")
                    for line in itertools.islice(f, limit)]
    except FileNotFoundError:
        return []


def read_text(path):
    """PATH's text, or "" for a file that is not there or not read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""
