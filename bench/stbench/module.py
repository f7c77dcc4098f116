# SPDX-License-Identifier: GPL-2.0
"""The sched_tune module, driven through sysfs only (and modprobe/rmmod).

Configurations are named knob sets.  Before each run the bench reads every
knob back and every feature's state and checks them against what the
configuration claims.  The module is left as it was found: loaded or not,
every knob at its value before the run.
"""

import errno
import os
import signal
import subprocess

from .util import read

SYSFS = "/sys/kernel/sched_tune"
MODNAME = "sched_tune"
FEATURES = ("ratelimit", "cache_level", "numa_scan", "eevdf")
# Features an older module may lack: checked only where the module has them.
OPTIONAL_FEATURES = ("eevdf",)
# The eevdf feature's slice policy: only on kernels whose slice code was
# checked (the counters work wherever the feature does); elsewhere a
# non-stock write fails with EOPNOTSUPP.
SLICE_KNOBS = ("eevdf_slice", "eevdf_slice_ns", "eevdf_latency_ns")
# Features with no hook of their own, deciding in another's: their host's
# hooks go in while they are on (sysfs-kernel-sched_tune, prev_bias, sync_short).
HOSTED = {"prev_bias": "ratelimit", "sync_short": "ratelimit"}

# Every knob at its stock value ("stock": loaded, nothing changed).
STOCK = {
    "enabled": "1",
    "passthrough": "0",
    "ratelimit_window_ns": "0",
    "ratelimit_burst": "1",
    "ratelimit_mode": "fixed",
    "ratelimit_quota": "10",
    "ratelimit_quota_replenish": "1",
    "cache_share_level": "llc",
    "cache_share_auto_llc_max": "8",
    "numa_scan_threshold": "0",
    "numa_scan_renew": "16",
    "eevdf_counters": "0",
    "eevdf_slice": "stock",
    "eevdf_slice_ns": "12000000",
    "eevdf_latency_ns": "24000000",
    "prev_bias": "0",
    "sync_short": "0",
}
# The values of the upstream patches the features come from.
SEED = {
    "ratelimit_window_ns": "2000000",
    "cache_share_level": "l2",
    "numa_scan_threshold": "50",
}
# The knob whose non-stock value turns a feature on, and the knobs of each.
FEATURE_MAIN = {
    "ratelimit": "ratelimit_window_ns",
    "cache_level": "cache_share_level",
    "numa_scan": "numa_scan_threshold",
    "prev_bias": "prev_bias",
    "sync_short": "sync_short",
}
KNOB_FEATURE = {
    "ratelimit_window_ns": "ratelimit", "ratelimit_burst": "ratelimit",
    "ratelimit_mode": "ratelimit", "ratelimit_quota": "ratelimit",
    "ratelimit_quota_replenish": "ratelimit",
    "cache_share_level": "cache_level", "cache_share_auto_llc_max": "cache_level",
    "numa_scan_threshold": "numa_scan", "numa_scan_renew": "numa_scan",
    "eevdf_counters": "eevdf", "eevdf_slice": "eevdf", "eevdf_slice_ns": "eevdf",
    "eevdf_latency_ns": "eevdf",
    "prev_bias": "prev_bias",
    "sync_short": "sync_short",
}
# Written last, so hooks go in once, with every other knob in place.
KNOB_ORDER = ["passthrough", "ratelimit_burst", "ratelimit_quota",
              "ratelimit_quota_replenish", "ratelimit_mode", "ratelimit_window_ns",
              "cache_share_auto_llc_max", "cache_share_level",
              "numa_scan_renew", "numa_scan_threshold",
              "eevdf_slice_ns", "eevdf_latency_ns", "eevdf_counters", "eevdf_slice",
              "prev_bias", "sync_short", "enabled"]


class BenchError(Exception):
    pass


class Config:
    """A named configuration: knobs (None = module unloaded)."""

    def __init__(self, name, knobs, desc, kind="builtin", sweep=None):
        self.name = name
        self.knobs = knobs
        self.desc = desc
        self.kind = kind
        self.sweep = sweep          # (knob, value) of a sweep point
        self.skip = None            # why it cannot run on this machine
        self.notes = []
        self.only_workloads = None  # a sweep point may run on a few workloads

    def runs_on(self, workload):
        """workload: a workload's name (hackbench-g2 counts as hackbench)."""
        return not self.only_workloads or workload in self.only_workloads or \
            workload.split("-")[0] in self.only_workloads

    @property
    def unloaded(self):
        return self.knobs is None

    def overrides(self):
        """Knobs that differ from stock (what the configuration is about)."""
        if self.knobs is None:
            return {}
        return {k: v for k, v in self.knobs.items() if STOCK.get(k) != v}

    def needs(self):
        """Features whose hooks this configuration installs."""
        if self.knobs is None or self.knobs.get("enabled", "1") != "1":
            return set()
        if self.knobs.get("passthrough", "0") == "1":
            return set(FEATURES)
        need = {f for f, k in FEATURE_MAIN.items() if self.knobs.get(k, STOCK[k]) != STOCK[k]}
        if self.knobs.get("eevdf_counters", "0") != "0" or self.knobs.get("eevdf_slice", "stock") != "stock":
            need.add("eevdf")
        return need | {HOSTED[f] for f in need if f in HOSTED}

    def slice_policy(self):
        """Whether the configuration asks for a non-stock EEVDF slice."""
        return self.knobs is not None and any(
            self.knobs.get(k, STOCK[k]) != STOCK[k] for k in SLICE_KNOBS)

    def to_json(self):
        return {"name": self.name, "kind": self.kind, "desc": self.desc,
                "knobs": self.knobs, "overrides": self.overrides(),
                "needs": sorted(self.needs()), "skip": self.skip,
                "notes": self.notes,
                "only_workloads": sorted(self.only_workloads) if self.only_workloads else None,
                "sweep": list(self.sweep) if self.sweep else None}


def stock_plus(over):
    k = dict(STOCK)
    k.update(over)
    return k


def builtin_configs():
    """The predefined configurations, in the order they interleave."""
    return [
        Config("unloaded", None, "module not loaded"),
        Config("stock", stock_plus({}), "loaded, every feature at its stock value"),
        Config("passthrough", stock_plus(dict(SEED, passthrough="1")),
               "the seed values with passthrough=1: every hook installed, every decision stock (the module's own cost)"),
        Config("seed", stock_plus(SEED), "the values of the upstream patches: 2 ms rate limit, l2, NUMA threshold 50"),
        Config("ratelimit", stock_plus({"ratelimit_window_ns": SEED["ratelimit_window_ns"]}),
               "migration rate limit alone (1 migration per 2 ms)"),
        # patch 2/2 of the rate-limit series: "similar to the
        # non-adaptive" on hackbench and perf bench sched messaging
        Config("ratelimit-adaptive", stock_plus({"ratelimit_window_ns": SEED["ratelimit_window_ns"],
                                                 "ratelimit_mode": "adaptive"}),
               "adaptive migration rate limit alone (quota 10 per 2 ms, halved when used up, +1 per window below it)"),
        Config("cache_level", stock_plus({"cache_share_level": "l2"}),
               "queued wakeups across L2 alone (cache_share_level=l2; stock is llc)"),
        Config("numa_scan", stock_plus({"numa_scan_threshold": SEED["numa_scan_threshold"]}),
               "NUMA scan threshold 50 alone (stock is 0)"),
        Config("ttwu-queue-default", stock_plus({"cache_share_level": "none"}),
               "TTWU_QUEUE_DEFAULT (Peter Zijlstra, 2025): every remote wakeup queued, whatever the cache "
               "(cache_share_level=none)"),
        Config("eevdf-stock", stock_plus({"eevdf_counters": "1"}),
               "seed 001's tick-preemption counters on, slice stock (base_slice_ns): what they count at stock"),
        Config("eevdf-fixed12", stock_plus({"eevdf_counters": "1", "eevdf_slice": "fixed",
                                            "eevdf_slice_ns": "12000000"}),
               "the fixed 12 ms slice that made seed 001's regression disappear, counters on"),
        Config("eevdf-scaled", stock_plus({"eevdf_counters": "1", "eevdf_slice": "scaled"}),
               "the slice follows the competition, eevdf_latency_ns / runnable tasks (CFS-style), counters on"),
        Config("select_bias_prev", stock_plus({"prev_bias": "1"}),
               "SELECT_BIAS_PREV with UTIL_FITS_CAPACITY (Desnoyers, v2 2023): prev_bias=1 alone"),
        Config("sis_sync", stock_plus({"sync_short": "1"}),
               "SIS_SYNC (Chen Yu, 2024): sync wakeups of short tasks on the waker's CPU, sync_short=1 alone"),
    ]


BUILTIN_NAMES = [c.name for c in builtin_configs()]


def parse_user_config(spec):
    """'name:knob=value,knob=value' on top of stock."""
    if ":" not in spec:
        raise BenchError("configuration '%s': expected name:knob=value,..." % spec)
    name, rest = spec.split(":", 1)
    name = name.strip()
    if not name or not all(c.isalnum() or c in "-_.=" for c in name):
        raise BenchError("configuration '%s': bad name" % spec)
    over = {}
    for kv in rest.split(","):
        kv = kv.strip()
        if not kv:
            continue
        if "=" not in kv:
            raise BenchError("configuration '%s': '%s' is not knob=value" % (spec, kv))
        k, v = (s.strip() for s in kv.split("=", 1))
        over[k] = v
    if not over:
        raise BenchError("configuration '%s' sets no knob" % spec)
    return Config(name, stock_plus(over), "user-defined: " + ", ".join(
        "%s=%s" % kv for kv in over.items()), kind="user")


def parse_sweep(spec, base):
    """'knob=v1,v2,...' -> one configuration per value, on top of base."""
    if "=" not in spec:
        raise BenchError("sweep '%s': expected knob=v1,v2,..." % spec)
    knob, vals = spec.split("=", 1)
    knob = knob.strip()
    values = [v.strip() for v in vals.split(",") if v.strip()]
    if len(values) < 2:
        raise BenchError("sweep '%s': give at least two values" % spec)
    out = []
    for v in values:
        k = dict(base.knobs)
        k[knob] = v
        out.append(Config("%s=%s" % (knob, v), k,
                          "sweep of %s over %s: %s" % (knob, base.name, v),
                          kind="sweep", sweep=(knob, v)))
    return knob, values, out


def _choice(s):
    """'llc [l2] smt auto' -> 'l2'; plain values unchanged."""
    if s is not None and "[" in s and "]" in s:
        return s[s.index("[") + 1:s.index("]")]
    return s


class Module:
    """Load, unload, configure and read the module; restore it at the end."""

    def __init__(self, ko=None, log=print):
        self.ko = ko
        self.log = log
        self.snapshot = None
        self.support = {}         # feature -> state seen with stock knobs
        self.reasons = {}
        self.knob_names = []
        self.slice_problem = None  # why the EEVDF slice policy cannot run here

    # --- state ---------------------------------------------------------
    @staticmethod
    def loaded():
        return os.path.isdir(SYSFS)

    def version(self):
        return {"version": read("/sys/module/%s/version" % MODNAME),
                "srcversion": read("/sys/module/%s/srcversion" % MODNAME)}

    def writable_knobs(self):
        """Every knob file (writable, not stats/), as the module offers them."""
        out = []
        try:
            names = sorted(os.listdir(SYSFS))
        except OSError:
            return out
        for n in names:
            p = os.path.join(SYSFS, n)
            if os.path.isfile(p) and os.stat(p).st_mode & 0o200:
                out.append(n)
        return out

    def read_knob(self, k):
        return _choice(read(os.path.join(SYSFS, k)))

    def read_knobs(self, names=None):
        return {k: self.read_knob(k) for k in (names or self.writable_knobs())}

    def write_knob(self, k, v):
        try:
            with open(os.path.join(SYSFS, k), "w") as f:
                f.write(str(v))
        except OSError as e:
            err = BenchError("writing %s=%s: %s" % (k, v, "EOPNOTSUPP" if e.errno == errno.EOPNOTSUPP
                                                    else errno.errorcode.get(e.errno, e)))
            err.errno = e.errno
            raise err

    def feature_states(self):
        """{feature: (state, reason)}: features/<name>/state and reason, or
        the older one-file format "<name> <state> <funcs>[ reason: <text>]"."""
        out = {}
        fdir = os.path.join(SYSFS, "features")
        if os.path.isdir(fdir):
            for name in sorted(os.listdir(fdir)):
                out[name] = (read(os.path.join(fdir, name, "state")),
                             read(os.path.join(fdir, name, "reason")) or "")
        elif os.path.isfile(fdir):
            for line in (read(fdir) or "").splitlines():
                w = line.split()
                if len(w) >= 2:
                    reason = line.split("reason:", 1)[1].strip() if "reason:" in line else ""
                    out[w[0]] = (w[1], reason)
        return out

    def stats(self):
        d = os.path.join(SYSFS, "stats")
        out = {}
        try:
            names = os.listdir(d)
        except OSError:
            return out
        for n in sorted(names):
            if n == "reset":
                continue
            v = read(os.path.join(d, n))
            try:
                out[n] = int(v)
            except (TypeError, ValueError):
                pass
        return out

    # --- load / unload -------------------------------------------------
    def _run(self, cmd):
        # A signal arriving now waits until insmod/rmmod is done: killed
        # halfway, rmmod leaves the module going away, and the restore's
        # insmod then fails with EBUSY.
        stop = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        old = signal.pthread_sigmask(signal.SIG_BLOCK, stop)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if p.returncode:
            raise BenchError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stdout.strip()))

    def load(self):
        if self.loaded():
            return
        self._run(["insmod", self.ko] if self.ko else ["modprobe", MODNAME])
        if not self.loaded():
            raise BenchError("module loaded but %s is missing" % SYSFS)

    def unload(self):
        if not self.loaded():
            return
        self._run(["rmmod", MODNAME])
        if self.loaded():
            raise BenchError("rmmod %s left %s behind" % (MODNAME, SYSFS))

    # --- snapshot / restore --------------------------------------------
    def take_snapshot(self):
        was = self.loaded()
        self.snapshot = {"loaded": was, "knobs": self.read_knobs() if was else {}}
        return self.snapshot

    def probe(self):
        """Load once (if needed) to learn the knobs and what this kernel
        supports; the module is put back as found by restore()."""
        self.load()
        self.knob_names = self.writable_knobs()
        for f, (state, reason) in self.feature_states().items():
            self.support[f] = state
            self.reasons[f] = reason
        self.slice_problem = self.probe_slice()

    def probe_slice(self):
        """Whether eevdf_slice can leave stock here: the module answers
        EOPNOTSUPP to a non-stock slice knob where its slice code was not
        checked (6.1's CFS, 7.3), while its counters work.  It is asked by
        writing eevdf_slice_ns to another valid value and back (no hook
        goes in for that); the reason is then read from features/eevdf/reason
        with the counters on for a moment.  None: supported."""
        if "eevdf_slice_ns" not in self.knob_names:
            return "the module has no eevdf_slice_ns knob (sched_tune before the eevdf feature)"
        if self.support.get("eevdf") == "unsupported":
            return "eevdf unsupported: %s" % (self.reasons.get("eevdf") or "no reason given")
        cur = self.read_knob("eevdf_slice_ns")
        other = "12000001" if cur != "12000001" else "12000002"
        try:
            self.write_knob("eevdf_slice_ns", other)
        except BenchError as e:
            if getattr(e, "errno", None) != errno.EOPNOTSUPP:
                return "writing eevdf_slice_ns: %s" % e
            return self._slice_reason()
        self.write_knob("eevdf_slice_ns", cur)
        return None

    def _slice_reason(self):
        why = None
        if self.read_knob("eevdf_counters") == "0":
            try:
                self.write_knob("eevdf_counters", "1")
                why = (self.feature_states().get("eevdf") or (None, None))[1]
            finally:
                self.write_knob("eevdf_counters", "0")
        return "the eevdf slice policy answers EOPNOTSUPP on this kernel (%s)" % (
            why or "its counters work; its slice code was not checked against this kernel")

    def restore(self):
        """Back to the snapshot; returns a list of problems (empty = exact)."""
        snap = self.snapshot
        if snap is None:
            return []
        problems = []
        try:
            if not snap["loaded"]:
                self.unload()
                return []
            self.load()
            cur = self.read_knobs(list(snap["knobs"]))
            order = [k for k in KNOB_ORDER if k in snap["knobs"]] + \
                    [k for k in snap["knobs"] if k not in KNOB_ORDER]
            for k in order:
                if cur.get(k) != snap["knobs"][k]:
                    try:
                        self.write_knob(k, snap["knobs"][k])
                    except BenchError as e:
                        problems.append(str(e))
            after = self.read_knobs(list(snap["knobs"]))
            for k, v in snap["knobs"].items():
                if after.get(k) != v:
                    problems.append("%s is %s, was %s before the run" % (k, after.get(k), v))
        except BenchError as e:
            problems.append(str(e))
        return problems

    # --- configurations --------------------------------------------------
    def writable_config(self, cfg):
        """The knobs the bench writes for cfg: those the module has, minus
        those of features this kernel does not support (they read stock and
        refuse any write)."""
        out = {}
        for k, v in cfg.knobs.items():
            if k not in self.knob_names:
                continue
            f = KNOB_FEATURE.get(k)
            if f and self.support.get(f) == "unsupported":
                continue
            out[k] = v
        return out

    def check_config(self, cfg):
        """Why cfg cannot run here (None if it can); adds notes for what
        it drops."""
        if cfg.unloaded:
            return None
        missing = [k for k in cfg.knobs if k not in self.knob_names and
                   (k not in STOCK or cfg.knobs[k] != STOCK[k])]
        if missing:
            return "the module has no knob %s" % ", ".join(missing)
        if cfg.slice_policy() and self.slice_problem:
            return "eevdf slice policy unsupported on this kernel: %s" % self.slice_problem
        unsup = sorted(f for f in cfg.needs() if self.support.get(f) == "unsupported")
        if cfg.knobs.get("passthrough", "0") == "1":
            unsup = []  # passthrough installs what the kernel supports
        if unsup:
            if cfg.name in ("seed", "passthrough"):
                cfg.notes.append("%s unsupported on this kernel (%s): left at stock" % (
                    ", ".join(unsup), "; ".join(self.reasons.get(f, "") for f in unsup)))
                return None
            return "%s unsupported on this kernel: %s" % (
                ", ".join(unsup), "; ".join(self.reasons.get(f, "") or "no reason given" for f in unsup))
        return None

    def apply(self, cfg):
        if cfg.unloaded:
            self.unload()
            return
        self.load()
        want = self.writable_config(cfg)
        cur = self.read_knobs(list(want))
        for k in [k for k in KNOB_ORDER if k in want] + [k for k in want if k not in KNOB_ORDER]:
            if cur.get(k) != want[k]:
                self.write_knob(k, want[k])

    def verify(self, cfg):
        """Read back every knob and every feature state; returns (ok,
        problems, observed)."""
        problems = []
        if cfg.unloaded:
            ok = not self.loaded() and not os.path.isdir("/sys/module/" + MODNAME)
            return ok, ([] if ok else ["module still loaded"]), {"loaded": self.loaded()}
        if not self.loaded():
            return False, ["module not loaded"], {"loaded": False}
        want = self.writable_config(cfg)
        knobs = self.read_knobs(list(want))
        for k, v in want.items():
            if knobs.get(k) != v:
                problems.append("%s reads %s, configuration says %s" % (k, knobs.get(k), v))
        states = self.feature_states()
        needs = cfg.needs()
        passthrough = cfg.knobs.get("passthrough", "0") == "1" and "passthrough" in self.knob_names
        # a hosted feature an older module lacks is checked only when needed
        for f in FEATURES + tuple(f for f in HOSTED if f in states or f in needs):
            if f not in states:
                if f in OPTIONAL_FEATURES and f not in self.support:
                    continue  # an older module, without it at probe either
                problems.append("feature %s missing from features" % f)
                continue
            full, reason = states[f]
            # "active (unchecked)" (allow_unchecked=1) holds its hooks too
            st = full.split(" ", 1)[0]
            if self.support.get(f) == "unsupported":
                if st != "unsupported":
                    problems.append("%s is %s, was unsupported at probe" % (f, full))
                continue
            if f in needs:
                if st not in ("active", "idle"):
                    problems.append("%s is %s (%s), configuration needs its hooks" % (f, full, reason))
            elif passthrough:
                pass
            elif st != "inactive":
                problems.append("%s is %s, configuration leaves it at stock" % (f, full))
        observed = {"loaded": True, "knobs": knobs,
                    "features": {f: {"state": s, "reason": r} for f, (s, r) in states.items()}}
        return not problems, problems, observed
