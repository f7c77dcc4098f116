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
        self.assertFalse(stats.welch([1, 1, 1], [1, 1])["significant"])
        self.assertTrue(stats.welch([1, 1, 1], [2, 2])["significant"])

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


if __name__ == "__main__":
    unittest.main()
