# SPDX-License-Identifier: GPL-2.0
"""PNG plots with gnuplot (Debian: gnuplot-nox): each workload's figures
per configuration (every run a point, the median a bar), and the sweeps
(median with min..max bars over the knob's values)."""

import os
import re
import shutil
import subprocess

from .results import sweep_workloads


def _safe(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def _q(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"')


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def terminal():
    """(terminal, whether text rotates): pngcairo where fontconfig is set up,
    else libgd's png with a TrueType font file, else libgd's built-in font,
    which cannot rotate (an initramfs, a minimal container)."""
    if os.path.exists("/etc/fonts/fonts.conf"):
        p = subprocess.run(["gnuplot", "-e", "set terminal pngcairo"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode == 0 and not p.stdout.strip():
            return "pngcairo size 960,540 noenhanced font ',10'", True
    if os.path.exists(FONT):
        return "png size 960,540 noenhanced font %s 9" % _q(FONT), True
    return "png size 960,540 noenhanced", False


def _ylabel(m):
    d = {"lower": ", lower is better", "higher": ", higher is better"}.get(m.get("better"), "")
    return "%s (%s%s)" % (m["name"], m["unit"], d)


def draw(out, data):
    """Writes plots/*.png; returns ({key: relative path}, note or None)."""
    if not shutil.which("gnuplot"):
        return {}, "gnuplot not installed (Debian: gnuplot-nox): no plots"
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    term, rotate = terminal()
    rot = " rotate by -25" if rotate else ""
    cells = data["summary"]["cells"]
    cfgs = [c["name"] for c in data["configs"] if not c.get("skip")]
    emulated = data["stamp"].get("hypervisor", {}).get("emulated")
    sub = "  [qemu TCG: not hardware timings]" if emulated else ""
    script = []
    files = {}

    for w in data["workloads"]:
        wc = cells.get(w["name"], {})
        wcfgs = [cn for cn in cfgs if cn in wc]
        for m in w["metrics"]:
            base = "%s_%s" % (_safe(w["name"]), _safe(m["name"]))
            pts, meds = [], []
            for i, cn in enumerate(wcfgs):
                ms = wc.get(cn, {}).get("metrics", {}).get(m["name"])
                if not ms or not ms.get("n"):
                    continue
                n = len(ms["values"])
                for j, v in enumerate(ms["values"]):
                    pts.append("%d %.10g %.4f" % (i, v, (j - (n - 1) / 2.0) * min(0.08, 0.6 / max(n, 1))))
                meds.append("%d %.10g" % (i, ms["median"]))
            if not pts:
                continue
            dat = os.path.join(pdir, base + ".dat")
            with open(dat, "w") as f:
                f.write("\n".join(pts) + "\n\n\n" + "\n".join(meds) + "\n")
            png = base + ".png"
            xt = ", ".join("%s %d" % (_q(cn), i) for i, cn in enumerate(wcfgs))
            script += [
                "set terminal %s" % term, "set output %s" % _q(os.path.join(pdir, png)),
                "set title %s" % _q("%s: %s per configuration%s" % (w["name"], m["name"], sub)),
                "set ylabel %s" % _q(_ylabel(m)), "set xtics (%s)%s" % (xt, rot),
                "set xrange [-0.6:%g]" % (len(wcfgs) - 0.4), "set key off", "set grid ytics",
                "set autoscale y",
                "plot %s index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0', "
                "'' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020'" % _q(dat),
                "unset output", "unset xtics", "set xtics auto",
            ]
            files[("dist", w["name"], m["name"])] = "plots/" + png

    for sw in data.get("sweeps", []):
        for w in sweep_workloads(data, sw):
            m = w["metrics"][0]
            # fixed work (timed): migrations per run; timed runs: per second
            mig_key, mig_label = (("migrations_per_run", "task migrations per run (median)")
                                  if m["unit"] == "s" else
                                  ("migrations_per_s", "task migrations/s (median)"))
            rows = []
            for i, pt in enumerate(sw["points"]):
                cell = cells.get(w["name"], {}).get(pt["config"], {})
                ms = cell.get("metrics", {}).get(m["name"])
                mig = cell.get("rates", {}).get(mig_key, {}).get("median")
                if ms and ms.get("n"):
                    rows.append("%d %.10g %.10g %.10g %s" % (i, ms["median"], ms["min"], ms["max"],
                                                             "%.10g" % mig if mig is not None else "NaN"))
            if len(rows) < 2:
                continue
            base = "sweep_%s_%s" % (_safe(sw["knob"]), _safe(w["name"]))
            dat = os.path.join(pdir, base + ".dat")
            with open(dat, "w") as f:
                f.write("\n".join(rows) + "\n")
            png = base + ".png"
            xt = ", ".join("%s %d" % (_q(pt["value"]), i) for i, pt in enumerate(sw["points"]))
            script += [
                "set terminal %s" % term, "set output %s" % _q(os.path.join(pdir, png)),
                "set title %s" % _q("%s over %s (median, min..max)%s" % (w["name"], sw["knob"], sub)),
                "set ylabel %s" % _q(_ylabel(m)), "set xlabel %s" % _q(sw["knob"]),
                "set xtics (%s)" % xt, "set xrange [-0.5:%g]" % (len(sw["points"]) - 0.5),
                "set key top left", "set grid ytics", "set autoscale y",
                "set y2label %s" % _q(mig_label), "set y2tics", "set autoscale y2",
                "plot %s using 1:2:3:4 with yerrorlines pt 7 lw 2 lc rgb '#3060a0' title %s, "
                "'' using 1:5 axes x1y2 with linespoints pt 5 dt 2 lc rgb '#c03020' title %s"
                % (_q(dat), _q(m["name"]), _q(mig_key.replace("_per_", "/"))),
                "unset output", "unset xlabel", "unset xtics", "set xtics auto",
                "unset y2label", "unset y2tics",
            ]
            files[("sweep", sw["knob"], w["name"])] = "plots/" + png

    if not script:
        return {}, None
    gp = os.path.join(pdir, "plots.gnuplot")
    with open(gp, "w") as f:
        f.write("\n".join(script) + "\n")
    p = subprocess.run(["gnuplot", gp], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    note = None
    if p.returncode:
        note = "gnuplot failed (%d): %s" % (p.returncode, p.stdout.strip()[-800:])
    missing = [v for v in files.values() if not os.path.isfile(os.path.join(out, v))]
    for k in [k for k, v in files.items() if v in missing]:
        del files[k]
    return files, note
