# SPDX-License-Identifier: GPL-2.0
"""--scoped: a configuration and stock at once, in two cgroups v2.

The module holds the configuration's knobs, and every feature those
knobs touch has its scope (features/<name>/scope) on the configuration's
cgroup, so the other cgroup's instance of the same workload gets stock's
decisions.  This file makes the two cgroups, writes the scopes and puts
everything back: every scope to "/", the cgroups it made removed (never
one it did not make), no task left in them.
"""

import errno
import os
import signal
import time

from . import module as modmod
from .module import BenchError
from .util import read

CGROUPS = ("st_bench_a", "st_bench_b")
SIDES = ("a", "b")
# Workloads two instances of which cannot run at once: why.
REFUSED = {
    "tbench": "tbench_srv listens on the fixed port 7003: a second instance cannot",
    "numa": "st_numa_work is sized to a quarter of RAM and its figures are /proc/vmstat's, "
            "counted for the whole machine",
}
CAVEAT = ("both configurations ran at once on the same CPUs and share the machine (caches, memory "
          "bandwidth, the runqueues): each figure is one configuration's under the other's load, "
          "not either alone")


def cgroup2_mount(root="/"):
    """Where cgroup v2 is mounted (as /proc/self/mounts says), or None."""
    for line in (read(os.path.join(root, "proc/self/mounts")) or "").splitlines():
        f = line.split()
        if len(f) >= 3 and f[2] == "cgroup2":
            return f[1].replace("\\040", " ")
    return None


def refused_workload(name):
    """Why a workload cannot run twice at once (None: it can)."""
    return REFUSED.get(name.split("-")[0])


def features_of(cfg):
    """The features a configuration's knobs touch, and those whose hooks
    it installs (a hosted feature decides in its host's)."""
    return {modmod.KNOB_FEATURE[k] for k in cfg.overrides() if k in modmod.KNOB_FEATURE} | cfg.needs()


class Scoped:
    """The two cgroups and the scopes.  sysfs, root: the module's sysfs
    directory and the machine's root (the tests: fake trees)."""

    def __init__(self, sysfs=None, root="/", log=print):
        self.sysfs = sysfs or modmod.SYSFS
        self.root = root
        self.log = log
        self.mount = None
        self.created = []        # cgroups this bench made: the only ones it removes
        self.written = False     # a scope was written: restore puts every one to "/"
        self.rmdir = os.rmdir    # (the tests: a fake cgroupfs has plain files)

    # --- what the machine and the module offer ----------------------------
    def find_mount(self):
        """The cgroup v2 mount, or a BenchError saying there is none."""
        self.mount = cgroup2_mount(self.root)
        if self.mount is None:
            raise BenchError("--scoped needs cgroup v2, and this machine has none mounted "
                             "(no cgroup2 in /proc/self/mounts)")
        for n in CGROUPS:
            if os.path.exists(self.dir(n)):
                raise BenchError("--scoped: cgroup %s exists already: another bench is running, or one "
                                 "was killed before it removed it (rmdir it when it holds no task)"
                                 % self.path_of(n))
        return self.mount

    def dir(self, name):
        return os.path.join(self.root, (self.mount or "/sys/fs/cgroup").lstrip("/"), name)

    def path_of(self, name):
        """The cgroup as a user finds it (the mount point and its name)."""
        return os.path.join(self.mount or "/sys/fs/cgroup", name)

    @staticmethod
    def scope_value(side):
        """What a scope file holds for the cgroup of side a or b."""
        return "/" + CGROUPS[SIDES.index(side)]

    def procs(self, side):
        """The cgroup.procs file a workload of side a or b writes itself to."""
        return os.path.join(self.dir(CGROUPS[SIDES.index(side)]), "cgroup.procs")

    def scope_files(self):
        """{feature: its scope file} for the features that have one."""
        d = os.path.join(self.sysfs, "features")
        out = {}
        try:
            names = sorted(os.listdir(d))
        except OSError:
            return out
        for n in names:
            p = os.path.join(d, n, "scope")
            if os.path.isfile(p):
                out[n] = p
        return out

    def read_scopes(self):
        return {f: read(p) for f, p in self.scope_files().items()}

    def check_module(self):
        """The module, loaded, must have scope files, every one at "/":
        the bench puts them back to "/", so it must find them there."""
        scopes = self.read_scopes()
        if not scopes:
            raise BenchError("--scoped needs a module with features/*/scope (sched_tune with cgroup "
                             "scopes); %s/features has none" % self.sysfs)
        set_ = ["%s=%s" % (f, v) for f, v in sorted(scopes.items()) if v != "/"]
        if set_:
            raise BenchError("--scoped: the scopes must all be / at the start, as the bench leaves them; "
                             "found %s (echo / > %s/features/NAME/scope)" % (", ".join(set_), self.sysfs))
        return scopes

    def skip_reason(self, cfg, support):
        """Why cfg cannot be kept to one cgroup here (None: it can)."""
        files = self.scope_files()
        lack = sorted(f for f in features_of(cfg) if f not in files and support.get(f) != "unsupported")
        if lack:
            return "--scoped: features %s have no scope file in this module" % ", ".join(lack)
        return None

    # --- side effects, undone by restore() --------------------------------
    def create(self):
        for n in CGROUPS:
            try:
                os.mkdir(self.dir(n))
            except OSError as e:
                raise BenchError("--scoped: cannot make cgroup %s: %s" % (self.path_of(n), e.strerror or e))
            self.created.append(n)
        self.log("cgroups %s made for --scoped" % ", ".join(self.path_of(n) for n in CGROUPS))

    def targets(self, cfg, side, support):
        """{feature: scope}: cfg's features on its cgroup, every other "/"."""
        mine = {f for f in features_of(cfg) if support.get(f) != "unsupported"}
        return {f: self.scope_value(side) if f in mine else "/" for f in self.scope_files()}

    def apply(self, cfg, side, support):
        """The scopes for cfg in the cgroup of side; returns them."""
        want = self.targets(cfg, side, support)
        cur = self.read_scopes()
        for f, v in sorted(want.items()):
            if cur.get(f) != v:
                self.write(f, v)
        return want

    def write(self, feature, value):
        self.written = True
        p = os.path.join(self.sysfs, "features", feature, "scope")
        try:
            with open(p, "w") as f:
                f.write(value)
        except OSError as e:
            raise BenchError("writing %s to features/%s/scope: %s" % (
                value, feature, errno.errorcode.get(e.errno, e)))

    def verify(self, want):
        """Problems of the scopes read back against want (empty: none)."""
        got = self.read_scopes()
        return ["features/%s/scope reads %s, the bench wrote %s" % (f, got.get(f), v)
                for f, v in sorted(want.items()) if got.get(f) != v]

    def restore(self):
        """Every scope to "/", the bench's cgroups emptied and removed;
        returns a list of problems (empty: done)."""
        problems = []
        if self.written and os.path.isdir(self.sysfs):
            for f, v in sorted(self.read_scopes().items()):
                if v != "/":
                    try:
                        self.write(f, "/")
                    except BenchError as e:
                        problems.append(str(e))
            left = ["%s=%s" % (f, v) for f, v in sorted(self.read_scopes().items()) if v != "/"]
            if left:
                problems.append("scopes not back to /: %s" % ", ".join(left))
        for n in list(reversed(self.created)):
            why = self.remove(n)
            if why:
                problems.append(why)
            else:
                self.created.remove(n)
        return problems

    def remove(self, name):
        """Kills what is left in one of the bench's cgroups, removes it."""
        d = self.dir(name)
        why = None
        for _ in range(50):
            self.kill(d)
            try:
                self.rmdir(d)
                return None
            except FileNotFoundError:
                return None
            except OSError as e:
                why = "removing cgroup %s: %s" % (self.path_of(name), errno.errorcode.get(e.errno, e))
                if e.errno != errno.EBUSY:
                    break
            time.sleep(0.1)
        return why

    @staticmethod
    def kill(d):
        """SIGKILL to every task of cgroup d (cgroup.kill where the kernel
        has it, 5.14 on); the bench's workloads only: it made d.  Only in
        a real cgroup (it has cgroup.controllers): a pid in a plain file
        may be anyone's by now."""
        if not os.path.exists(os.path.join(d, "cgroup.controllers")):
            return
        k = os.path.join(d, "cgroup.kill")
        if os.path.exists(k):
            try:
                with open(k, "w") as f:
                    f.write("1")
                return
            except OSError:
                pass
        for pid in (read(os.path.join(d, "cgroup.procs")) or "").split():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (ValueError, ProcessLookupError, PermissionError):
                pass

    def to_json(self, cpus):
        return {"cgroups": {s: self.path_of(n) for s, n in zip(SIDES, CGROUPS)},
                "scope_values": {s: self.scope_value(s) for s in SIDES},
                "cpus": cpus,
                "alternation": "the configuration in st_bench_a in odd rounds, in st_bench_b in even "
                               "ones, stock in the other; st_bench_a's instance is started first",
                "caveat": CAVEAT}
