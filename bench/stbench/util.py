# SPDX-License-Identifier: GPL-2.0
"""Small helpers shared by the bench's modules."""

import math
import sys
import time


def read(path):
    """A file's content without the trailing newline; None if unreadable."""
    try:
        with open(path) as f:
            return f.read().rstrip("\n")
    except (OSError, UnicodeDecodeError):
        return None


def read_int(path):
    v = read(path)
    try:
        return int(v.split()[0]) if v else None
    except ValueError:
        return None


def cpulist_parse(s):
    """'0-3,8,10-11' -> [0, 1, 2, 3, 8, 10, 11]."""
    out = []
    for part in (s or "").strip().split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def fmt_duration(sec):
    if sec is None or math.isinf(sec) or math.isnan(sec):
        return "?"
    sec = int(round(sec))
    h, rem = divmod(sec, 3600)
    m, s = divmod(rem, 60)
    if h:
        return "%dh%02dm" % (h, m)
    if m:
        return "%dm%02ds" % (m, s)
    return "%ds" % s


def fmt_num(v, digits=4):
    """A figure with `digits` significant digits, no exponent below 1e9."""
    if v is None:
        return "n/a"
    if isinstance(v, int):
        return str(v)
    if math.isnan(v) or math.isinf(v):
        return str(v)
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e9 or a < 1e-4:
        return "%.*g" % (digits, v)
    dec = max(0, digits - 1 - int(math.floor(math.log10(a))))
    return "%.*f" % (dec, v)


class Log:
    """Progress and notes on stderr, each line stamped with the elapsed time."""

    def __init__(self, quiet=False):
        self.t0 = time.monotonic()
        self.quiet = quiet

    def __call__(self, msg):
        if not self.quiet:
            sys.stderr.write("[%s] %s\n" % (fmt_duration(time.monotonic() - self.t0), msg))
            sys.stderr.flush()
