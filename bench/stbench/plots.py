# SPDX-License-Identifier: GPL-2.0
"""PNG plots, drawn by Debian's python3-matplotlib (Agg, no display):

- forest_<workload>.png: every headline comparison of a workload, the
  change with its interval (at the level of the marks) and, shaded, the
  smallest change the run could have detected; the one plot a verdict
  needs;
- <workload>_<figure>.png: every run of each configuration and the
  figure's estimator;
- order_<workload>.png: every run in the order it ran, one small panel per
  configuration over the others' runs in grey (drift shows as a slope
  every panel shares);
- sweep_<knob>_<workload>.png and ..._migrations.png: a sweep's figure
  (its estimator with its interval) and task migrations over the knob's
  values, one y axis each, a log x axis for values spanning a decade.

Axes carry human units (ms, us, k/s; nanosecond knob values as 2 ms).
Without matplotlib no plot is drawn and the report says so."""

import math
import os
import re

from . import stats
from .results import sweep_workloads

NO_PLOTTER = "python3-matplotlib is not installed: no plots (apt install python3-matplotlib)"


def _safe(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


# --- human units ---------------------------------------------------------------
TIME_UNITS = (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9))


def human(unit, values):
    """(factor, unit label) that puts values in a human range: seconds,
    milliseconds or microseconds for times, k/M for large counts and rates."""
    vals = [abs(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v) and v != 0]
    if not vals:
        return 1.0, unit
    top = max(vals)
    base = dict(TIME_UNITS).get(unit)
    if base is not None:
        secs = top * base
        for name, size in TIME_UNITS:
            if secs >= size or name == "ns":
                return base / size, name
    for f, pre in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if top >= 10 * f:
            return 1.0 / f, "%s %s" % (pre, unit) if unit else pre
    return 1.0, unit


def fmt_ns(v):
    """A knob value in nanoseconds as people read it: 2000000 -> '2 ms'."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return str(v)
    if x == 0:
        return "0"
    for name, size in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(x) >= size:
            return "%g %s" % (x / size, name)
    return "%g ns" % x


def tick_label(knob, value):
    return fmt_ns(value) if knob.endswith("_ns") else str(value)


def _ylabel(m, unit):
    d = {"lower": ", lower is better", "higher": ", higher is better"}.get(m.get("better"), "")
    return "%s (%s%s)" % (m["name"], unit, d)


# --- what is drawn ------------------------------------------------------------------
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
            lab = {"gmean": "geometric mean", "hmean": "Hmean"}.get(ms.get("estimator"), "mean")
            out.append((cn, list(ms["values"]), ms["median"] if est is None else est, lab))
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


def _interval(ms, alpha):
    """The estimator's own (1 - alpha) interval: on the log scale for the
    geometric mean, else the mean's; (lo, hi) or None."""
    vals = ms.get("values") or []
    if len(vals) < 2:
        return None
    if ms.get("estimator") == "gmean":
        if min(vals) <= 0:
            return None
        xs = [math.log(v) for v in vals]
    else:
        xs = vals
    half = stats.t_ppf(1 - alpha / 2, len(xs) - 1) * stats.stdev(xs) / math.sqrt(len(xs))
    mu = stats.mean(xs)
    if ms.get("estimator") == "gmean":
        return math.exp(mu - half), math.exp(mu + half)
    return mu - half, mu + half


def sweep_series(data, sw, w):
    """(rows [(x, estimate, lo, hi, migrations or None)], log x?, tick
    labels [(x, value)], migrations key, migrations label), or None with
    fewer than two points.  The estimate is the figure's own estimator
    (as in the tables), lo..hi its interval."""
    m = w["metrics"][0]
    cells = data["summary"]["cells"]
    alpha = data["summary"].get("alpha", 0.05)
    # fixed work (timed): migrations per run; timed runs: per second
    mig_key, mig_label = (("migrations_per_run", "task migrations per run (mean)")
                          if m["unit"] == "s" else
                          ("migrations_per_s", "task migrations/s (mean)"))
    xs, logx = sweep_axis([pt["value"] for pt in sw["points"]])
    rows = []
    for x, pt in zip(xs, sw["points"]):
        cell = cells.get(w["name"], {}).get(pt["config"], {})
        ms = cell.get("metrics", {}).get(m["name"])
        mig = cell.get("rates", {}).get(mig_key, {}).get("mean")
        if ms and ms.get("n") and ms.get("estimate") is not None:
            iv = _interval(ms, alpha) or (ms["estimate"], ms["estimate"])
            rows.append((x, ms["estimate"], iv[0], iv[1], mig))
    if len(rows) < 2:
        return None
    ticks = [(x, tick_label(sw["knob"], pt["value"])) for x, pt in zip(xs, sw["points"])]
    return rows, logx, ticks, mig_key, mig_label


def forest_series(data, w):
    """The headline comparisons of workload w: [(label, cmp)] with an interval."""
    out = []
    for key, cmp in data["summary"].get("family", {}).items():
        wn, met, a, b = key.split("|")
        if wn == w["name"] and cmp.get("pct") is not None:
            out.append(("%s vs %s: %s" % (a, b, met), cmp))
    return out


def plan(data):
    """{key: file under plots/} of every plot the data allows; the same
    names whether they are drawn now or were drawn earlier."""
    files = {}
    for w in data["workloads"]:
        if forest_series(data, w):
            files[("forest", w["name"])] = "forest_%s.png" % _safe(w["name"])
        for m in w["metrics"]:
            if dist_series(data, w, m):
                files[("dist", w["name"], m["name"])] = "%s_%s.png" % (_safe(w["name"]), _safe(m["name"]))
        if w["metrics"] and order_series(data, w, w["metrics"][0]):
            files[("order", w["name"])] = "order_%s.png" % _safe(w["name"])
    for sw in data.get("sweeps", []):
        for w in sweep_workloads(data, sw):
            s = sweep_series(data, sw, w)
            if s:
                stem = "sweep_%s_%s" % (_safe(sw["knob"]), _safe(w["name"]))
                files[("sweep", sw["knob"], w["name"])] = stem + ".png"
                if sum(r[4] is not None for r in s[0]) >= 2:
                    files[("sweep_migrations", sw["knob"], w["name"])] = stem + "_migrations.png"
    return files


def existing(out, data):
    """The planned plots whose PNG is on disk in out/plots (drawn by an
    earlier report): {key: relative path}."""
    return {k: "plots/" + f for k, f in plan(data).items() if os.path.isfile(os.path.join(out, "plots", f))}


def _subtitle(data):
    return "  [qemu TCG: not hardware timings]" if data["stamp"].get("hypervisor", {}).get("emulated") else ""


# --- matplotlib ------------------------------------------------------------------
def _pyplot():
    """matplotlib.pyplot on the Agg backend (files only), or None."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - not installed, or broken: no plots
        return None
    return plt


MARKERS = "osD^vP*Xhp<>"


def styles(plt, names):
    """A distinct (colour, marker) per configuration: tab20's colours, then
    markers once the colours are used up."""
    cmap = plt.get_cmap("tab20")
    return {cn: (cmap(i % 20), MARKERS[(i // 20) % len(MARKERS)]) for i, cn in enumerate(names)}


def _draw_forest(plt, data, w, sub):
    rows = forest_series(data, w)
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.32 * len(rows)))
    lin = any(c.get("scale") != "log" for _, c in rows)
    ys = list(range(len(rows)))[::-1]
    for y, (lab, c) in zip(ys, rows):
        up, dn = c.get("mde_pct"), c.get("mde_down_pct")
        if up is not None:
            lo_b = -dn if dn is not None else -up
            ax.barh(y, up - lo_b, left=lo_b, height=0.7, color="#d8d8d8", zorder=1,
                    label="smallest detectable" if y == ys[0] else None)
        col = "#c03020" if c.get("significant") else "#3060a0"
        ci = c.get("ci_pct")
        if ci:
            ax.plot(ci, [y, y], color=col, linewidth=2, zorder=2)
        ax.plot([c["pct"]], [y], marker="D" if c.get("significant") else "o", color=col, zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    if not lin:
        # a ratio scale: equal distances for x and 1/x
        lo, hi = ax.get_xlim()
        ax.set_xscale("function", functions=(lambda p: _log1p_pct(p), lambda v: _expm1_pct(v)))
        ticks = spaced_ticks(max(lo, -99.9), hi)
        ax.set_xticks(ticks)
        ax.set_xticklabels(["%+g%%" % t if t else "0" for t in ticks], fontsize="small")
        ax.set_xlim(max(lo, -99.9), hi)
    ax.set_yticks(ys)
    ax.set_yticklabels([r[0] for r in rows], fontsize="small")
    lv = data["summary"].get("level")
    ax.set_xlabel("change in %% (%s; diamond, red: marked; interval at %s; grey: smallest detectable, "
                  "80%% power at alpha/%d)" % ("ratio scale" if not lin else "linear", "n/a" if lv is None
                                             else "%.4g%%" % (100 * lv), data["summary"].get("family_size") or 1),
                  fontsize="small")
    ax.set_title("%s: headline comparisons%s" % (w["name"], sub))
    ax.grid(axis="x", alpha=0.4)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    return fig


# changes in percent at round ratios (x0.1, x0.25, x0.5, x0.8 and back)
RATIO_TICKS = (-99, -90, -75, -50, -20, -10, -5, 0, 5, 10, 25, 100, 300, 900, 9900)


def spaced_ticks(lo, hi, n=8):
    """RATIO_TICKS between lo and hi (percent), at least 1/n of the span
    apart on the log scale, 0 always among them."""
    def pos(t):
        return math.log1p(t / 100.0)
    cand = [t for t in RATIO_TICKS if lo <= t <= hi]
    if not cand:
        return [0]
    gap = (pos(hi) - pos(max(lo, -99.9))) / n
    out = [0] if lo <= 0 <= hi else []
    for t in sorted(cand, key=abs):
        if all(abs(pos(t) - pos(u)) >= gap for u in out):
            out.append(t)
    return sorted(out)


def _log1p_pct(p):
    import numpy as np
    return np.log(np.maximum(1.0 + np.asarray(p, dtype=float) / 100.0, 1e-9))


def _expm1_pct(v):
    import numpy as np
    return (np.exp(np.asarray(v, dtype=float)) - 1.0) * 100.0


def _draw_dist(plt, data, w, m, sty, sub):
    series = dist_series(data, w, m)
    f, unit = human(m["unit"], [v for s in series for v in s[1]])
    fig, ax = plt.subplots(figsize=(10, 5.6))
    for i, (cn, vals, est, lab) in enumerate(series):
        c, mk = sty.get(cn, ("#808080", "o"))
        ax.scatter([i + _jitter(j, len(vals)) for j in range(len(vals))], [v * f for v in vals],
                   s=26, color=c, marker=mk, zorder=3)
        ax.hlines(est * f, i - 0.3, i + 0.3, colors="black", linewidth=2.5, zorder=2,
                  label=lab if i == 0 else None)
    ax.set_xticks(range(len(series)))
    ax.set_xticklabels([s[0] for s in series], rotation=30, ha="right")
    ax.set_xlim(-0.6, len(series) - 0.4)
    ax.set_ylabel(_ylabel(m, unit))
    ax.set_title("%s: %s per configuration%s" % (w["name"], m["name"], sub))
    ax.grid(axis="y", alpha=0.4)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    return fig


def _draw_order(plt, data, w, cfgs, sty, sub):
    m = w["metrics"][0]
    series = order_series(data, w, m)
    names = [c for c in cfgs if c in series] + [c for c in series if c not in cfgs]
    f, unit = human(m["unit"], [y for s in series.values() for y in s[1]])
    ncol = min(4, len(names))
    nrow = int(math.ceil(len(names) / float(ncol)))
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.2 * ncol + 1, 2.4 * nrow + 1), sharex=True, sharey=True,
                             squeeze=False)
    allx = [x for s in series.values() for x in s[0]]
    ally = [y * f for s in series.values() for y in s[1]]
    for k, ax in enumerate(a for row in axes for a in row):
        if k >= len(names):
            ax.set_visible(False)
            continue
        cn = names[k]
        xs, ys, ws = series[cn]
        c, mk = sty.get(cn, ("#808080", "o"))
        ax.scatter(allx, ally, s=6, color="#c8c8c8", zorder=1)
        ax.scatter([x for x, wu in zip(xs, ws) if not wu], [y * f for y, wu in zip(ys, ws) if not wu],
                   s=22, color=c, marker=mk, edgecolors="black", linewidths=0.4, zorder=3)
        if any(ws):
            ax.scatter([x for x, wu in zip(xs, ws) if wu], [y * f for y, wu in zip(ys, ws) if wu],
                       s=20, facecolors="none", edgecolors=[c], marker=mk, zorder=3)
        ax.set_title(cn, fontsize="small")
        ax.grid(alpha=0.3)
    fig.supxlabel("run index in the bench (grey: every other configuration; hollow: warm-up, discarded)",
                  fontsize="small")
    fig.supylabel(_ylabel(m, unit), fontsize="small")
    fig.suptitle("%s: %s of every run in the order run%s" % (w["name"], m["name"], sub))
    return fig


def _jitter(j, n):
    return (j - (n - 1) / 2.0) * min(0.08, 0.6 / max(n, 1))


def draw_all(plt, out, data):
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    sub = _subtitle(data)
    cfgs = _configs(data)
    sty = styles(plt, cfgs)
    files = {}
    wanted = plan(data)

    def save(key, fig):
        fig.tight_layout()
        fig.savefig(os.path.join(pdir, wanted[key]), dpi=96)
        plt.close(fig)
        files[key] = "plots/" + wanted[key]

    for w in data["workloads"]:
        if ("forest", w["name"]) in wanted:
            save(("forest", w["name"]), _draw_forest(plt, data, w, sub))
        for m in w["metrics"]:
            if ("dist", w["name"], m["name"]) in wanted:
                save(("dist", w["name"], m["name"]), _draw_dist(plt, data, w, m, sty, sub))
        if ("order", w["name"]) in wanted:
            save(("order", w["name"]), _draw_order(plt, data, w, cfgs, sty, sub))

    for sw in data.get("sweeps", []):
        for w in sweep_workloads(data, sw):
            s = sweep_series(data, sw, w)
            if not s:
                continue
            rows, logx, ticks, mig_key, mig_label = s
            m = w["metrics"][0]
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

            f, unit = human(m["unit"], [r[3] for r in rows])
            est = {"gmean": "geometric mean"}.get(estimator(data, w, m), "mean")
            fig, ax = axes("%s over %s (%s, %d%% interval)%s" % (
                w["name"], sw["knob"], est, int(round(100 * (1 - data["summary"].get("alpha", 0.05)))), sub),
                _ylabel(m, unit))
            ax.errorbar([r[0] for r in rows], [r[1] * f for r in rows],
                        yerr=[[(r[1] - r[2]) * f for r in rows], [(r[3] - r[1]) * f for r in rows]],
                        marker="o", color="#3060a0", capsize=4, linewidth=2)
            save(("sweep", sw["knob"], w["name"]), fig)
            if ("sweep_migrations", sw["knob"], w["name"]) in wanted:
                mig = [(r[0], r[4]) for r in rows if r[4] is not None]
                f, unit = human("", [p[1] for p in mig])
                fig, ax = axes("%s over %s: %s%s" % (w["name"], sw["knob"], mig_key.replace("_per_", "/"), sub),
                               mig_label + (" (%s)" % unit if unit else ""))
                ax.plot([p[0] for p in mig], [p[1] * f for p in mig], marker="s", linestyle="--", color="#c03020")
                save(("sweep_migrations", sw["knob"], w["name"]), fig)
    return files


def estimator(data, w, m):
    for cell in data["summary"]["cells"].get(w["name"], {}).values():
        ms = cell.get("metrics", {}).get(m["name"])
        if ms:
            return ms.get("estimator")
    return None


def plotter():
    """'matplotlib' when it can be imported, else None (SCHED_TUNE_BENCH_PLOTTER=none: None)."""
    if os.environ.get("SCHED_TUNE_BENCH_PLOTTER") == "none":
        return None
    return "matplotlib" if _pyplot() is not None else None


def draw(out, data):
    """Writes plots/*.png; returns ({key: relative path}, note or None).
    Keys: ("forest", workload), ("dist", workload, figure), ("order",
    workload), ("sweep", knob, workload), ("sweep_migrations", knob,
    workload)."""
    if plotter() is None:
        return {}, NO_PLOTTER
    files = draw_all(_pyplot(), out, data)
    data["plotter"] = "matplotlib"
    return files, None
