# SPDX-License-Identifier: GPL-2.0
"""PNG plots: each workload's figures per configuration (every run a point,
the report's estimator a bar), each workload's runs in the order they ran
(drift shows as a slope shared by every configuration), and the sweeps
(median with min..max bars over the knob's values, the migrations in a plot
of their own: one y axis per plot; a logarithmic x axis when the values are
numbers spanning a decade or more, as the rate-limit window's do).

python3-matplotlib draws them where it is installed (Agg, no display);
else gnuplot (Debian: gnuplot-nox), which is what the qemu guests of
bench/vm.sh carry; with neither, no plots and the report says why."""

import math
import os
import re
import shutil
import subprocess

from .results import sweep_workloads

NO_PLOTTER = ("neither python3-matplotlib nor gnuplot (gnuplot-nox) is installed: "
              "no plots (apt install python3-matplotlib)")


def _safe(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def _q(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"')


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _ylabel(m):
    d = {"lower": ", lower is better", "higher": ", higher is better"}.get(m.get("better"), "")
    return "%s (%s%s)" % (m["name"], m["unit"], d)


def _est_label(ms):
    return "Hmean" if ms.get("estimator") == "hmean" else "mean"


# --- what is drawn, whatever draws it ------------------------------------------
def sweep_axis(values):
    """x positions of a sweep's values and whether the axis is logarithmic:
    numbers >= 0 whose positive ones span at least a decade go on a log axis,
    0 (the feature off) one decade below the smallest positive value;
    anything else at 0, 1, 2 ... in the sweep's order."""
    try:
        nums = [float(v) for v in values]
    except (TypeError, ValueError):
        nums = None
    if nums and all(math.isfinite(x) and x >= 0 for x in nums):
        pos = [x for x in nums if x > 0]
        if len(pos) >= 2 and max(pos) / min(pos) >= 10:
            zero = min(pos) / 10.0
            return [x if x > 0 else zero for x in nums], True
    return [float(i) for i in range(len(values))], False


def _configs(data):
    return [c["name"] for c in data["configs"] if not c.get("skip")]


def dist_series(data, w, m):
    """[(config, [values], estimate, estimator label)] of one figure."""
    wc = data["summary"]["cells"].get(w["name"], {})
    out = []
    for cn in _configs(data):
        ms = wc.get(cn, {}).get("metrics", {}).get(m["name"])
        if ms and ms.get("n"):
            est = ms.get("estimate")
            out.append((cn, list(ms["values"]), ms["median"] if est is None else est, _est_label(ms)))
    return out


def order_series(data, w, m):
    """{config: ([run index], [value], [warm-up?])}: every run of w that
    gave figure m, at its index among the bench's runs (calibration
    runs not counted), warm-ups included (discarded from the statistics,
    shown hollow)."""
    out = {}
    i = 0
    for r in data.get("runs", []):
        if r.get("calibration"):
            continue
        i += 1
        if r.get("workload") != w["name"] or not r.get("ok"):
            continue
        v = (r.get("figures") or {}).get(m["name"])
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            continue
        xs, ys, ws = out.setdefault(r.get("config"), ([], [], []))
        xs.append(i)
        ys.append(float(v))
        ws.append(bool(r.get("warmup")))
    return out


def sweep_series(data, sw, w):
    """(rows [(x, median, min, max, migrations or None)], log x?, tick
    labels [(x, value)], migrations key, migrations label), or None with
    fewer than two points."""
    m = w["metrics"][0]
    cells = data["summary"]["cells"]
    # fixed work (timed): migrations per run; timed runs: per second
    mig_key, mig_label = (("migrations_per_run", "task migrations per run (median)")
                          if m["unit"] == "s" else
                          ("migrations_per_s", "task migrations/s (median)"))
    xs, logx = sweep_axis([pt["value"] for pt in sw["points"]])
    rows = []
    for x, pt in zip(xs, sw["points"]):
        cell = cells.get(w["name"], {}).get(pt["config"], {})
        ms = cell.get("metrics", {}).get(m["name"])
        mig = cell.get("rates", {}).get(mig_key, {}).get("median")
        if ms and ms.get("n"):
            rows.append((x, ms["median"], ms["min"], ms["max"], mig))
    if len(rows) < 2:
        return None
    ticks = [(x, str(pt["value"])) for x, pt in zip(xs, sw["points"])]
    return rows, logx, ticks, mig_key, mig_label


def sweep_plots(data):
    """Every sweep's plot, for either plotter: (sweep, workload, its first
    metric, file name stem, sweep_series()), those with two points or more."""
    for sw in data.get("sweeps", []):
        for w in sweep_workloads(data, sw):
            s = sweep_series(data, sw, w)
            if s:
                yield sw, w, w["metrics"][0], "sweep_%s_%s" % (_safe(sw["knob"]), _safe(w["name"])), s


def _jitter(j, n):
    return (j - (n - 1) / 2.0) * min(0.08, 0.6 / max(n, 1))


def _subtitle(data):
    return "  [qemu TCG: not hardware timings]" if data["stamp"].get("hypervisor", {}).get("emulated") else ""


# --- matplotlib ------------------------------------------------------------------
def _pyplot():
    """matplotlib.pyplot on the Agg backend (files only), or None."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - not installed, or broken: the fallback draws
        return None
    return plt


def _draw_mpl(plt, out, data):
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    sub = _subtitle(data)
    cfgs = _configs(data)
    cmap = plt.get_cmap("tab10")
    colour = {cn: cmap(i % 10) for i, cn in enumerate(cfgs)}
    files = {}

    def save(fig, png):
        fig.tight_layout()
        fig.savefig(os.path.join(pdir, png), dpi=96)
        plt.close(fig)
        return "plots/" + png

    for w in data["workloads"]:
        for m in w["metrics"]:
            series = dist_series(data, w, m)
            if not series:
                continue
            fig, ax = plt.subplots(figsize=(10, 5.6))
            for i, (cn, vals, est, lab) in enumerate(series):
                ax.scatter([i + _jitter(j, len(vals)) for j in range(len(vals))], vals,
                           s=22, color="#3060a0", zorder=3)
                ax.hlines(est, i - 0.3, i + 0.3, colors="#c03020", linewidth=3, zorder=2,
                          label=lab if i == 0 else None)
            ax.set_xticks(range(len(series)))
            ax.set_xticklabels([s[0] for s in series], rotation=25, ha="right")
            ax.set_xlim(-0.6, len(series) - 0.4)
            ax.set_ylabel(_ylabel(m))
            ax.set_title("%s: %s per configuration%s" % (w["name"], m["name"], sub))
            ax.grid(axis="y", alpha=0.4)
            ax.legend(loc="best", fontsize="small")
            files[("dist", w["name"], m["name"])] = save(fig, "%s_%s.png" % (_safe(w["name"]), _safe(m["name"])))

        m = w["metrics"][0]
        series = order_series(data, w, m)
        if series:
            fig, ax = plt.subplots(figsize=(10, 5.6))
            for cn in [c for c in cfgs if c in series] + [c for c in series if c not in cfgs]:
                xs, ys, ws = series[cn]
                c = colour.get(cn, "#808080")
                ax.scatter([x for x, wu in zip(xs, ws) if not wu], [y for y, wu in zip(ys, ws) if not wu],
                           s=24, color=c, label=cn, zorder=3)
                if any(ws):
                    ax.scatter([x for x, wu in zip(xs, ws) if wu], [y for y, wu in zip(ys, ws) if wu],
                               s=24, facecolors="none", edgecolors=[c], zorder=3)
            ax.set_xlabel("run index in the bench (hollow: warm-up, discarded)")
            ax.set_ylabel(_ylabel(m))
            ax.set_title("%s: %s of every run in the order run%s" % (w["name"], m["name"], sub))
            ax.grid(alpha=0.4)
            ax.legend(loc="best", fontsize="small", ncol=2)
            files[("order", w["name"])] = save(fig, "order_%s.png" % _safe(w["name"]))

    for sw, w, m, base, (rows, logx, ticks, mig_key, mig_label) in sweep_plots(data):
        xlab = sw["knob"] + (" (log scale; 0 drawn a decade below the smallest value)" if logx else "")

        def axes(title, ylabel):
            fig, ax = plt.subplots(figsize=(10, 5.6))
            if logx:
                ax.set_xscale("log")
            ax.set_xticks([t[0] for t in ticks])
            ax.set_xticklabels([t[1] for t in ticks], rotation=25 if len(ticks) > 4 else 0)
            ax.minorticks_off()
            ax.set_xlabel(xlab)
            ax.set_ylabel(ylabel)
            ax.set_title(title)
            ax.grid(alpha=0.4)
            return fig, ax

        fig, ax = axes("%s over %s (median, min..max)%s" % (w["name"], sw["knob"], sub), _ylabel(m))
        xs = [r[0] for r in rows]
        med = [r[1] for r in rows]
        ax.errorbar(xs, med, yerr=[[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]],
                    marker="o", color="#3060a0", capsize=4, linewidth=2)
        files[("sweep", sw["knob"], w["name"])] = save(fig, base + ".png")
        mig = [(r[0], r[4]) for r in rows if r[4] is not None]
        if len(mig) >= 2:
            fig, ax = axes("%s over %s: %s%s" % (w["name"], sw["knob"], mig_key.replace("_per_", "/"), sub),
                           mig_label)
            ax.plot([p[0] for p in mig], [p[1] for p in mig], marker="s", linestyle="--", color="#c03020")
            files[("sweep_migrations", sw["knob"], w["name"])] = save(fig, base + "_migrations.png")
    return files, None


# --- gnuplot -------------------------------------------------------------------------
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


# a colour per configuration, in the order of the configurations
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]


def _draw_gnuplot(out, data):
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    term, rotate = terminal()
    rot = " rotate by -25" if rotate else ""
    cfgs = _configs(data)
    sub = _subtitle(data)
    script = []
    files = {}

    def png(name, title, ylabel):
        script.extend(["set terminal %s" % term, "set output %s" % _q(os.path.join(pdir, name)),
                       "set title %s" % _q(title), "set ylabel %s" % _q(ylabel),
                       "set grid", "set autoscale y"])
        return "plots/" + name

    def reset():
        script.extend(["unset output", "unset xlabel", "unset xtics", "set xtics auto",
                       "unset logscale x", "set autoscale x", "unset key"])

    for w in data["workloads"]:
        for m in w["metrics"]:
            series = dist_series(data, w, m)
            if not series:
                continue
            base = "%s_%s" % (_safe(w["name"]), _safe(m["name"]))
            pts = ["%d %.10g %.4f" % (i, v, _jitter(j, len(vals)))
                   for i, (cn, vals, est, lab) in enumerate(series) for j, v in enumerate(vals)]
            ests = ["%d %.10g" % (i, est) for i, (cn, vals, est, lab) in enumerate(series)]
            dat = os.path.join(pdir, base + ".dat")
            with open(dat, "w") as f:
                f.write("\n".join(pts) + "\n\n\n" + "\n".join(ests) + "\n")
            files[("dist", w["name"], m["name"])] = png(
                base + ".png", "%s: %s per configuration%s" % (w["name"], m["name"], sub), _ylabel(m))
            xt = ", ".join("%s %d" % (_q(s[0]), i) for i, s in enumerate(series))
            script += [
                "set xtics (%s)%s" % (xt, rot), "set xrange [-0.6:%g]" % (len(series) - 0.4),
                "set key top right",
                "plot %s index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, "
                "'' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title %s"
                % (_q(dat), _q(series[0][3])),
            ]
            reset()

        m = w["metrics"][0]
        series = order_series(data, w, m)
        if series:
            names = [c for c in cfgs if c in series] + [c for c in series if c not in cfgs]
            dat = os.path.join(pdir, "order_%s.dat" % _safe(w["name"]))
            blocks, plots = [], []
            for k, cn in enumerate(names):
                xs, ys, ws = series[cn]
                blocks.append("\n".join("%d %.10g %d" % t for t in zip(xs, ys, ws)))
                c = PALETTE[cfgs.index(cn) % len(PALETTE)] if cn in cfgs else "#808080"
                plots.append("%s index %d using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '%s' title %s, "
                             "'' index %d using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '%s' notitle"
                             % ("''" if k else _q(dat), k, c, _q(cn), k, c))
            with open(dat, "w") as f:
                f.write("\n\n\n".join(blocks) + "\n")
            files[("order", w["name"])] = png(
                "order_%s.png" % _safe(w["name"]),
                "%s: %s of every run in the order run%s" % (w["name"], m["name"], sub), _ylabel(m))
            script += ["set xlabel %s" % _q("run index in the bench (hollow: warm-up, discarded)"),
                       "set key outside right", "plot " + ", ".join(plots)]
            reset()

    for sw, w, m, base, (rows, logx, ticks, mig_key, mig_label) in sweep_plots(data):
        dat = os.path.join(pdir, base + ".dat")
        with open(dat, "w") as f:
            f.write("\n".join("%.10g %.10g %.10g %.10g %s" % (r[0], r[1], r[2], r[3],
                                                            "NaN" if r[4] is None else "%.10g" % r[4])
                              for r in rows) + "\n")
        xt = ", ".join("%s %.10g" % (_q(t[1]), t[0]) for t in ticks)
        if logx:
            lo, hi = ticks[0][0], ticks[0][0]
            for t in ticks:
                lo, hi = min(lo, t[0]), max(hi, t[0])
            xr = "set logscale x; set xrange [%.10g:%.10g]" % (lo / 2, hi * 2)
        else:
            xr = "set xrange [-0.5:%g]" % (len(ticks) - 0.5)
        xlab = sw["knob"] + (" (log scale; 0 drawn a decade below the smallest value)" if logx else "")
        files[("sweep", sw["knob"], w["name"])] = png(
            base + ".png", "%s over %s (median, min..max)%s" % (w["name"], sw["knob"], sub), _ylabel(m))
        script += ["set xlabel %s" % _q(xlab), "set xtics (%s)%s" % (xt, rot), xr,
                   "plot %s using 1:2:3:4 with yerrorlines pt 7 lw 2 lc rgb '#3060a0' notitle" % _q(dat)]
        reset()
        if sum(r[4] is not None for r in rows) >= 2:
            files[("sweep_migrations", sw["knob"], w["name"])] = png(
                base + "_migrations.png", "%s over %s: %s%s" % (w["name"], sw["knob"],
                                                                mig_key.replace("_per_", "/"), sub), mig_label)
            script += ["set xlabel %s" % _q(xlab), "set xtics (%s)%s" % (xt, rot), xr,
                       "plot %s using 1:5 with linespoints pt 5 dt 2 lc rgb '#c03020' notitle" % _q(dat)]
            reset()

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
    return files, note


def plotter(prefer=None):
    """'matplotlib', 'gnuplot' or None: what draw() will use.  prefer (or
    SCHED_TUNE_BENCH_PLOTTER) picks one of those installed; 'none' none."""
    prefer = prefer or os.environ.get("SCHED_TUNE_BENCH_PLOTTER") or None
    if prefer == "none":
        return None
    have = []
    if prefer in (None, "matplotlib") and _pyplot() is not None:
        have.append("matplotlib")
    if prefer in (None, "gnuplot") and shutil.which("gnuplot"):
        have.append("gnuplot")
    return have[0] if have else None


def draw(out, data, prefer=None):
    """Writes plots/*.png; returns ({key: relative path}, note or None).
    Keys: ("dist", workload, figure), ("order", workload),
    ("sweep", knob, workload), ("sweep_migrations", knob, workload)."""
    which = plotter(prefer)
    if which is None:
        if prefer and prefer != "none":
            return {}, "%s is not installed: no plots" % prefer
        return {}, NO_PLOTTER
    if which == "matplotlib":
        files, note = _draw_mpl(_pyplot(), out, data)
    else:
        files, note = _draw_gnuplot(out, data)
    missing = [k for k, v in files.items() if not os.path.isfile(os.path.join(out, v))]
    for k in missing:
        del files[k]
    data["plotter"] = which
    return files, note
