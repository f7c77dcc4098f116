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

__all__ = ["median", "mean", "hmean", "stdev", "coeffvar", "summary", "betainc",
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


ESTIMATORS = {
    "mean": "mean, Welch's t-test and interval",
    "hmean": "harmonic mean (Hmean), Welch's t-test and interval on the "
             "reciprocals (time per unit of work)",
}


def estimate(xs, estimator):
    if not xs:
        return None
    if estimator == "hmean":
        return hmean(xs)
    return mean(xs)


def compare(a, b, estimator="mean", alpha=0.05, power=POWER):
    """Configuration a against baseline b with one estimator.

    mean:  change of the means, Welch's (1 - alpha) interval of the
           difference, as a percentage of b's mean.
    hmean: change of the harmonic means, for throughputs: Welch on the
           reciprocals 1/x (time per unit of work, whose arithmetic mean
           is 1/Hmean); the interval of the reciprocals' difference d maps
           to the change hm_a/hm_b - 1 = r_b/(r_b + d) - 1.
    Both treat the baseline's estimate as fixed when turning an interval
    into a percentage.  mde_pct: the smallest change (in percent of b) a
    two-sided test at alpha detects with the given power, from the same
    standard error and degrees of freedom.  p is None (and nothing
    significant) with fewer than 2 values a side or no spread at all.
    """
    if estimator == "hmean" and (not a or not b or min(a) <= 0 or min(b) <= 0):
        estimator = "mean"
    ea, eb = estimate(a, estimator), estimate(b, estimator)
    out = {"estimator": estimator, "est_a": ea, "est_b": eb, "n_a": len(a), "n_b": len(b),
           "pct": pct_change(ea, eb) if ea is not None and eb is not None else None,
           "ci_pct": None, "p": None, "mde_pct": None, "significant": False,
           "alpha": alpha, "note": None}
    if estimator == "hmean":
        ta, tb = [1.0 / x for x in a], [1.0 / x for x in b]
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
    lo, hi = w["ci"]
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
