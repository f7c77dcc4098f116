# SPDX-License-Identifier: GPL-2.0
"""What machine the figures come from: the stamp of every report."""

import glob
import os
import platform
import re

from .util import read, read_int, cpulist_parse

DEBUGFS = "/sys/kernel/debug"


def cpu_model():
    model = None
    for line in (read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name") or line.startswith("Processor"):
            model = line.split(":", 1)[1].strip()
            break
    return model or platform.processor() or platform.machine()


def cpu_flags():
    for line in (read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def online_cpus():
    s = read("/sys/devices/system/cpu/online")
    return cpulist_parse(s) if s else list(range(os.cpu_count() or 1))


def cache_groups():
    """{level: sorted unique shared_cpu_list strings} of unified/data caches."""
    groups = {}
    for d in glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*"):
        level = read_int(d + "/level")
        ctype = read(d + "/type")
        shared = read(d + "/shared_cpu_list")
        if level is None or shared is None or ctype == "Instruction":
            continue
        groups.setdefault(level, set()).add(shared)

    def key(s):
        c = cpulist_parse(s)
        return c[0] if c else 0
    return {lvl: sorted(g, key=key) for lvl, g in sorted(groups.items())}


def smt_groups():
    g = set()
    for f in glob.glob("/sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list"):
        s = read(f)
        if s:
            g.add(s)
    return sorted(g, key=lambda s: cpulist_parse(s)[0])


def numa_nodes():
    nodes = {}
    for d in sorted(glob.glob("/sys/devices/system/node/node[0-9]*")):
        nodes[os.path.basename(d)] = read(d + "/cpulist") or ""
    return nodes


def sched_domains():
    """The scheduler's domains of CPU 0 (debugfs), innermost first."""
    out = []
    for d in sorted(glob.glob(DEBUGFS + "/sched/domains/cpu0/domain[0-9]*"),
                    key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)))):
        out.append(read(d + "/name") or "?")
    return out


def hypervisor():
    """Bare metal, a hypervisor or an emulator, and the evidence."""
    ev = {}
    flags = cpu_flags()
    ev["cpuinfo_hypervisor_flag"] = "hypervisor" in flags
    for f in ("sys_vendor", "product_name", "bios_vendor", "bios_version"):
        v = read("/sys/class/dmi/id/" + f)
        if v:
            ev["dmi_" + f] = v
    v = read("/sys/hypervisor/type")
    if v:
        ev["sys_hypervisor_type"] = v
    cs = read("/sys/devices/system/clocksource/clocksource0/available_clocksource") or ""
    ev["clocksources"] = cs
    ev["current_clocksource"] = read("/sys/devices/system/clocksource/clocksource0/current_clocksource")
    dmi = " ".join(str(ev.get(k, "")) for k in ("dmi_sys_vendor", "dmi_product_name", "dmi_bios_vendor"))
    paravirt = any(c in cs for c in ("kvm-clock", "hyperv_clocksource", "xen"))
    if "QEMU" in dmi or "Bochs" in dmi or "SeaBIOS" in dmi:
        if paravirt or "KVM" in dmi:
            verdict = "virtual machine (QEMU with KVM)"
        else:
            # qemu without a paravirtual clock: TCG, every instruction emulated
            verdict = "emulator (QEMU without KVM, i.e. TCG): timings are not hardware timings"
            ev["emulated"] = True
    elif ev["cpuinfo_hypervisor_flag"] or paravirt or "sys_hypervisor_type" in ev:
        name = ev.get("dmi_sys_vendor") or ev.get("sys_hypervisor_type") or "unknown hypervisor"
        verdict = "virtual machine (%s)" % name
    else:
        verdict = "bare metal (no hypervisor flag, no paravirtual clock)"
    ev["verdict"] = verdict
    ev.setdefault("emulated", False)
    return ev


def sched_cache_state():
    """7.x cache-aware scheduling (SCHED_CACHE): debugfs sched/llc_balancing/."""
    d = DEBUGFS + "/sched/llc_balancing"
    if not os.path.isdir(DEBUGFS + "/sched"):
        # cannot tell: the scheduler's debugfs is not there to look at
        return {"unknown": "debugfs not mounted at %s" % DEBUGFS}
    if not os.path.isdir(d):
        return None
    out = {}
    for f in sorted(os.listdir(d)):
        v = read(os.path.join(d, f))
        if v is not None:
            out[f] = v
    return out


def sched_ext_state():
    """sched_ext (7.x): /sys/kernel/sched_ext/state and the loaded ops."""
    d = "/sys/kernel/sched_ext"
    if not os.path.isdir(d):
        return None
    out = {"state": read(d + "/state")}
    ops = read(d + "/root/ops")
    if ops is not None:
        out["ops"] = ops
    for f in ("enable_seq", "switch_all"):
        v = read(d + "/" + f)
        if v is not None:
            out[f] = v
    return out


def numa_balancing():
    return read("/proc/sys/kernel/numa_balancing")


def stamp():
    u = os.uname()
    caches = cache_groups()
    llc = max(caches) if caches else None
    s = {
        "kernel": u.release,
        "kernel_version": read("/proc/version"),
        "machine": u.machine,
        "hostname": u.nodename,
        "cpu_model": cpu_model(),
        "cpus_online": len(online_cpus()),
        "topology": {
            "smt_groups": smt_groups(),
            "l2_groups": caches.get(2, []),
            "llc_level": llc,
            "llc_groups": caches.get(llc, []) if llc else [],
            "cache_groups": {str(k): v for k, v in caches.items()},
            "numa_nodes": numa_nodes(),
            "sched_domains_cpu0": sched_domains(),
        },
        "hypervisor": hypervisor(),
        "numa_balancing": numa_balancing(),
        "sched_cache": sched_cache_state(),
        "sched_ext": sched_ext_state(),
        "memory_kb": None,
    }
    for line in (read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            s["memory_kb"] = int(line.split()[1])
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    s["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return s
