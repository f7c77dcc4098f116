# SPDX-License-Identifier: GPL-2.0
"""strunner.plan: make check's jobs in their order, each boot's guest
words (Debian 12's and 13's 6.12 sharing the suite), every skipped name
a unit of the guest's one list, each job's estimate from the units its
boots run, and the commands run.sh calls (init, list, fits, not-run,
boot)."""

import contextlib
import io
import json
import os
import shutil
import tempfile
import time
import unittest
from unittest import mock

from strunner import Error, guest, kernels, plan

SELFTESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D12, D13, K7, K61 = "6.12.95+deb12-amd64", "6.12.118+deb13-amd64", "7.3.4+deb13-amd64", \
    "6.1.0-57-amd64"
CLOUD, SEC = "6.12.95+deb12-cloud-amd64", "6.12.96+deb12-amd64"


def default():
    return plan.Plan([D12, D13, K7, K61, CLOUD], [CLOUD], [SEC], D12, D13, SELFTESTS)


def runs(kver, boot, env=None):
    p = default()
    return guest.plan(SELFTESTS, plan.BOOTS[boot][0], p.words(kver, boot, env or {}))


def skipped(words):
    return [u for w in words if w.startswith("st_skip=") for u in w[8:].split(",")]


class Jobs(unittest.TestCase):
    def test_order(self):
        """Full boots longest first, the boots of their own, the short
        boots, the kernels built only."""
        self.assertEqual(default().jobs(), [D12, D13, K7, K61, D13 + " direct_hooks=0",
                                            D12 + " bench", D12 + " icount", CLOUD, SEC])

    def test_no_612(self):
        """No 6.12 booted: no boots of their own."""
        p = plan.Plan([K7], [], [], D12, D13, SELFTESTS)
        self.assertEqual(p.jobs(), [K7])

    def test_ops_kernel_short(self):
        """Debian 13's 6.12 with a short boot: no direct_hooks=0 boot."""
        p = plan.Plan([D12, D13], [D13], [], D12, D13, SELFTESTS)
        self.assertEqual(p.jobs(), [D12, D12 + " bench", D12 + " icount", D13])


class Words(unittest.TestCase):
    def test_612_split(self):
        """Debian 13's 6.12 leaves the shared units to Debian 12's, which
        leaves the tracers, toggles and scopes to it."""
        p = default()
        w13, w12 = p.words(D13, "main", {}), p.words(D12, "main", {})
        self.assertEqual(skipped(w13), list(plan.SHARED_612 + plan.OPS_612_MAIN))
        self.assertEqual(skipped(w12), list(plan.K612_LEAVES))
        self.assertEqual(set(skipped(w12)) & set(skipped(w13)), set())
        self.assertEqual(p.words(K7, "main", {}), ["st_topology=smt"])

    def test_one_612(self):
        """One kernel for both 6.12 roles: it runs everything."""
        p = plan.Plan([D12], [], [], D12, D12, SELFTESTS)
        self.assertEqual(p.words(D12, "main", {}), ["st_topology=smt"])
        self.assertTrue(p.has_boot(D12, "llc8"))

    def test_user_last(self):
        """The user's ST_GUEST_ARGS come last, after a short boot's."""
        w = default().words(CLOUD, "main", {"ST_GUEST_ARGS": "st_only=knobs"})
        self.assertEqual(w[-1], "st_only=knobs")
        self.assertTrue(w[1].startswith("st_only=load_unload,"))

    def test_ops(self):
        w = default().words(D13, "direct_hooks=0", {})
        self.assertIn("st_load_args=direct_hooks=0", w)
        s = skipped(w)
        self.assertEqual(len(s), len(set(s)))
        self.assertTrue(set(plan.SHARED_612) <= set(s))

    def test_units_known(self):
        """Every name the plan skips or picks is a unit of
        guest/tests.sh: none dropped as unknown."""
        for kver in (D12, D13, K7, CLOUD):
            for boot in ("main", "direct_hooks=0", "llc8"):
                self.assertEqual(runs(kver, boot)[2], [], (kver, boot))

    def test_unknown_boot(self):
        with self.assertRaises(Error):
            default().words(D12, "icount", {})


class Estimate(unittest.TestCase):
    def test_full(self):
        """A kernel: its builds, its main boot by the units it runs, the
        two-node and 8-CPU boots."""
        main = plan.EST["boot"] + plan.EST["unit"] * runs(K7, "main")[1]
        self.assertEqual(default().estimate(K7, {}),
                         plan.EST["build"] + main + plan.EST["numa"] + plan.EST["llc8"])

    def test_stages(self):
        """A stage variable off takes its boot out."""
        env = {"ST_NUMA_BOOT": "0", "ST_LLC8_BOOT": "0"}
        main = plan.EST["boot"] + plan.EST["unit"] * runs(K7, "main")[1]
        self.assertEqual(default().estimate(K7, env), plan.EST["build"] + main)
        self.assertEqual(default().estimate(D12 + " icount", {"ST_ICOUNT": "0"}), 0)

    def test_kinds(self):
        p = default()
        self.assertEqual(p.estimate(SEC, {}), plan.EST["build_only"])
        self.assertFalse(p.has_boot(K61, "numa"))
        self.assertFalse(p.has_boot(CLOUD, "numa"))
        self.assertFalse(p.has_boot(D13, "llc8"))
        self.assertTrue(p.has_boot(D12, "llc8"))
        ops = p.estimate(D13 + " direct_hooks=0", {})
        self.assertEqual(ops, plan.EST["boot"] + plan.EST["unit"] * runs(D13, "direct_hooks=0")[1])
        self.assertLess(ops, p.boot_estimate(K7, "main", {}))
        self.assertEqual(p.estimate(D12 + " bench", {}), plan.EST["bench"])
        for job in ("9.9.9", D12 + " numa"):
            with self.assertRaises(Error):
                p.estimate(job, {})


class Commands(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        self.env = {"ST_KERNELS": "backports trixie 7.3.4+deb13-amd64",
                    "ST_SHORT_BOOT": "trixie", "ST_BUILD_ONLY": "stable"}
        resolved = {"backports": D12, "trixie": D13, "stable": K61}
        self.log = []
        self.p = plan.make(self.env, SELFTESTS, resolved.__getitem__, self.log.append)

    def test_make(self):
        """Names resolve, exact releases stay, each said once."""
        p = self.p
        self.assertEqual((p.kernels, p.short, p.build_only, p.k612, p.k612_ops),
                         ([D12, D13, K7], [D13], [K61], D12, D13))
        self.assertEqual(self.log[:2], ["kernel 'backports': " + D12, "kernel 'trixie': " + D13])
        self.assertIn("kernel 'stable': %s (build only)" % K61, self.log)

    def test_saved(self):
        self.p.save(os.path.join(self.d, "plan.json"))
        q = plan.Plan.load(self.d)
        self.assertEqual(vars(q), vars(self.p))
        with open(os.path.join(self.d, "plan.json")) as f:
            self.assertEqual(json.load(f)["k612"], D12)
        with self.assertRaises(Error):
            plan.Plan.load(os.path.join(self.d, "none"))

    def run_env(self, left, **kw):
        return dict({"ST_DEADLINE": str(int(time.time()) + left), "ST_RUN": self.d,
                     "ST_BUDGET": "100", "ST_PACE_HOST_CS": "600"}, **kw)

    def test_not_run(self):
        """Every job not started, each in its group, by its own name."""
        env = self.run_env(100)
        recs = list(plan.not_run(plan.qemu.Run(env), env, [D13, D12 + " bench"]))
        self.assertEqual([r for r in recs if r[0] in "GR"],
                         [("G", D13), ("R", "fail", "build and boots: not run", ""),
                          ("G", D12 + " bench"),
                          ("R", "fail", "sched-tune-bench smoke run: not run", "")])

    def test_on(self):
        self.assertEqual(list(plan.on({}, "llc8")), [])
        self.assertEqual(list(plan.on({"ST_LLC8_BOOT": "0"}, "llc8")),
                         [("R", "skip", "sync_short in an 8-CPU LLC", "ST_LLC8_BOOT=0")])
        with self.assertRaises(Error):
            list(plan.on({}, "llc9"))

    def test_boot(self):
        """A boot as the plan says: its -smp, the two nodes, its label,
        its words and estimate."""
        self.p.save(os.path.join(self.d, "plan.json"))
        calls = []

        def run(env, ref, desc, _tests, _splat, label, _out, _vmlinuz, mode, words):
            calls.append((env["ST_QEMU_SMP"], env.get("ST_QEMU_EXTRA", ""), ref, desc, label,
                          mode, words))
            return iter(())
        with mock.patch.object(guest, "run", run), mock.patch.dict(os.environ, {"ST_SMP": "4"}):
            plan._boot(self.d, D12, "numa", "vmlinuz", "out")
            plan._boot(self.d, D12, "main", "vmlinuz", "out")
        self.assertEqual(calls[0][:2], ("4,sockets=2", "-object memory-backend-ram,id=m0,size=1G"
                                        " -object memory-backend-ram,id=m1,size=1G"
                                        " -numa node,nodeid=0,cpus=0-1,memdev=m0"
                                        " -numa node,nodeid=1,cpus=2-3,memdev=m1"))
        self.assertEqual(calls[0][2:6], (plan.EST["numa"], "numa_scan in a two-node boot",
                                         D12 + " numa", "numa"))
        self.assertEqual(calls[1][0], "4,sockets=1,cores=2,threads=2")
        self.assertEqual(calls[1][4:], (D12, "tests", self.p.words(D12, "main", os.environ)))

    def test_cli_init(self):
        """init writes the plan that list reads."""
        with mock.patch.object(kernels, "resolve_in", lambda _c, n: {"backports": D12,
                                                                     "trixie": D13}[n]), \
                mock.patch.dict(os.environ, {"ST_KERNELS": "backports", "ST_BUILD_ONLY": "",
                                             "ST_SHORT_BOOT": ""}), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(plan.main(["plan", "init", "cache", self.d, SELFTESTS]), 0)
        self.assertEqual(out.getvalue(), "# kernel 'backports': %s\n" % D12)
        p = plan.Plan.load(self.d)
        self.assertEqual(p.jobs(), [D12, D12 + " bench", D12 + " icount"])
        self.assertEqual((p.k612, p.k612_ops), (D12, D13))


if __name__ == "__main__":
    unittest.main()
