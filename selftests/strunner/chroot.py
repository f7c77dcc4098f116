# SPDX-License-Identifier: GPL-2.0
"""A command in one of make check's cached Debian chroots (lib.sh
st_in_chroot).

    python3 -m strunner.chroot CACHE SUITE CMD...

CMD runs as root in CACHE/chroot/SUITE with a clean environment and a
/proc of its own (7.x objtool reads the stack limit from /proc), in a
private mount namespace, so nothing stays mounted and runs never race.
This process becomes it (exec): its status, its standard streams and
the signals sent to it are CMD's.  ST_CHROOT_TMP=DIR: the caller's DIR
is the chroot's /tmp there.  A user who is not root is root in a user
namespace of its own (with a PID namespace its /proc needs), where the
chroot's files, owned by the real root, are read-only: it reads the
package lists and builds in its ST_CHROOT_TMP (make lint).
"""

import os
import sys

ENV = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root",
       "DEBIAN_FRONTEND=noninteractive", "LC_ALL=C.UTF-8"]

# the inner shell of the namespaced case: /tmp bound, then the chroot
BIND = ('dir=$1 tmp=$2; shift 2; '
        'if [ -n "$tmp" ]; then mount --bind "$tmp" "$dir/tmp" || exit 1; fi; '
        'exec chroot "$dir" /usr/bin/env -i "$@"')


def chroot_dir(cache, suite):
    """Where SUITE's chroot lives under CACHE."""
    return os.path.join(cache, "chroot", suite)


def argv(cache, suite, cmd, tmp="", root=True):
    """The command line that runs CMD (a list) in SUITE's chroot."""
    d = chroot_dir(cache, suite)
    proc = "--mount-proc=" + os.path.join(d, "proc")
    if root and not tmp:
        return ["unshare", proc, "chroot", d, "/usr/bin/env", "-i"] + ENV + cmd
    user = [] if root else ["--map-root-user"]
    return (["unshare"] + user + ["--mount", "--pid", "--fork", proc,
                                  "sh", "-c", BIND, "sh", d, tmp]
            + ENV + cmd)


def main(args):
    if len(args) < 4:
        sys.exit("usage: python3 -m strunner.chroot CACHE SUITE CMD...")
    cmd = argv(args[1], args[2], args[3:], os.environ.get("ST_CHROOT_TMP", ""),
               os.geteuid() == 0)
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main(sys.argv)
