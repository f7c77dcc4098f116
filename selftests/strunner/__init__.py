# SPDX-License-Identifier: GPL-2.0
"""make check's host side in Python, as tools/testing/kunit does it; the
statistics come from the bench's (bench/stbench/stats.py)."""

import fcntl
import itertools
import os
import shutil
import signal
import subprocess
import sys


class Error(Exception):
    """What make check's host side could not do, in words for the log;
    a module's command line prints it as "error: ..." and exits 1."""


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


def log(text):
    """TEXT as a line for the log ("# TEXT"), at once."""
    print("# " + text, flush=True)


def comments(lines, prefix="#   "):
    """Records of LINES shown as comments, each after PREFIX."""
    return [(prefix + x,) for x in lines]


def tail(path, n=30):
    """Prints PATH's last N lines, the log of a command that failed, as
    comments (a stream of records or results passes them on)."""
    for line in read_lines(path)[-n:]:
        print("#   " + line)
    print(end="", flush=True)


def locked(path):
    """PATH opened and flock'ed (flock(1)'s lock too); closing it ends
    the lock."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    f = open(path, "a")  # pylint: disable=consider-using-with
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def copy_tree(src, dst):
    """SRC's tree into DST (made), as tar would: links kept, the top
    level's build/ and .git/ left out."""
    shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True,
                    ignore=lambda d, names: [n for n in names
                                             if d == src and n in ("build", ".git")])


def run_logged(cmd, log_path, append=False, env=None):
    """CMD's status, its output (stderr too) in LOG_PATH."""
    with open(log_path, "a" if append else "w") as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env,
                              check=False).returncode


def stop_on_sigterm():
    """SIGTERM (make check's deadline) ends this process by SystemExit,
    so that its finally clauses run: a build's make killed and its copy
    removed, a mount taken down."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))


def check(name, good):
    """A result record: NAME passed if GOOD."""
    return "R", "pass" if good else "fail", name, ""


def missing(name, items, how=" (missing:%s)"):
    """A result NAME that fails with the ITEMS missing named after it
    (HOW, each item after a space)."""
    return check(name + (how % "".join(" " + x for x in items) if items else ""), not items)


def found(name, items, how=" (%s)"):
    """A result NAME that fails with the ITEMS found named after it
    (HOW, each item before a space)."""
    return check(name + (how % "".join(x + " " for x in items) if items else ""), not items)


def records(recs):
    """Prints RECS, tuples of fields, one a line for lib.sh st_records:
    fields split by the unit separator (0x1f), so that empty ones
    survive bash's read."""
    for rec in recs:
        print("\x1f".join(str(x).replace("\x1f", " ") for x in rec), flush=True)


def cli(words, doc, commands, errors=(Error,)):
    """The exit status of a module's command line, WORDS (sys.argv[1:]).
    COMMANDS maps a command, the first word, to (COUNT, FUNCTION), or is
    one (COUNT, FUNCTION) for a module without commands: FUNCTION takes
    the other words, COUNT is how many or a test of how many.  FUNCTION
    returns the status, None for 0; ERRORS it raises print "error: ..."
    and give 1.  Words that fit no command exit with the usage, DOC's
    second paragraph."""
    if isinstance(commands, dict):
        count, fn = commands.get(words[0], (0, None)) if words else (0, None)
        words = words[1:]
    else:
        count, fn = commands
    if fn is None or not (count(len(words)) if callable(count) else len(words) == count):
        sys.exit(doc.split("\n\n")[1])
    try:
        rc = fn(*words)
    except errors as e:
        sys.stdout.flush()
        print("error: %s" % e, file=sys.stderr)
        return 1
    assert rc is None or isinstance(rc, int), "%r is no exit status" % (rc,)
    return 0 if rc is None else rc
