# SPDX-License-Identifier: GPL-2.0
"""The paired analysis: a linear model of one figure of one workload with
the round as a block and the run order as a covariate, fitted by least
squares, and the drift test over the run order.

Configurations run in rounds, in a random order within each round, so a
machine that drifts (a guest whose host gets busier, a page cache that
warms up) moves every configuration of a round alike.  The model

    y = config + round + slope * order + error

(y the logarithm of the figure for times and rates, the figure itself for
counts) compares configurations within rounds: a drift between rounds is
absorbed by the round's block, a drift within a round by the slope over
the run order.  With one run per configuration and round and no slope it
is the paired t-test of each round's ratio to the baseline.  The contrast
of two configurations has a t distribution with n - p degrees of freedom
(n runs, p parameters).

The drift test fits y = config + slope * order (no blocks) and tests the
slope: a figure that moves with the run order whatever the configuration.

Standard library only (small dense matrices: tens of parameters), so the
guests of make check and a workstation give the same numbers; the tests
check it against numpy's least squares where numpy is installed.
"""

import math

from . import stats

EPS = 1e-10


def _invert(a):
    """Inverse of a symmetric positive semi-definite matrix by Gauss-Jordan
    with partial pivoting; None when a pivot is below EPS * the largest
    diagonal element (not of full rank)."""
    n = len(a)
    scale = max([abs(a[i][i]) for i in range(n)] + [1e-300])
    m = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) <= EPS * scale:
            return None
        m[col], m[piv] = m[piv], m[col]
        pv = m[col][col]
        m[col] = [x / pv for x in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                rowc = m[col]
                m[r] = [x - f * y for x, y in zip(m[r], rowc)]
    return [row[n:] for row in m]


def ols(X, y):
    """Least squares: (beta, (X'X)^-1, residual sum of squares, df), or
    None when X is not of full column rank or has no residual df."""
    n, p = len(X), len(X[0]) if X else 0
    if n <= p or p == 0:
        return None
    xtx = [[math.fsum(X[k][i] * X[k][j] for k in range(n)) for j in range(p)] for i in range(p)]
    inv = _invert(xtx)
    if inv is None:
        return None
    xty = [math.fsum(X[k][i] * y[k] for k in range(n)) for i in range(p)]
    beta = [math.fsum(inv[i][j] * xty[j] for j in range(p)) for i in range(p)]
    rss = math.fsum((y[k] - math.fsum(X[k][j] * beta[j] for j in range(p))) ** 2 for k in range(n))
    return beta, inv, rss, n - p


def fit(obs):
    """The paired model of one figure: configuration + round + order; where
    the run order is a function of configuration and round (the same order
    in every round: benches before seeded orders) the slope cannot be told
    apart and is left out, and the fit says so (terms, dropped)."""
    f = Fit(obs)
    if not f.ok and ("order", None) in f.idx:
        g = Fit(obs, slope=False)
        if g.ok:
            g.dropped = "the run order: the same in every round, it cannot be told from configuration and round"
            return g
    return f


class Fit:
    """One figure of one workload: obs = [(config, round, order, value)],
    value already on the model's scale (log or linear)."""

    dropped = None

    def __init__(self, obs, blocks=True, slope=True):
        self.obs = obs
        self.configs = sorted({o[0] for o in obs})
        rounds = sorted({o[1] for o in obs})
        self.terms = "config" + (" + round" if blocks else "") + (" + order" if slope else "")
        cols = [("config", c) for c in self.configs]
        if blocks:
            cols += [("round", r) for r in rounds[1:]]
        orders = [o[2] for o in obs]
        self.order_mean = math.fsum(orders) / len(orders) if orders else 0.0
        if slope and len(set(orders)) > 1:
            cols.append(("order", None))
        elif slope:
            self.terms = self.terms.replace(" + order", "")
        self.cols = cols
        idx = {c: i for i, c in enumerate(cols)}
        X = []
        for c, r, o, _ in obs:
            row = [0.0] * len(cols)
            row[idx[("config", c)]] = 1.0
            if ("round", r) in idx:
                row[idx[("round", r)]] = 1.0
            if ("order", None) in idx:
                row[idx[("order", None)]] = o - self.order_mean
            X.append(row)
        self.idx = idx
        self.res = ols(X, [o[3] for o in obs]) if obs else None
        if self.res:
            self.beta, self.inv, self.rss, self.df = self.res
            self.sigma2 = self.rss / self.df
        else:
            self.df = len(obs) - len(cols)

    @property
    def ok(self):
        return self.res is not None

    def contrast(self, a, b):
        """(estimate of a - b, its standard error, df), or None."""
        if not self.ok or ("config", a) not in self.idx or ("config", b) not in self.idx:
            return None
        i, j = self.idx[("config", a)], self.idx[("config", b)]
        var = self.sigma2 * (self.inv[i][i] + self.inv[j][j] - 2.0 * self.inv[i][j])
        return self.beta[i] - self.beta[j], math.sqrt(max(var, 0.0)), self.df

    def slope(self):
        """(slope per run, its standard error, df), or None."""
        k = self.idx.get(("order", None))
        if not self.ok or k is None:
            return None
        return self.beta[k], math.sqrt(max(self.sigma2 * self.inv[k][k], 0.0)), self.df


def t_test(est, se, df, alpha):
    """Two-sided t-test and (1 - alpha) interval of an estimate."""
    if se == 0.0:
        return None
    t = est / se
    p = min(1.0, 2.0 * stats.t_sf(abs(t), df))
    half = stats.t_ppf(1.0 - alpha / 2.0, df) * se
    return {"t": t, "p": p, "ci": [est - half, est + half]}


def mde(se, df, alpha, power=stats.POWER):
    """The smallest difference a two-sided test at alpha detects with the
    given power: (t_{1-alpha/2} + t_{power}) * se."""
    return (stats.t_ppf(1.0 - alpha / 2.0, df) + stats.t_ppf(power, df)) * se


def drift(obs, scale, alpha):
    """The drift test of one figure: y = config + slope * order; returns
    the slope's change over the whole run (in percent for a log scale, in
    the figure's unit for a linear one), its interval, p and verdict."""
    configs = {o[0] for o in obs}
    if len(obs) < len(configs) + 3:
        return {"note": "too few runs for a drift test (%d runs, %d configurations)" % (len(obs), len(configs))}
    f = Fit(obs, blocks=False, slope=True)
    s = f.slope()
    if s is None:
        return {"note": "no drift test: the model has no residual degrees of freedom"}
    est, se, df = s
    orders = [o[2] for o in obs]
    span = max(orders) - min(orders)
    out = {"runs": len(obs), "span_runs": span, "df": df, "scale": scale}
    tt = t_test(est, se, df, alpha)
    if tt is None:
        out.update(note="no spread: no drift test", p=None)
        return out

    def over(x):
        return (math.exp(x * span) - 1.0) * 100.0 if scale == "log" else x * span
    out.update(change=over(est), ci=[over(tt["ci"][0]), over(tt["ci"][1])], p=tt["p"],
               significant=tt["p"] < alpha)
    return out
