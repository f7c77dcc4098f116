# SPDX-License-Identifier: GPL-2.0
"""Descriptive statistics, Student's t distribution and Welch's t-test.

Standard library only (Debian's python3): the regularized incomplete beta
function by its continued fraction (Lentz's method), the t CDF from it,
the t quantile by bisection on the CDF.
"""

import math

__all__ = ["median", "mean", "stdev", "summary", "betainc", "t_cdf", "t_sf",
           "t_ppf", "welch", "ratio_ci", "pct_change"]


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
    """P(T > t) for Student's t with df degrees of freedom (df > 0, real)."""
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    if math.isinf(df):
        return 0.5 * math.erfc(t / math.sqrt(2.0))
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_cdf(t, df):
    return 1.0 - t_sf(t, df)


def t_ppf(q, df):
    """Quantile of Student's t: the t with t_cdf(t, df) == q."""
    if not 0.0 < q < 1.0:
        raise ValueError("q out of (0, 1)")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_ppf(1.0 - q, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < q:
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def welch(a, b, alpha=0.05):
    """Welch's unequal-variance t-test of mean(a) - mean(b).

    Returns t, df, the two-sided p-value, the (1 - alpha) confidence
    interval of the difference and whether p < alpha; None when either
    sample has fewer than 2 values.
    """
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return None
    m1, m2 = mean(a), mean(b)
    v1, v2 = variance(a) / n1, variance(b) / n2
    se2 = v1 + v2
    diff = m1 - m2
    if se2 == 0.0:
        # no spread at all: any difference is exact
        same = diff == 0.0
        return {"t": 0.0 if same else math.copysign(math.inf, diff),
                "df": float(n1 + n2 - 2), "p": 1.0 if same else 0.0,
                "diff": diff, "ci": [diff, diff], "alpha": alpha,
                "significant": not same}
    t = diff / math.sqrt(se2)
    df = se2 * se2 / ((v1 * v1) / (n1 - 1) + (v2 * v2) / (n2 - 1))
    p = min(1.0, 2.0 * t_sf(abs(t), df))
    half = t_ppf(1.0 - alpha / 2.0, df) * math.sqrt(se2)
    return {"t": t, "df": df, "p": p, "diff": diff,
            "ci": [diff - half, diff + half], "alpha": alpha,
            "significant": p < alpha}


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
    if w is None:
        return {"ratio": r, "ci": None, "p": None, "significant": False,
                "alpha": alpha}
    return {"ratio": r, "ci": [math.exp(w["ci"][0]), math.exp(w["ci"][1])],
            "p": w["p"], "significant": w["significant"], "alpha": alpha}


def pct_change(new, base):
    if base == 0:
        return None
    return (new - base) / abs(base) * 100.0
