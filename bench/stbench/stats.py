# SPDX-License-Identifier: GPL-2.0
"""Descriptive statistics, Student's t distribution, Welch's t-test, the
comparison of two configurations and the Benjamini-Hochberg correction.

The t distribution comes from Debian's python3-scipy where it is installed
(BACKEND says which); otherwise from the standard library: the regularized
incomplete beta function by its continued fraction (Lentz's method), the
t CDF from it, the t quantile by bisection on the CDF.  Both agree to
1e-9 (bench/tests/test_stats.py), so a bare machine, the qemu guests of
make check and a workstation with scipy give the same verdicts.
"""

import math

try:  # Debian: python3-scipy (optional)
    from scipy import stats as _sps
    import scipy as _scipy
    BACKEND = "scipy %s" % _scipy.__version__
except Exception:  # noqa: BLE001 - any import problem means: no scipy
    _sps = None
    BACKEND = "standard library"

__all__ = ["median", "median_ci", "mean", "hmean", "gmean", "log_change", "lin_change", "stdev", "coeffvar", "summary", "betainc",
           "t_cdf", "t_sf", "t_ppf", "welch", "compare", "bh_adjust",
           "ratio_ci", "pct_change", "BACKEND", "POWER"]

# the power at which the smallest detectable effect is stated
POWER = 0.8


def mean(xs):
    return math.fsum(xs) / len(xs)


def median(xs):
    s = sorted(xs)
    n = len(s)
    if not n:
        raise ValueError("median of no values")
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2.0


def median_ci(xs, conf=0.95):
    """The distribution-free interval of the median from the order
    statistics of @xs: (low, high, coverage) for the innermost symmetric
    pair whose coverage, under Binomial(n, 1/2), is still at least @conf,
    or the outermost pair, which covers less, where no pair reaches it
    (fewer than 6 values at 95%)."""
    s = sorted(xs)
    n = len(s)
    if not n:
        raise ValueError("median interval of no values")

    def cdf(j):  # P(X <= j), X ~ Binomial(n, 1/2)
        return math.fsum(math.comb(n, i) for i in range(j + 1)) / 2.0 ** n

    j = 1
    while j < n / 2 and 1 - 2 * cdf(j) >= conf:
        j += 1
    return s[j - 1], s[n - j], 1 - 2 * cdf(j - 1)


def variance(xs):
    """Sample variance (n - 1); 0 for a single value."""
    n = len(xs)
    if n < 2:
        return 0.0
    m = mean(xs)
    return math.fsum((x - m) ** 2 for x in xs) / (n - 1)


def stdev(xs):
    return math.sqrt(variance(xs))


def hmean(xs):
    """Harmonic mean (mmtests' Hmean for throughputs); None unless every
    value is positive."""
    if not xs or min(xs) <= 0:
        return None
    return len(xs) / math.fsum(1.0 / x for x in xs)


def coeffvar(xs):
    """Coefficient of variation in percent: sample stddev / |mean| * 100
    (mmtests' CoeffVar); None for fewer than 2 values or a zero mean."""
    if len(xs) < 2:
        return None
    m = mean(xs)
    if m == 0:
        return None
    return stdev(xs) / abs(m) * 100.0


def summary(xs):
    """n, median, min, max, mean, sample stddev of a list of numbers."""
    xs = [float(x) for x in xs]
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "median": median(xs), "min": min(xs),
            "max": max(xs), "mean": mean(xs), "stddev": stdev(xs)}


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < tiny:
        d = tiny
    d = 1.0 / d
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        if abs(d) < tiny:
            d = tiny
        c = 1.0 + aa / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        if abs(d) < tiny:
            d = tiny
        c = 1.0 + aa / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            return h
    raise ArithmeticError("incomplete beta: no convergence (a=%g b=%g x=%g)" % (a, b, x))


def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1."""
    if not 0.0 <= x <= 1.0:
        raise ValueError("x out of [0, 1]")
    if x == 0.0 or x == 1.0:
        return x
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_sf(t, df):
    """P(T > t) for Student's t with df degrees of freedom (df > 0, real):
    scipy's where installed, else the standard library's (t_sf_std)."""
    if _sps is not None and not math.isinf(t) and not math.isinf(df):
        return float(_sps.t.sf(t, df))
    return t_sf_std(t, df)


def t_sf_std(t, df):
    """P(T > t), standard library only."""
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    if math.isinf(df):
        return 0.5 * math.erfc(t / math.sqrt(2.0))
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_cdf(t, df):
    return 1.0 - t_sf(t, df)


def t_cdf_std(t, df):
    return 1.0 - t_sf_std(t, df)


def t_ppf(q, df):
    """Quantile of Student's t: the t with t_cdf(t, df) == q (scipy's
    where installed, else t_ppf_std)."""
    if not 0.0 < q < 1.0:
        raise ValueError("q out of (0, 1)")
    if _sps is not None and not math.isinf(df):
        return float(_sps.t.ppf(q, df))
    return t_ppf_std(q, df)


def t_ppf_std(q, df):
    """Quantile of Student's t, standard library only."""
    if not 0.0 < q < 1.0:
        raise ValueError("q out of (0, 1)")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_ppf_std(1.0 - q, df)
    lo, hi = 0.0, 1.0
    while t_cdf_std(hi, df) < q:
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf_std(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def welch(a, b, alpha=0.05):
    """Welch's unequal-variance t-test of mean(a) - mean(b).

    Returns t, df, the two-sided p-value, the (1 - alpha) confidence
    interval of the difference, its standard error and whether p < alpha;
    None when either sample has fewer than 2 values.  When neither sample
    varies at all the test is undefined (a zero standard error, not an
    infinitely precise one: quantised figures, a workload that measured
    nothing): p and the interval are None and nothing is significant.
    """
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return None
    m1, m2 = mean(a), mean(b)
    v1, v2 = variance(a) / n1, variance(b) / n2
    se2 = v1 + v2
    diff = m1 - m2
    if se2 == 0.0:
        return {"t": None, "df": float(n1 + n2 - 2), "p": None, "diff": diff,
                "ci": None, "se": 0.0, "alpha": alpha, "significant": False,
                "degenerate": "no spread in either sample: no test"}
    t = diff / math.sqrt(se2)
    df = se2 * se2 / ((v1 * v1) / (n1 - 1) + (v2 * v2) / (n2 - 1))
    p = min(1.0, 2.0 * t_sf(abs(t), df))
    half = t_ppf(1.0 - alpha / 2.0, df) * math.sqrt(se2)
    return {"t": t, "df": df, "p": p, "diff": diff,
            "ci": [diff - half, diff + half], "se": math.sqrt(se2),
            "alpha": alpha, "significant": p < alpha}


def ratio_ci(a, b, alpha=0.05):
    """Ratio of geometric means a / b with its (1 - alpha) interval.

    Welch's interval on the logarithms, mapped back: the interval of a
    ratio stays positive and is symmetric in log space, as timings are.
    """
    if not a or not b or min(a) <= 0 or min(b) <= 0:
        return None
    la = [math.log(x) for x in a]
    lb = [math.log(x) for x in b]
    r = math.exp(mean(la) - mean(lb))
    w = welch(la, lb, alpha)
    if w is None or w["ci"] is None:
        return {"ratio": r, "ci": None, "p": None, "significant": False,
                "alpha": alpha}
    return {"ratio": r, "ci": [math.exp(w["ci"][0]), math.exp(w["ci"][1])],
            "p": w["p"], "significant": w["significant"], "alpha": alpha}


def pct_change(new, base):
    if base == 0:
        return None
    return (new - base) / abs(base) * 100.0


def gmean(xs):
    """Geometric mean; None unless every value is positive."""
    if not xs or min(xs) <= 0:
        return None
    return math.exp(math.fsum(math.log(x) for x in xs) / len(xs))


# One estimator per figure, fixed by the figure's scale (never by its
# values): "log" figures (times, latencies, rates: positive by nature)
# are compared as ratios, "linear" ones (counts that can be 0) as
# differences.
ESTIMATORS = {
    "gmean": "geometric mean; the change is a ratio: a t interval on the log scale, mapped back "
             "(never below -100%)",
    "mean": "mean; the change is a difference, in percent of the baseline's mean, with its t interval",
}
SCALE_ESTIMATOR = {"log": "gmean", "linear": "mean"}


def estimate(xs, estimator):
    if not xs:
        return None
    if estimator == "gmean":
        return gmean(xs)
    if estimator == "hmean":
        return hmean(xs)
    return mean(xs)


def log_change(d, se, df, alpha, power=POWER):
    """A difference d of logarithms with its standard error: the change in
    percent, its (1 - alpha) interval in percent, p, and the smallest
    detectable changes down and up (two-sided test at alpha, the power)."""
    out = {"pct": (math.exp(d) - 1.0) * 100.0, "ratio": math.exp(d)}
    if se == 0.0:
        out["note"] = "no spread"
        return out
    t = d / se
    half = t_ppf(1.0 - alpha / 2.0, df) * se
    k = t_ppf(1.0 - alpha / 2.0, df) + t_ppf(power, df)
    out.update(p=min(1.0, 2.0 * t_sf(abs(t), df)),
               ci_pct=[(math.exp(d - half) - 1.0) * 100.0, (math.exp(d + half) - 1.0) * 100.0],
               mde_pct=(math.exp(k * se) - 1.0) * 100.0, mde_down_pct=(1.0 - math.exp(-k * se)) * 100.0)
    return out


def lin_change(d, se, df, base, alpha, power=POWER):
    """A difference d in the figure's unit against a baseline estimate
    base: the change, its interval and the smallest detectable change, in
    percent of |base| (base taken as fixed)."""
    if se == 0.0:
        return {"pct": d / abs(base) * 100.0 if base else None, "note": "no spread"}
    t = d / se
    if base == 0:
        # a test, but no change in percent to give an interval of
        return {"pct": None, "p": min(1.0, 2.0 * t_sf(abs(t), df)), "note": "baseline 0"}
    out = {"pct": d / abs(base) * 100.0}
    half = t_ppf(1.0 - alpha / 2.0, df) * se
    k = t_ppf(1.0 - alpha / 2.0, df) + t_ppf(power, df)
    out.update(p=min(1.0, 2.0 * t_sf(abs(t), df)),
               ci_pct=[(d - half) / abs(base) * 100.0, (d + half) / abs(base) * 100.0],
               mde_pct=k * se / abs(base) * 100.0, mde_down_pct=k * se / abs(base) * 100.0)
    return out


def compare(a, b, estimator="mean", alpha=0.05, power=POWER):
    """Configuration a against baseline b, two independent samples (runs
    of different benches: compare DIR...; within a bench the paired model
    of model.py is used instead).

    gmean: the ratio of geometric means, Welch's t-test and interval on
           the logarithms, mapped back to a change in percent;
    mean:  the difference of the means, Welch's t-test and interval, in
           percent of b's mean (taken as fixed);
    hmean: the ratio of harmonic means, Welch on the reciprocals (kept
           for results of older benches).
    The estimator is never switched: a value <= 0 under gmean or hmean
    gives no comparison and the note says why.  mde_pct (mde_down_pct):
    the smallest increase (decrease) a two-sided test at alpha detects
    with the given power, from the same standard error and df.  p is
    None (nothing significant) with fewer than 2 values a side or no
    spread at all.
    """
    ea, eb = estimate(a, estimator), estimate(b, estimator)
    out = {"estimator": estimator, "est_a": ea, "est_b": eb, "n_a": len(a), "n_b": len(b),
           "pct": pct_change(ea, eb) if ea is not None and eb is not None else None,
           "ci_pct": None, "p": None, "mde_pct": None, "significant": False,
           "alpha": alpha, "note": None}
    if estimator in ("gmean", "hmean") and ((a and min(a) <= 0) or (b and min(b) <= 0)):
        out["note"] = "a value <= 0: no %s" % estimator
        return out
    if estimator == "hmean":
        ta, tb = [1.0 / x for x in a], [1.0 / x for x in b]
    elif estimator == "gmean":
        ta, tb = [math.log(x) for x in a], [math.log(x) for x in b]
    else:
        ta, tb = a, b
    w = welch(ta, tb, alpha)
    out["welch"] = w
    if w is None:
        out["note"] = "n<2"
        return out
    if w.get("degenerate"):
        out["note"] = "no spread"
        return out
    out["p"] = w["p"]
    out["significant"] = w["significant"]
    out["df"], out["se"], out["d"] = w["df"], w["se"], w["diff"]
    lo, hi = w["ci"]
    if estimator == "gmean":
        ch = log_change(w["diff"], w["se"], w["df"], alpha, power)
        out.update(ci_pct=ch["ci_pct"], mde_pct=ch["mde_pct"], mde_down_pct=ch["mde_down_pct"])
        return out
    base = mean(tb)
    if base == 0:
        out["note"] = "baseline 0"
    else:
        if estimator == "hmean":
            ends = []
            for d in (hi, lo):
                ends.append((base / (base + d) - 1.0) * 100.0 if base + d > 0 else math.inf)
            out["ci_pct"] = ends
        else:
            out["ci_pct"] = [lo / abs(base) * 100.0, hi / abs(base) * 100.0]
        k = t_ppf(1.0 - alpha / 2.0, w["df"]) + t_ppf(power, w["df"])
        out["mde_pct"] = k * w["se"] / abs(base) * 100.0
        out["mde_down_pct"] = out["mde_pct"]
    return out


def bh_adjust(pvals):
    """Benjamini-Hochberg adjusted p-values (R's p.adjust(p, "BH")), in
    the order given; None stays None and does not count in the family."""
    idx = [i for i, p in enumerate(pvals) if p is not None]
    m = len(idx)
    out = [None] * len(pvals)
    order = sorted(idx, key=lambda i: pvals[i], reverse=True)
    run = 1.0
    for rank, i in zip(range(m, 0, -1), order):
        run = min(run, pvals[i] * m / rank)
        out[i] = run
    return out
