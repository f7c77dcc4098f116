# SPDX-License-Identifier: GPL-2.0
"""Known values for the bench's statistics (stdlib unittest).

References: closed forms of the t distribution for 1 and 2 degrees of
freedom; two-sided critical values from the standard t table; R's
t.test(extra ~ group, data = sleep) (Welch: t = -1.8608, df = 17.776,
p-value = 0.07939, 95 % CI -3.3654832 .. 0.2054832).
"""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from stbench import stats  # noqa: E402

SLEEP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


class TestDescriptive(unittest.TestCase):
    def test_median_odd_even(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)

    def test_stdev(self):
        # sample stddev of 2,4,4,4,5,5,7,9 is sqrt(32/7)
        self.assertAlmostEqual(stats.stdev([2, 4, 4, 4, 5, 5, 7, 9]),
                               math.sqrt(32 / 7), places=12)
        self.assertEqual(stats.stdev([5.0]), 0.0)

    def test_summary(self):
        s = stats.summary([3, 1, 2])
        self.assertEqual((s["n"], s["median"], s["min"], s["max"]), (3, 2, 1, 3))


class TestMedianCI(unittest.TestCase):
    def test_order_statistics(self):
        # n = 6: (x1, x6) covers 1 - 2/64 = 96.9%, (x2, x5) only 78.1%
        lo, hi, c = stats.median_ci([6, 1, 5, 2, 4, 3])
        self.assertEqual((lo, hi), (1, 6))
        self.assertAlmostEqual(c, 1 - 2 / 64)
        # n = 20: (x6, x15) covers 95.9%, (x7, x14) 88.5%
        lo, hi, c = stats.median_ci(list(range(1, 21)))
        self.assertEqual((lo, hi), (6, 15))
        self.assertAlmostEqual(c, 0.9586, places=4)

    def test_too_few_for_95(self):
        lo, hi, c = stats.median_ci([3, 1, 2])
        self.assertEqual((lo, hi), (1, 3))
        self.assertAlmostEqual(c, 0.75)

    def test_empty(self):
        with self.assertRaises(ValueError):
            stats.median_ci([])


class TestBeta(unittest.TestCase):
    def test_symmetric_half(self):
        for a in (0.5, 1, 2.5, 10):
            self.assertAlmostEqual(stats.betainc(a, a, 0.5), 0.5, places=12)

    def test_uniform(self):
        # I_x(1, 1) = x, I_x(a, 1) = x^a
        self.assertAlmostEqual(stats.betainc(1, 1, 0.3), 0.3, places=12)
        self.assertAlmostEqual(stats.betainc(3, 1, 0.4), 0.4 ** 3, places=12)


class TestStudentT(unittest.TestCase):
    def test_cauchy(self):
        # df = 1: CDF(t) = 1/2 + atan(t)/pi
        for t in (-3.0, -0.5, 0.0, 1.0, 7.5):
            self.assertAlmostEqual(stats.t_cdf(t, 1),
                                   0.5 + math.atan(t) / math.pi, places=12)

    def test_df2(self):
        # df = 2: CDF(t) = 1/2 + t / (2 sqrt(2 + t^2))
        for t in (-2.0, 0.3, 4.0):
            self.assertAlmostEqual(stats.t_cdf(t, 2),
                                   0.5 + t / (2 * math.sqrt(2 + t * t)), places=12)

    def test_table(self):
        table = [(0.975, 1, 12.706204736), (0.975, 2, 4.302652730),
                 (0.975, 5, 2.570581836), (0.975, 10, 2.228138852),
                 (0.975, 30, 2.042272456), (0.975, 100, 1.983971519),
                 (0.95, 10, 1.812461123), (0.995, 4, 4.604094871)]
        for q, df, t in table:
            self.assertAlmostEqual(stats.t_cdf(t, df), q, places=9)
            self.assertAlmostEqual(stats.t_ppf(q, df), t, places=7)
            self.assertAlmostEqual(stats.t_ppf(1 - q, df), -t, places=7)

    def test_normal_limit(self):
        self.assertAlmostEqual(stats.t_cdf(1.959963985, math.inf), 0.975, places=9)
        self.assertAlmostEqual(stats.t_cdf(1.959963985, 1e7), 0.975, places=6)

    def test_fractional_df(self):
        # Welch degrees of freedom are real numbers; the CDF must be smooth
        a, b, c = (stats.t_cdf(2.0, df) for df in (17.0, 17.776, 18.0))
        self.assertTrue(a < b < c)


class TestWelch(unittest.TestCase):
    def test_r_sleep(self):
        w = stats.welch(SLEEP1, SLEEP2)
        self.assertAlmostEqual(w["t"], -1.8608, places=4)
        self.assertAlmostEqual(w["df"], 17.776, places=3)
        self.assertAlmostEqual(w["p"], 0.07939, places=5)
        self.assertAlmostEqual(w["ci"][0], -3.3654832, places=6)
        self.assertAlmostEqual(w["ci"][1], 0.2054832, places=6)
        self.assertFalse(w["significant"])
        self.assertTrue(stats.welch(SLEEP1, SLEEP2, alpha=0.1)["significant"])

    def test_symmetry(self):
        w1, w2 = stats.welch(SLEEP1, SLEEP2), stats.welch(SLEEP2, SLEEP1)
        self.assertAlmostEqual(w1["t"], -w2["t"], places=12)
        self.assertAlmostEqual(w1["p"], w2["p"], places=12)

    def test_too_few(self):
        self.assertIsNone(stats.welch([1.0], [1.0, 2.0]))

    def test_no_spread(self):
        # neither sample varies: no test, no p, no mark (issue 15: p=0 and a mark)
        for a, b in (([1, 1, 1], [1, 1]), ([1, 1, 1], [2, 2])):
            w = stats.welch(a, b)
            self.assertFalse(w["significant"])
            self.assertIsNone(w["p"])
            self.assertTrue(w["degenerate"])
        c = stats.compare([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])
        self.assertAlmostEqual(c["pct"], -50.0)
        self.assertIsNone(c["p"])
        self.assertFalse(c["significant"])
        self.assertEqual(c["note"], "no spread")
        # one sample varies: Welch is defined (df = n - 1 of the other)
        w = stats.welch([1.0, 1.0, 1.0], [2.0, 2.5, 3.0])
        self.assertAlmostEqual(w["df"], 2.0)
        self.assertIsNotNone(w["p"])

    def test_clear_difference(self):
        w = stats.welch([10.0, 10.1, 9.9, 10.05], [12.0, 12.1, 11.9, 12.05])
        self.assertLess(w["p"], 1e-6)
        self.assertTrue(w["significant"])


class TestRatio(unittest.TestCase):
    def test_ratio(self):
        r = stats.ratio_ci([2.0, 2.0, 2.0], [1.0, 1.0, 1.0])
        self.assertAlmostEqual(r["ratio"], 2.0)
        r = stats.ratio_ci([1.02, 1.0, 1.04], [1.0, 0.98, 1.02])
        self.assertTrue(r["ci"][0] < r["ratio"] < r["ci"][1])
        self.assertAlmostEqual(r["ratio"], math.exp(
            stats.mean([math.log(x) for x in (1.02, 1.0, 1.04)])
            - stats.mean([math.log(x) for x in (1.0, 0.98, 1.02)])), places=12)

    def test_pct(self):
        self.assertAlmostEqual(stats.pct_change(45, 62), -27.419354838709676)
        self.assertIsNone(stats.pct_change(1, 0))


try:
    from scipy import stats as sps
except ImportError:  # python3-scipy not installed: the constants above only
    sps = None


class TestHmeanCoeffVar(unittest.TestCase):
    def test_hmean(self):
        self.assertAlmostEqual(stats.hmean([1.0, 2.0, 4.0]), 3 / 1.75, places=12)
        self.assertIsNone(stats.hmean([1.0, 0.0]))
        self.assertIsNone(stats.hmean([]))

    def test_coeffvar(self):
        # sqrt(32/7) / 5 * 100 (mean 5)
        self.assertAlmostEqual(stats.coeffvar([2, 4, 4, 4, 5, 5, 7, 9]),
                               math.sqrt(32 / 7) / 5 * 100, places=10)
        self.assertIsNone(stats.coeffvar([3.0]))
        self.assertEqual(stats.coeffvar([3.0, 3.0]), 0.0)


class TestBH(unittest.TestCase):
    def test_r_values(self):
        # R: p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.2), "BH")
        got = stats.bh_adjust([0.01, 0.04, 0.03, 0.005, 0.2])
        for g, want in zip(got, [0.025, 0.05, 0.05, 0.025, 0.2]):
            self.assertAlmostEqual(g, want, places=12)
        # R: p.adjust(c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205), "BH")
        got = stats.bh_adjust([0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205])
        want = [0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.08457142857142857, 0.205]
        for g, w in zip(got, want):
            self.assertAlmostEqual(g, w, places=12)

    def test_none_not_counted(self):
        got = stats.bh_adjust([0.01, None, 0.04])
        self.assertIsNone(got[1])
        self.assertAlmostEqual(got[0], 0.02)
        self.assertAlmostEqual(got[2], 0.04)
        self.assertEqual(stats.bh_adjust([]), [])

    def test_issue_family(self):
        # issue 15: 372 comparisons whose smallest p is 0.011: nothing survives
        ps = [0.011] + [0.011 + i * 0.0025 for i in range(1, 372)]
        adj = stats.bh_adjust([min(p, 1.0) for p in ps])
        self.assertTrue(all(a > 0.05 for a in adj))

    @unittest.skipIf(sps is None or not hasattr(sps, "false_discovery_control"),
                     "scipy.stats.false_discovery_control not available")
    def test_scipy(self):
        ps = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.5, 0.0001]
        for g, w in zip(stats.bh_adjust(ps), sps.false_discovery_control(ps)):
            self.assertAlmostEqual(g, float(w), places=12)


class TestCompare(unittest.TestCase):
    A = [11.0, 12.0, 13.0, 14.0, 15.0]
    B = [12.0, 13.0, 14.0, 15.0, 16.0]

    def test_mean_interval_and_mde(self):
        # equal n and variance: se = 1, df = 8; qt(0.975, 8) = 2.306004135,
        # qt(0.8, 8) = 0.8888895178
        c = stats.compare(self.A, self.B, "mean")
        self.assertAlmostEqual(c["pct"], -100 / 14, places=10)
        self.assertAlmostEqual(c["welch"]["df"], 8.0, places=10)
        self.assertAlmostEqual(c["ci_pct"][0], (-1 - 2.306004135) / 14 * 100, places=6)
        self.assertAlmostEqual(c["ci_pct"][1], (-1 + 2.306004135) / 14 * 100, places=6)
        self.assertAlmostEqual(c["mde_pct"], (2.306004135 + 0.8888895178) / 14 * 100, places=5)
        self.assertFalse(c["significant"])

    def test_hmean(self):
        a, b = [100.0, 110.0, 125.0, 105.0], [90.0, 95.0, 100.0, 92.0]
        c = stats.compare(a, b, "hmean")
        self.assertEqual(c["estimator"], "hmean")
        self.assertAlmostEqual(c["est_a"], stats.hmean(a))
        self.assertAlmostEqual(c["pct"], (stats.hmean(a) / stats.hmean(b) - 1) * 100, places=10)
        w = stats.welch([1 / x for x in a], [1 / x for x in b])
        self.assertAlmostEqual(c["p"], w["p"], places=12)
        rb = stats.mean([1 / x for x in b])
        self.assertAlmostEqual(c["ci_pct"][0], (rb / (rb + w["ci"][1]) - 1) * 100, places=10)
        self.assertAlmostEqual(c["ci_pct"][1], (rb / (rb + w["ci"][0]) - 1) * 100, places=10)
        self.assertTrue(c["ci_pct"][0] < c["pct"] < c["ci_pct"][1])
        self.assertTrue(c["significant"])

    def test_estimator_never_switched(self):
        # a throughput of 0 once made Hmean a plain mean between two tables
        for est in ("hmean", "gmean"):
            c = stats.compare([0.0, 1.0, 2.0], [1.0, 2.0, 3.0], est)
            self.assertEqual(c["estimator"], est)
            self.assertIsNone(c["p"])
            self.assertIn("<= 0", c["note"])

    def test_gmean_interval_is_a_ratio(self):
        # times that halve: the interval of a ratio never goes below -100%
        a, b = [0.1, 0.5, 0.05], [1.0, 1.1, 0.9]
        c = stats.compare(a, b, "gmean")
        self.assertGreater(c["ci_pct"][0], -100.0)
        self.assertAlmostEqual(c["pct"], (stats.gmean(a) / stats.gmean(b) - 1) * 100)
        r = stats.ratio_ci(a, b)
        self.assertAlmostEqual(c["ci_pct"][0], (r["ci"][0] - 1) * 100)
        self.assertAlmostEqual(c["ci_pct"][1], (r["ci"][1] - 1) * 100)
        # the plain mean's interval of the same data goes below -100%
        self.assertLess(stats.compare(a, b, "mean")["ci_pct"][0], -100.0)

    def test_too_few(self):
        c = stats.compare([1.0], [1.0, 2.0])
        self.assertIsNone(c["p"])
        self.assertEqual(c["note"], "n<2")


@unittest.skipIf(sps is None, "python3-scipy not installed")
class TestAgainstScipy(unittest.TestCase):
    def test_t_std(self):
        # the standard-library fallback against scipy, whatever t_sf uses
        for df in (1, 2.5, 4, 9.3, 17.776, 40, 300):
            for t in (-4.0, -1.0, 0.3, 1.96, 3.5, 8.0):
                self.assertAlmostEqual(stats.t_sf_std(t, df), sps.t.sf(t, df), places=10)
            for q in (0.6, 0.8, 0.9, 0.975, 0.995):
                self.assertAlmostEqual(stats.t_ppf_std(q, df), sps.t.ppf(q, df), places=7)

    def test_welch(self):
        for a, b in ((SLEEP1, SLEEP2), ([3.1, 2.9, 3.3, 3.0], [2.1, 2.6, 2.2, 2.8, 2.5, 2.4])):
            w = stats.welch(a, b)
            r = sps.ttest_ind(a, b, equal_var=False)
            self.assertAlmostEqual(w["t"], r.statistic, places=10)
            self.assertAlmostEqual(w["p"], r.pvalue, places=10)

    def test_hmean(self):
        xs = [101.0, 97.5, 110.2, 99.9]
        self.assertAlmostEqual(stats.hmean(xs), sps.hmean(xs), places=10)

    def test_mde_power(self):
        # at the smallest detectable effect the noncentral t gives the power
        c = stats.compare(TestCompare.A, TestCompare.B, "mean")
        df = c["welch"]["df"]
        delta = c["mde_pct"] / 100 * 14 / c["welch"]["se"]
        crit = sps.t.ppf(0.975, df)
        power = sps.nct.sf(crit, df, delta) + sps.nct.cdf(-crit, df, delta)
        self.assertAlmostEqual(power, 0.8, delta=0.02)


if __name__ == "__main__":
    unittest.main()
