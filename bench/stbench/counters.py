# SPDX-License-Identifier: GPL-2.0
"""System-wide counters read before and after every run.

- task migrations: the kernel's cpu-migrations software event
  (PERF_COUNT_SW_CPU_MIGRATIONS, counted in set_task_cpu(), like the
  sched_migrate_task tracepoint), one counter per CPU through
  perf_event_open(2) called with ctypes; a counter costs an increment, no
  trace buffer.  Fallback: a private tracefs instance with only
  sched:sched_migrate_task enabled, entries + overrun per CPU.
- function-call IPIs: the CAL line of /proc/interrupts (x86), summed.
- context switches: ctxt of /proc/stat.
- wakeups: ttwu_count of /proc/schedstat (needs kernel.sched_schedstats=1).
- NUMA: numa_pte_updates, numa_hint_faults (and friends) of /proc/vmstat.
"""

import ctypes
import os
import platform
import shutil
import struct

from .util import read

PERF_TYPE_SOFTWARE = 1
PERF_COUNT_SW_CPU_MIGRATIONS = 4
PERF_ATTR_SIZE_VER0 = 64
NR_PERF_EVENT_OPEN = {"x86_64": 298, "i686": 336, "aarch64": 241, "arm64": 241,
                      "ppc64le": 319, "s390x": 331, "riscv64": 241}
VMSTAT_KEYS = ("numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
               "numa_pages_migrated", "numa_hit", "numa_local", "numa_other")
TRACEFS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
INSTANCE = "sched_tune_bench"


class MigrationCounter:
    """Task migrations system-wide: perf software event or tracefs."""

    def __init__(self, cpus):
        self.fds = []
        self.method = None
        self.error = None
        self.inst = None
        try:
            self._open_perf(cpus)
            self.method = "perf_event_open(PERF_COUNT_SW_CPU_MIGRATIONS), per CPU"
        except OSError as e:
            self.close()
            self.error = "perf_event_open: %s" % e
            self._open_tracefs()

    def _open_perf(self, cpus):
        nr = NR_PERF_EVENT_OPEN.get(platform.machine())
        if nr is None:
            raise OSError("no perf_event_open number for %s" % platform.machine())
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        attr = ctypes.create_string_buffer(PERF_ATTR_SIZE_VER0)
        struct.pack_into("IIQ", attr, 0, PERF_TYPE_SOFTWARE, PERF_ATTR_SIZE_VER0,
                         PERF_COUNT_SW_CPU_MIGRATIONS)
        for cpu in cpus:
            fd = libc.syscall(ctypes.c_long(nr), attr, ctypes.c_int(-1), ctypes.c_int(cpu),
                              ctypes.c_int(-1), ctypes.c_ulong(0))
            if fd < 0:
                e = ctypes.get_errno()
                raise OSError(e, os.strerror(e))
            self.fds.append(fd)

    def _open_tracefs(self):
        for t in TRACEFS:
            if os.path.isdir(os.path.join(t, "instances")):
                inst = os.path.join(t, "instances", INSTANCE)
                try:
                    if not os.path.isdir(inst):
                        os.mkdir(inst)
                    self.inst = inst
                    with open(os.path.join(inst, "buffer_size_kb"), "w") as f:
                        f.write("64")
                    with open(os.path.join(inst, "events/sched/sched_migrate_task/enable"), "w") as f:
                        f.write("1")
                    with open(os.path.join(inst, "tracing_on"), "w") as f:
                        f.write("1")
                    self.method = "tracefs instance %s: sched_migrate_task entries + overrun" % inst
                    return
                except OSError as e:
                    self.error += "; tracefs: %s" % e
                    self.close()
        self.method = None

    def read(self):
        if self.fds:
            return sum(struct.unpack("Q", os.read(fd, 8))[0] for fd in self.fds)
        if self.inst:
            total = 0
            for st in sorted(os.listdir(os.path.join(self.inst, "per_cpu"))):
                for line in (read(os.path.join(self.inst, "per_cpu", st, "stats")) or "").splitlines():
                    k, _, v = line.partition(":")
                    if k in ("entries", "overrun"):
                        total += int(v.split()[0])
            return total
        return None

    def close(self):
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = []
        if self.inst:
            try:
                with open(os.path.join(self.inst, "events/sched/sched_migrate_task/enable"), "w") as f:
                    f.write("0")
                os.rmdir(self.inst)
            except OSError:
                shutil.rmtree(self.inst, ignore_errors=True)
            self.inst = None


def interrupts_cal():
    for line in (read("/proc/interrupts") or "").splitlines():
        w = line.split()
        if w and w[0] == "CAL:":
            return sum(int(x) for x in w[1:] if x.isdigit())
    return None


def ctxt():
    for line in (read("/proc/stat") or "").splitlines():
        if line.startswith("ctxt "):
            return int(line.split()[1])
    return None


def schedstat_ttwu():
    """Wakeups (ttwu_count summed over CPUs); None unless schedstats run."""
    s = read("/proc/schedstat")
    if s is None or read("/proc/sys/kernel/sched_schedstats") != "1":
        return None
    total = 0
    for line in s.splitlines():
        w = line.split()
        if w and w[0].startswith("cpu") and len(w) >= 6:
            total += int(w[5])
    return total


def vmstat():
    out = {}
    for line in (read("/proc/vmstat") or "").splitlines():
        k, _, v = line.partition(" ")
        if k in VMSTAT_KEYS:
            out[k] = int(v)
    return out


class Counters:
    def __init__(self, cpus, module):
        self.mig = MigrationCounter(cpus)
        self.module = module

    def sample(self):
        s = {"migrations": self.mig.read(), "ipi_cal": interrupts_cal(),
             "ctxt": ctxt(), "wakeups": schedstat_ttwu()}
        s.update(vmstat())
        s["module"] = self.module.stats() if self.module.loaded() else {}
        return s

    @staticmethod
    def delta(a, b):
        out = {}
        for k, v in b.items():
            if k == "module":
                out["module"] = {n: c - a["module"][n] for n, c in v.items()
                                 if n in a.get("module", {})}
            elif v is not None and a.get(k) is not None:
                out[k] = v - a[k]
        return out

    def methods(self):
        return {
            "migrations": self.mig.method or "unavailable (%s)" % self.mig.error,
            "ipi_cal": "/proc/interrupts CAL (function-call interrupts), all CPUs"
            if interrupts_cal() is not None else "unavailable (no CAL line)",
            "ctxt": "/proc/stat ctxt",
            "wakeups": "/proc/schedstat ttwu_count, all CPUs (kernel.sched_schedstats=1)"
            if schedstat_ttwu() is not None else "unavailable (no schedstats)",
            "numa": "/proc/vmstat " + ", ".join(VMSTAT_KEYS),
            "module": "/sys/kernel/sched_tune/stats/* (differences, never reset)",
        }

    def close(self):
        self.mig.close()
