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
- wakeups: the sched:sched_wakeup tracepoint counted through
  perf_event_open (no trace buffer, schedstats left alone); without it,
  ttwu_count of /proc/schedstat (needs kernel.sched_schedstats=1).
- hardware: cycles, instructions, cache-misses (PERF_TYPE_HARDWARE) as
  one group per CPU (perf stat -a -e '{cycles,instructions,cache-misses}'):
  the PMU schedules a group's counters together, so the instructions per
  cycle come from the same time; scaled by time enabled / time running
  when the PMU multiplexes; none in a guest without a virtual PMU (qemu
  TCG): "not available".
- tracepoints: sched:sched_migrate_task and sched:sched_wakeup counted
  (PERF_TYPE_TRACEPOINT, as perf stat -e sched:... does), per CPU; and
  sched_migrate_task once more with a filter on orig_cpu/dest_cpu that
  keeps the migrations that leave their last-level cache (the rest stayed
  within it), where the machine has more than one LLC.
- runqueue wait: run_delay of /proc/schedstat (CONFIG_SCHED_INFO: time
  tasks waited on a runqueue, counted whatever kernel.sched_schedstats);
  CPU idle time: idle + iowait of /proc/stat.
- NUMA: numa_pte_updates, numa_hint_faults (and friends) of /proc/vmstat.
"""

import ctypes
import errno
import fcntl
import os
import platform
import shutil
import struct

from .util import read

PERF_TYPE_HARDWARE = 0
PERF_TYPE_SOFTWARE = 1
PERF_TYPE_TRACEPOINT = 2
PERF_COUNT_SW_CPU_MIGRATIONS = 4
PERF_ATTR_SIZE_VER0 = 64
PERF_FORMAT_TOTAL_TIME_ENABLED = 1
PERF_FORMAT_TOTAL_TIME_RUNNING = 2
PERF_FORMAT_GROUP = 8
# _IOW('$', 6, char *)
PERF_EVENT_IOC_SET_FILTER = 0x40082406
CROSS_LLC = "tp_migrate_cross_llc"
# (sample key, perf's name, type, config or tracepoint)
HW_EVENTS = (("hw_cycles", "cycles", PERF_TYPE_HARDWARE, 0),
             ("hw_instructions", "instructions", PERF_TYPE_HARDWARE, 1),
             ("hw_cache_misses", "cache-misses", PERF_TYPE_HARDWARE, 3))
TP_EVENTS = (("tp_sched_migrate_task", "sched:sched_migrate_task", PERF_TYPE_TRACEPOINT, "sched/sched_migrate_task"),
             ("tp_sched_wakeup", "sched:sched_wakeup", PERF_TYPE_TRACEPOINT, "sched/sched_wakeup"))
NR_PERF_EVENT_OPEN = {"x86_64": 298, "i686": 336, "aarch64": 241, "arm64": 241,
                      "ppc64le": 319, "s390x": 331, "riscv64": 241}
VMSTAT_KEYS = ("numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
               "numa_pages_migrated", "numa_hit", "numa_local", "numa_other")
TRACEFS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
INSTANCE = "sched_tune_bench"


def perf_open(typ, config, cpu, read_format=0, group_fd=-1):
    """perf_event_open(2) of one counting event on one CPU, all tasks (in
    group_fd's group when given); returns the fd or raises OSError."""
    nr = NR_PERF_EVENT_OPEN.get(platform.machine())
    if nr is None:
        raise OSError(errno.ENOSYS, "no perf_event_open number for %s" % platform.machine())
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    attr = ctypes.create_string_buffer(PERF_ATTR_SIZE_VER0)
    # type, size, config, sample_period, sample_type, read_format
    struct.pack_into("IIQQQQ", attr, 0, typ, PERF_ATTR_SIZE_VER0, config, 0, 0, read_format)
    fd = libc.syscall(ctypes.c_long(nr), attr, ctypes.c_int(-1), ctypes.c_int(cpu),
                      ctypes.c_int(group_fd), ctypes.c_ulong(0))
    if fd < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return fd


def set_filter(fd, expr):
    """PERF_EVENT_IOC_SET_FILTER: a tracepoint event counts only the hits
    whose fields match expr (ftrace's filter syntax)."""
    fcntl.ioctl(fd, PERF_EVENT_IOC_SET_FILTER, expr.encode() + b"\0")


def _ranges(cpus):
    out = []
    for c in sorted(set(cpus)):
        if out and c == out[-1][1] + 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def cross_llc_filter(groups):
    """The sched_migrate_task filter that keeps a migration whose orig_cpu
    and dest_cpu are in different LLC groups (groups: lists of CPUs)."""
    terms = []
    for g in groups:
        rs = _ranges(g)
        inside = "||".join("(orig_cpu>=%d&&orig_cpu<=%d)" % (a, b) for a, b in rs)
        outside = "&&".join("(dest_cpu<%d||dest_cpu>%d)" % (a, b) for a, b in rs)
        terms.append("((%s)&&(%s))" % (inside, outside))
    return "||".join(terms)


def tracepoint_id(name):
    """The id of tracepoint "sys/event" in tracefs, or raises OSError."""
    last = None
    for t in TRACEFS:
        try:
            with open(os.path.join(t, "events", name, "id")) as f:
                return int(f.read().strip())
        except (OSError, ValueError) as e:
            last = e
    raise OSError(getattr(last, "errno", errno.ENOENT) or errno.ENOENT,
                  "no %s/id in %s (tracefs not mounted?)" % (name, " or ".join(TRACEFS)))


def scaled(raw):
    """(value, enabled, running) -> value scaled to the time enabled, as
    perf stat does when the PMU multiplexes; None if it never ran."""
    v, en, run = raw
    if run == 0:
        return None if en else 0
    return v if run >= en else int(round(v * en / run))


def why_not(e, typ):
    msg = "%s (errno %s)" % (e.strerror or e, errno.errorcode.get(e.errno, e.errno))
    if typ == PERF_TYPE_HARDWARE and e.errno in (errno.ENOENT, errno.EOPNOTSUPP, errno.ENODEV):
        msg += ": no hardware PMU here (a virtual machine without a virtual PMU, or qemu TCG)"
    return msg


def raise_nofile(want):
    """One fd per event and CPU: 192 CPUs need more than the usual 1024
    soft limit; raised towards the hard limit (a process may)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < want:
            new = want if hard == resource.RLIM_INFINITY else min(want, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    except (ImportError, ValueError, OSError):
        pass  # then an event that finds no fd is "not available (EMFILE)"


class PerfEvents:
    """Hardware counters (one group per CPU) and tracepoint counts,
    system-wide, per CPU: the counting mode of perf stat -a, without a perf
    process per run.  An event that cannot be opened is "not available
    (why)", never an error."""

    def __init__(self, cpus, events=HW_EVENTS + TP_EVENTS, opener=perf_open, tp_id=tracepoint_id,
                 llc_groups=None, filt=set_filter):
        self.fds = {}
        self.groups = []            # [(leader fd, [keys])] of the hardware group
        self.status = {}
        self.multiplexed = set()
        raise_nofile(len(events) * len(cpus) + 3 * len(cpus) + 64)
        fmt = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING
        hw = [e for e in events if e[2] == PERF_TYPE_HARDWARE]
        if hw:
            self._open_group(cpus, hw, opener, fmt)
        for key, name, typ, cfg in events:
            if typ == PERF_TYPE_HARDWARE:
                continue
            fds = []
            try:
                config = tp_id(cfg) if typ == PERF_TYPE_TRACEPOINT else cfg
                for cpu in cpus:
                    fds.append(opener(typ, config, cpu, fmt))
                self.fds[key] = fds
                self.status[key] = "%s: perf_event_open counting, every CPU (as perf stat -a -e %s)" % (name, name)
            except OSError as e:
                for fd in fds:
                    os.close(fd)
                self.status[key] = "not available (%s: %s)" % (name, why_not(e, typ))
        groups = [g for g in (llc_groups or []) if g]
        if len(groups) < 2:
            self.status[CROSS_LLC] = "not counted (one last-level cache: every migration stays within it)"
        elif "tp_sched_migrate_task" not in self.fds:
            self.status[CROSS_LLC] = "not available (no sched:sched_migrate_task counter)"
        else:
            expr = cross_llc_filter(groups)
            fds = []
            try:
                config = tp_id("sched/sched_migrate_task")
                for cpu in cpus:
                    fd = opener(PERF_TYPE_TRACEPOINT, config, cpu, fmt)
                    fds.append(fd)
                    filt(fd, expr)
                self.fds[CROSS_LLC] = fds
                self.status[CROSS_LLC] = ("sched:sched_migrate_task filtered on orig_cpu/dest_cpu in different "
                                          "LLC groups (%s), every CPU" % " ".join(
                                              ",".join("%d-%d" % tuple(r) if r[0] != r[1] else str(r[0])
                                                       for r in _ranges(g)) for g in groups))
            except OSError as e:
                for fd in fds:
                    os.close(fd)
                self.status[CROSS_LLC] = "not available (filter %s: %s)" % (
                    expr if len(expr) < 200 else expr[:200] + "...", why_not(e, PERF_TYPE_TRACEPOINT))

    def _open_group(self, cpus, hw, opener, fmt):
        opened = []
        names = ",".join(e[1] for e in hw)
        try:
            for cpu in cpus:
                lead = None
                for key, name, typ, cfg in hw:
                    if lead is None:
                        lead = opener(typ, cfg, cpu, fmt | PERF_FORMAT_GROUP)
                        opened.append(lead)
                    else:
                        opened.append(opener(typ, cfg, cpu, fmt | PERF_FORMAT_GROUP, lead))
                self.groups.append((lead, [e[0] for e in hw]))
            for key, name, typ, cfg in hw:
                self.status[key] = ("%s: perf_event_open counting, every CPU, in one group {%s} (as perf stat "
                                    "-a -e '{%s}')" % (name, names, names))
            self.group_fds = opened
        except OSError as e:
            for fd in opened:
                os.close(fd)
            self.groups = []
            for key, name, typ, cfg in hw:
                self.status[key] = "not available (%s in the group {%s}: %s)" % (name, names, why_not(e, typ))

    def available(self, key):
        return key in self.fds or any(key in keys for _, keys in self.groups)

    def read(self):
        out = {}
        if self.groups:
            tot = dict.fromkeys(self.groups[0][1], 0)
            for lead, keys in self.groups:
                raw = os.read(lead, 8 * (3 + len(keys)))
                nr, en, run = struct.unpack_from("QQQ", raw)
                vals = struct.unpack_from("%dQ" % nr, raw, 24)
                for k, v in zip(keys, vals):
                    sv = scaled((v, en, run))
                    if sv is None or tot[k] is None:
                        tot[k] = None
                        continue
                    if run < en:
                        self.multiplexed.add(k)
                    tot[k] += sv
            out.update(tot)
        for key, fds in self.fds.items():
            total = 0
            for fd in fds:
                raw = struct.unpack("QQQ", os.read(fd, 24))
                v = scaled(raw)
                if v is None:
                    total = None
                    break
                if raw[2] < raw[1]:
                    self.multiplexed.add(key)
                total += v
            out[key] = total
        return out

    def close(self):
        for fds in list(self.fds.values()) + [getattr(self, "group_fds", [])]:
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.fds = {}
        self.groups = []
        self.group_fds = []


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


def schedstat_cpu(s=None):
    """{run_delay_ns, rq_cpu_time_ns} summed over the CPUs of /proc/schedstat
    (s: its text; version 15 and later: cpuN yld 0 sched goidle ttwu
    ttwu_local rq_cpu_time run_delay pcount), or {}."""
    if s is None:
        s = read("/proc/schedstat")
    if s is None:
        return {}
    delay = cpu_time = 0
    seen = False
    for line in s.splitlines():
        w = line.split()
        if w and w[0].startswith("cpu") and len(w) >= 10:
            delay += int(w[8])
            cpu_time += int(w[7])
            seen = True
    return {"run_delay_ns": delay, "rq_cpu_time_ns": cpu_time} if seen else {}


def cpu_jiffies():
    """{cpu_idle, cpu_total}: idle + iowait and all jiffies of /proc/stat's cpu line."""
    for line in (read("/proc/stat") or "").splitlines():
        w = line.split()
        if w and w[0] == "cpu":
            v = [int(x) for x in w[1:9]]
            return {"cpu_idle": v[3] + v[4], "cpu_total": sum(v)}
    return {}


def vmstat():
    out = {}
    for line in (read("/proc/vmstat") or "").splitlines():
        k, _, v = line.partition(" ")
        if k in VMSTAT_KEYS:
            out[k] = int(v)
    return out


class Counters:
    def __init__(self, cpus, module, perf_events=True, llc_groups=None):
        self.mig = MigrationCounter(cpus)
        self.module = module
        self.perf = PerfEvents(cpus, llc_groups=llc_groups) if perf_events else None

    def wakeups_from_tracepoint(self):
        return self.perf is not None and self.perf.available("tp_sched_wakeup")

    def sample(self):
        s = {"migrations": self.mig.read(), "ipi_cal": interrupts_cal(),
             "ctxt": ctxt()}
        s.update(schedstat_cpu())
        s.update(cpu_jiffies())
        if self.perf:
            s.update(self.perf.read())
        # wakeups: the tracepoint where it counts, schedstats left alone
        s["wakeups"] = s.get("tp_sched_wakeup") if self.wakeups_from_tracepoint() else schedstat_ttwu()
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
        out = {
            "migrations": self.mig.method or "unavailable (%s)" % self.mig.error,
            "ipi_cal": "/proc/interrupts CAL (function-call interrupts), all CPUs"
            if interrupts_cal() is not None else "unavailable (no CAL line)",
            "ctxt": "/proc/stat ctxt",
            "wakeups": "sched:sched_wakeup tracepoint counted through perf_event_open, every CPU "
            "(kernel.sched_schedstats left alone)" if self.wakeups_from_tracepoint() else
            "/proc/schedstat ttwu_count, all CPUs (kernel.sched_schedstats=1)"
            if schedstat_ttwu() is not None else "unavailable (no sched_wakeup tracepoint, no schedstats)",
            "numa": "/proc/vmstat " + ", ".join(VMSTAT_KEYS),
            "run_delay": "/proc/schedstat run_delay (time tasks waited on a runqueue), all CPUs"
            if schedstat_cpu() else "unavailable (no /proc/schedstat: a kernel without CONFIG_SCHED_INFO)",
            "idle": "/proc/stat cpu idle + iowait jiffies",
            "module": "/sys/kernel/sched_tune/stats/* (differences, never reset)",
        }
        if self.perf is None:
            for key, name, _, _ in HW_EVENTS + TP_EVENTS:
                out[key] = "not counted (--no-perf-events)"
            out[CROSS_LLC] = "not counted (--no-perf-events)"
        else:
            for key in [e[0] for e in HW_EVENTS + TP_EVENTS] + [CROSS_LLC]:
                out[key] = self.perf.status[key]
                if key in self.perf.multiplexed:
                    out[key] += "; multiplexed by the PMU, scaled by time enabled / running"
        return out

    def close(self):
        self.mig.close()
        if self.perf:
            self.perf.close()
