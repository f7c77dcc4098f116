# SPDX-License-Identifier: GPL-2.0
"""apt for the host and the chroots (strunner.host, strunner.chroot):
the machine's own apt sources read, apt-get, dpkg-query.

make check's chroots and the host's bookworm-backports are fed from the
mirrors of the machine's apt sources (uri, mirror), and no mirror host is
ever written into the repository.
"""

import glob
import os
import re
import subprocess

from strunner import Error, locked, read_text, tail


def uri(wanted, etc="/etc/apt"):
    """The URI of ETC's first apt source for suite WANTED, or ""."""
    for path in sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.sources"))):
        for stanza in re.split(r"\n[ \t]*\n", read_text(path)):
            fields = {}
            for line in stanza.splitlines():
                key, sep, value = line.partition(":")
                if sep and not line[:1].isspace():
                    fields[key.strip()] = value.split()
            if wanted in fields.get("Suites", []) and fields.get("URIs") and \
                    fields.get("Enabled", ["yes"]) != ["no"]:
                return fields["URIs"][0]
    lists = [os.path.join(etc, "sources.list")]
    lists += sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.list")))
    for path in lists:
        for line in read_text(path).splitlines():
            words = line.split()
            if not words or words[0] != "deb":
                continue
            i = 1
            if words[i:] and words[i].startswith("["):
                while i < len(words) and not words[i].endswith("]"):
                    i += 1
                i += 1
            if len(words) > i + 1 and words[i + 1] == wanted:
                return words[i]
    return ""


def mirror(suite, etc="/etc/apt", what="Debian mirror"):
    """uri(SUITE, ETC); raises Error if there is none."""
    found = uri(suite, etc)
    if not found:
        raise Error("no apt source for %s in %s: cannot tell which %s to use"
                    % (suite, etc, what))
    return found


def query(pkg, field, root="/"):
    """dpkg-query's FIELD of PKG in the system at ROOT (read as any
    user), or "" for a package it does not know."""
    return subprocess.run(["dpkg-query", "--admindir=" + os.path.join(root, "var/lib/dpkg"),
                           "-W", "-f=${%s}" % field, pkg],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          check=False).stdout


def installed(pkg, root="/"):
    """Whether PKG is installed in the system at ROOT."""
    return query(pkg, "db:Status-Status", root) == "installed"


def release(args):
    """([-t, RELEASE] or [], the packages) of install's ARGS."""
    opts = args[:2] if args[:1] == ["-t"] else []
    return opts, args[len(opts):]


def get(args, lock, log, wrap=lambda cmd: cmd, run=subprocess.run):
    """apt-get -y -qq --no-install-recommends ARGS, the command line
    WRAP makes of it (a chroot's), under the lock file LOCK, its output
    in LOG, whose last 30 lines are printed if it failed; its status."""
    cmd = wrap(["apt-get", "-y", "-qq", "--no-install-recommends"] + args)
    with locked(lock):
        with open(log, "w") as out:
            rc = run(cmd, stdout=out, stderr=subprocess.STDOUT, check=False).returncode
    if rc != 0:
        tail(log)
    return rc

