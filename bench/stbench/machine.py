# SPDX-License-Identifier: GPL-2.0
"""The machine's state that moves figures: CPU frequency governors and
limits, boost, SMT, C-states, kernel command line, mitigations, NUMA
nodes, load average, and whether debugfs can be written (lockdown).

Every collector takes `root` ("/" on a real run; a directory holding a
fake proc/ and sys/ in the tests) and never raises for a missing file:
what it cannot read it records as "n/a (reason)".
"""

import glob
import gzip
import os
import re
import shutil
import subprocess
import time

from .util import cpulist_parse, read

CPU = "sys/devices/system/cpu"
# The noise check: CPU time other work takes while the bench is idle (a
# quiet window before every run), against the same window at the start.
IDLE_WINDOW_S = 0.5


def na(reason):
    return "n/a (%s)" % reason


def is_na(v):
    return isinstance(v, str) and v.startswith("n/a")


def _p(root, rel):
    return os.path.join(root, rel)


def cpulist_format(cpus):
    """[0, 1, 2, 3, 8] -> '0-3,8'."""
    out = []
    cpus = sorted(set(cpus))
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def _cpus(root):
    """The CPUs to look at: online ones, else every cpuN directory."""
    s = read(_p(root, CPU + "/online"))
    if s:
        try:
            return cpulist_parse(s)
        except ValueError:
            pass
    out = []
    for d in glob.glob(_p(root, CPU + "/cpu[0-9]*")):
        m = re.match(r"cpu(\d+)$", os.path.basename(d))
        if m:
            out.append(int(m.group(1)))
    return sorted(out)


def _group(per_cpu):
    """{cpu: value} -> {value: 'cpulist'}, values as strings."""
    g = {}
    for cpu, v in per_cpu.items():
        g.setdefault(str(v), []).append(cpu)
    return {v: cpulist_format(c) for v, c in sorted(g.items())}


def cpu_model(root="/"):
    txt = read(_p(root, "proc/cpuinfo"))
    if txt is None:
        return na("/proc/cpuinfo unreadable")
    for line in txt.splitlines():
        if line.startswith("model name") or line.startswith("Processor"):
            return line.split(":", 1)[1].strip()
    return na("no 'model name' in /proc/cpuinfo")


def governor_files(root="/"):
    """{cpu: path of its scaling_governor} for the CPUs that have one."""
    out = {}
    for c in _cpus(root):
        f = _p(root, "%s/cpu%d/cpufreq/scaling_governor" % (CPU, c))
        if os.path.exists(f):
            out[c] = f
    return out


def cpufreq(root="/"):
    """Governors, drivers and frequency limits (kHz), each grouped by the
    CPUs that share the value."""
    cpus = _cpus(root)
    fields = ("scaling_governor", "scaling_driver", "scaling_min_freq", "scaling_max_freq",
              "cpuinfo_max_freq", "scaling_available_governors")
    per = {f: {} for f in fields}
    for c in cpus:
        d = _p(root, "%s/cpu%d/cpufreq" % (CPU, c))
        if not os.path.isdir(d):
            continue
        for f in fields:
            v = read(os.path.join(d, f))
            per[f][c] = v if v is not None else na("%s unreadable" % f)
    if not per["scaling_governor"]:
        return na("no cpufreq: /sys/devices/system/cpu/cpu*/cpufreq absent (no driver, or a virtual machine)")
    names = {"scaling_governor": "governor", "scaling_driver": "driver",
             "scaling_available_governors": "available_governors"}
    out = {names.get(f, f): _group(per[f]) for f in fields}
    missing = [c for c in cpus if c not in per["scaling_governor"]]
    if missing:
        out["cpus_without_cpufreq"] = cpulist_format(missing)
    return out


def governors(cf):
    """The set of governors in a cpufreq() record (empty if n/a)."""
    if not isinstance(cf, dict):
        return set()
    return {g for g in cf.get("governor", {}) if not is_na(g)}


def boost(root="/"):
    v = read(_p(root, CPU + "/cpufreq/boost"))
    if v is not None:
        return {"source": "cpufreq/boost", "state": "on" if v.strip() == "1" else "off", "raw": v}
    v = read(_p(root, CPU + "/intel_pstate/no_turbo"))
    if v is not None:
        return {"source": "intel_pstate/no_turbo", "state": "off" if v.strip() == "1" else "on", "raw": v}
    return na("neither cpufreq/boost nor intel_pstate/no_turbo present")


def smt(root="/"):
    active = read(_p(root, CPU + "/smt/active"))
    if active is None:
        return na("/sys/devices/system/cpu/smt/active absent")
    out = {"active": active.strip() == "1"}
    ctl = read(_p(root, CPU + "/smt/control"))
    out["control"] = ctl if ctl is not None else na("smt/control absent")
    return out


def cpuidle(root="/"):
    """The cpuidle driver and governor, and each C-state with the CPUs on
    which it is disabled (disable = 1)."""
    d = _p(root, CPU + "/cpuidle")
    drv = read(d + "/current_driver")
    gov = read(d + "/current_governor")
    if gov is None:
        gov = read(d + "/current_governor_ro")
    out = {"driver": drv if drv is not None else na("cpuidle/current_driver absent"),
           "governor": gov if gov is not None else na("cpuidle/current_governor absent")}
    states = {}
    for c in _cpus(root):
        for sd in glob.glob(_p(root, "%s/cpu%d/cpuidle/state[0-9]*" % (CPU, c))):
            idx = int(re.sub(r"\D", "", os.path.basename(sd)))
            st = states.setdefault(idx, {"name": read(sd + "/name") or "state%d" % idx,
                                         "latency_us": read(sd + "/latency"),
                                         "disabled_on": [], "enabled_on": []})
            dis = read(sd + "/disable")
            (st["disabled_on"] if dis is not None and dis.strip() == "1" else st["enabled_on"]).append(c)
    if not states:
        if drv is None:
            return na("no cpuidle: /sys/devices/system/cpu/cpuidle absent")
        out["states"] = na("no cpu*/cpuidle/state* directories")
        return out
    out["states"] = [{"state": "state%d" % i, "name": s["name"], "latency_us": s["latency_us"],
                      "disabled_on": cpulist_format(s["disabled_on"]),
                      "enabled_on": cpulist_format(s["enabled_on"])}
                     for i, s in sorted(states.items())]
    return out


def cmdline(root="/"):
    v = read(_p(root, "proc/cmdline"))
    return v if v is not None else na("/proc/cmdline unreadable")


def mitigations(root="/"):
    d = _p(root, CPU + "/vulnerabilities")
    if not os.path.isdir(d):
        return na("/sys/devices/system/cpu/vulnerabilities absent")
    return {f: read(os.path.join(d, f)) or "" for f in sorted(os.listdir(d))}


def numa_nodes(root="/"):
    nodes = glob.glob(_p(root, "sys/devices/system/node/node[0-9]*"))
    if not nodes:
        return na("/sys/devices/system/node absent (kernel without NUMA)")
    return {os.path.basename(n): read(n + "/cpulist") or ""
            for n in sorted(nodes, key=lambda n: int(re.sub(r"\D", "", os.path.basename(n))))}


def loadavg(root="/"):
    """[1, 5, 15 minute load averages], or "n/a (...)"."""
    v = read(_p(root, "proc/loadavg"))
    if v is None:
        return na("/proc/loadavg unreadable")
    try:
        return [float(x) for x in v.split()[:3]]
    except ValueError:
        return na("/proc/loadavg unparsable: %r" % v)


def lockdown(root="/"):
    """The kernel lockdown level in force: none, integrity, confidentiality."""
    v = read(_p(root, "sys/kernel/security/lockdown"))
    if v is None:
        return na("/sys/kernel/security/lockdown absent (no lockdown LSM, or securityfs not mounted)")
    m = re.search(r"\[(\w+)\]", v)
    return m.group(1) if m else na("unparsable lockdown %r" % v)


def debugfs(root="/"):
    """Whether the bench can write debugfs: mounted, not locked down, writable."""
    lk = lockdown(root)
    mounts = read(_p(root, "proc/mounts")) or ""
    mounted = any(len(f) > 2 and f[1] == "/sys/kernel/debug" and f[2] == "debugfs"
                  for f in (line.split() for line in mounts.splitlines()))
    out = {"lockdown": lk, "mounted": mounted, "writable": False}
    if lk in ("integrity", "confidentiality"):
        out["why"] = ("kernel lockdown is [%s] (Secure Boot?): debugfs cannot be written"
                      % lk)
    elif not mounted:
        out["why"] = "debugfs is not mounted at /sys/kernel/debug (mount -t debugfs none /sys/kernel/debug)"
    elif not os.access(_p(root, "sys/kernel/debug"), os.W_OK):
        out["why"] = "/sys/kernel/debug is not writable by this user"
    else:
        out["writable"] = True
        out["why"] = "mounted, not locked down"
    return out


def cpu_times(root="/"):
    """(busy, total) jiffies of all CPUs from /proc/stat's cpu line (busy:
    everything but idle and iowait), or None."""
    for line in (read(_p(root, "proc/stat")) or "").splitlines():
        w = line.split()
        if w and w[0] == "cpu":
            try:
                v = [int(x) for x in w[1:9]]
            except ValueError:
                return None
            total = sum(v)
            idle = v[3] + (v[4] if len(v) > 4 else 0)
            return total - idle, total
    return None


def idle_busy(root="/", seconds=IDLE_WINDOW_S, sleep=time.sleep):
    """Percent of all CPUs' time busy during `seconds` in which the bench
    does nothing: other work on the machine.  None if unreadable."""
    a = cpu_times(root)
    sleep(seconds)
    b = cpu_times(root)
    if not a or not b or b[1] <= a[1]:
        return None
    return 100.0 * (b[0] - a[0]) / (b[1] - a[1])


def idle_threshold(baseline, ncpus):
    """Busy percent in a quiet window above which a run is flagged: the
    machine's own idle baseline plus half a CPU's worth (at least 2 points)."""
    return (baseline or 0.0) + max(2.0, 50.0 / max(1, ncpus))


def preemption(root="/"):
    """The preemption model: debugfs sched/preempt (PREEMPT_DYNAMIC, the
    mode in force in brackets), else /proc/version's PREEMPT words."""
    v = read(_p(root, "sys/kernel/debug/sched/preempt"))
    if v:
        m = re.search(r"\((\w+)\)", v)
        return "%s (debugfs sched/preempt: %s)" % (m.group(1) if m else v, v)
    ver = read(_p(root, "proc/version")) or ""
    words = re.findall(r"PREEMPT_\w+|PREEMPT(?=\s)", ver)
    if words:
        return "%s (/proc/version)" % " ".join(words)
    return na("no debugfs sched/preempt (debugfs not mounted?) and no PREEMPT in /proc/version")


def kernel_config(root="/", release=None):
    """The running kernel's config text (/boot/config-RELEASE, else
    /proc/config.gz), or None."""
    release = release or os.uname().release
    v = read(_p(root, "boot/config-%s" % release))
    if v:
        return v
    try:
        with gzip.open(_p(root, "proc/config.gz"), "rt") as f:
            return f.read()
    except (OSError, EOFError):
        return None


def config_hz(root="/", release=None):
    cfg = kernel_config(root, release)
    if cfg is None:
        return na("no /boot/config-%s and no /proc/config.gz" % (release or os.uname().release))
    m = re.search(r"^CONFIG_HZ=(\d+)", cfg, re.M)
    nohz = [k for k in ("CONFIG_NO_HZ_IDLE", "CONFIG_NO_HZ_FULL") if re.search(r"^%s=y" % k, cfg, re.M)]
    return "%s%s" % (m.group(1) if m else "?", " (%s)" % ", ".join(nohz) if nohz else "")


SCHED_TUNABLES = ("base_slice_ns", "migration_cost_ns", "nr_migrate", "latency_ns", "min_granularity_ns",
                  "wakeup_granularity_ns", "tunable_scaling", "latency_warn_ms")


def sched_tunables(root="/"):
    """The scheduler's debugfs tunables (sched/*) that exist here."""
    d = _p(root, "sys/kernel/debug/sched")
    if not os.path.isdir(d):
        return na("debugfs sched/ absent (debugfs not mounted?)")
    out = {k: read(os.path.join(d, k)) for k in SCHED_TUNABLES if read(os.path.join(d, k)) is not None}
    return out or na("none of %s in debugfs sched/" % ", ".join(SCHED_TUNABLES))


def sysctl(root, name):
    v = read(_p(root, "proc/sys/" + name.replace(".", "/")))
    return v if v is not None else na("/proc/sys/%s absent" % name.replace(".", "/"))


def thp(root="/"):
    d = _p(root, "sys/kernel/mm/transparent_hugepage")
    if not os.path.isdir(d):
        return na("/sys/kernel/mm/transparent_hugepage absent")
    return {k: read(os.path.join(d, k)) for k in ("enabled", "defrag") if read(os.path.join(d, k)) is not None}


def epp(root="/"):
    """energy_performance_preference per CPU, grouped by value."""
    per = {}
    for c in _cpus(root):
        v = read(_p(root, "%s/cpu%d/cpufreq/energy_performance_preference" % (CPU, c)))
        if v is not None:
            per[c] = v
    return _group(per) if per else na("no cpufreq/energy_performance_preference (no intel_pstate or "
                                      "amd-pstate in active mode)")


def microcode(root="/"):
    vals = set()
    for line in (read(_p(root, "proc/cpuinfo")) or "").splitlines():
        if line.startswith("microcode"):
            vals.add(line.split(":", 1)[1].strip())
    if not vals:
        return na("no microcode line in /proc/cpuinfo (a virtual machine?)")
    return ", ".join(sorted(vals))


# (tool, command that prints its version, Debian package)
TOOLS = (("python3", None, "python3"), ("hackbench", None, "rt-tests"), ("perf", ["perf", "--version"], "linux-perf"),
         ("tbench", None, "dbench"), ("gcc", ["gcc", "--version"], "gcc"))


def _dpkg_version(pkg):
    if not shutil.which("dpkg-query"):
        return None
    try:
        p = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", pkg], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else None


def tool_versions():
    """The version of every program the workloads run and of Python's
    numerical packages: the package's (dpkg), else the program's own
    --version line, else n/a."""
    import platform
    out = {}
    for tool, cmd, pkg in TOOLS:
        if tool == "python3":
            out[tool] = platform.python_version()
            continue
        path = shutil.which(tool)
        if not path:
            out[tool] = na("not installed (Debian: %s)" % pkg)
            continue
        v = _dpkg_version(pkg)
        if v:
            out[tool] = "%s %s" % (pkg, v)
            continue
        if cmd:
            try:
                p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   universal_newlines=True, timeout=20)
                first = (p.stdout or "").strip().splitlines()
                if p.returncode == 0 and first:
                    out[tool] = first[0]
                    continue
            except (OSError, subprocess.TimeoutExpired):
                pass
        out[tool] = na("%s installed, version unknown (no dpkg)" % path)
    for mod in ("numpy", "scipy", "matplotlib"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - absent or broken: not used
            out[mod] = na("not installed")
    return out


def facts(root="/"):
    """Everything above, for results.json's stamp["machine"]."""
    return {
        "preemption": preemption(root),
        "config_hz": config_hz(root),
        "sched_autogroup_enabled": sysctl(root, "kernel.sched_autogroup_enabled"),
        "sched_tunables": sched_tunables(root),
        "thp": thp(root),
        "epp": epp(root),
        "microcode": microcode(root),
        "cpu_model": cpu_model(root),
        "cpufreq": cpufreq(root),
        "boost": boost(root),
        "smt": smt(root),
        "cpuidle": cpuidle(root),
        "cmdline": cmdline(root),
        "mitigations": mitigations(root),
        "numa_nodes": numa_nodes(root),
        "loadavg": loadavg(root),
        "debugfs": debugfs(root),
    }


def noisy(f, performance_governor=False, idle=None, ncpus=1):
    """Warnings about a machine whose figures will be noisy.  idle: the
    busy percent of the CPUs in the quiet windows at the start (the load
    average is recorded, not judged: it counts the bench's own runs)."""
    out = []
    if idle is not None and idle > max(2.0, 50.0 / max(1, ncpus)):
        out.append("%.1f%% of the CPUs' time was busy while the bench was idle at the start: other "
                   "work is running (figures will be noisy)" % idle)
    cf = f.get("cpufreq")
    gov = governors(cf)
    if gov and gov != {"performance"} and not performance_governor:
        out.append("cpufreq governor %s, not performance: the frequency moves under the bench "
                   "(--performance-governor sets it for the run)" % ", ".join(
                       "%s (CPUs %s)" % (g, c) for g, c in sorted(cf["governor"].items())))
    return out


def _fmt(v):
    if isinstance(v, dict):
        return ", ".join("%s: %s" % (k, _fmt(x)) for k, x in v.items())
    if isinstance(v, list):
        return " ".join(_fmt(x) for x in v)
    return str(v)


def rows(f):
    """(label, text) pairs for the report's Machine table and made-by.txt."""
    if not isinstance(f, dict):
        return []
    out = []
    cf = f.get("cpufreq")
    if isinstance(cf, dict):
        out.append(("cpufreq governor", _fmt(cf.get("governor"))))
        out.append(("cpufreq driver", _fmt(cf.get("driver"))))
        out.append(("cpufreq min / max / cpuinfo_max (kHz)", "%s / %s / %s" % (
            _fmt(cf.get("scaling_min_freq")), _fmt(cf.get("scaling_max_freq")), _fmt(cf.get("cpuinfo_max_freq")))))
    elif cf is not None:
        out.append(("cpufreq", cf))
    b = f.get("boost")
    out.append(("boost / turbo", "%s (%s)" % (b["state"], b["source"]) if isinstance(b, dict) else b))
    s = f.get("smt")
    out.append(("SMT", "%s (control %s)" % ("active" if s["active"] else "inactive", s["control"])
                if isinstance(s, dict) else s))
    ci = f.get("cpuidle")
    if isinstance(ci, dict):
        st = ci.get("states")
        if isinstance(st, list):
            txt = ", ".join("%s%s" % (x["name"], " (disabled on CPUs %s)" % x["disabled_on"] if x["disabled_on"] else "")
                            for x in st)
        else:
            txt = st
        out.append(("C-states", "driver %s, governor %s; %s" % (ci.get("driver"), ci.get("governor"), txt)))
    elif ci is not None:
        out.append(("C-states", ci))
    out.append(("kernel command line", f.get("cmdline")))
    m = f.get("mitigations")
    out.append(("mitigations", "; ".join("%s: %s" % kv for kv in m.items()) if isinstance(m, dict) else m))
    nn = f.get("numa_nodes")
    out.append(("NUMA nodes (sysfs)", ", ".join("%s: %s" % kv for kv in nn.items()) if isinstance(nn, dict) else nn))
    la = f.get("loadavg")
    out.append(("load average at start (1, 5, 15 min)", " ".join("%.2f" % x for x in la) if isinstance(la, list) else la))
    d = f.get("debugfs")
    if isinstance(d, dict):
        out.append(("debugfs", "%s (lockdown %s)" % ("writable" if d.get("writable") else "not writable: " + d.get("why", ""),
                                                     d.get("lockdown"))))
    for key, label in (("preemption", "preemption model"), ("config_hz", "CONFIG_HZ"),
                       ("sched_autogroup_enabled", "kernel.sched_autogroup_enabled"),
                       ("sched_tunables", "scheduler tunables (debugfs sched/)"),
                       ("thp", "transparent hugepages"), ("epp", "energy_performance_preference"),
                       ("microcode", "microcode"), ("tools", "tool versions")):
        if key in f:
            out.append((label, _fmt(f[key])))
    return [(k, v if v is not None else na("not recorded")) for k, v in out]
