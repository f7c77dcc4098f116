# SPDX-License-Identifier: GPL-2.0
"""What strunner's unit tests share (not a test file: run.py collects
test_*.py only)."""

import os


def write(top, path, text, mode=None):
    """TOP/PATH holding TEXT, its directories made, chmod'ed to MODE if
    given; its path."""
    path = os.path.join(top, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)
    return path
