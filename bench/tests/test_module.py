# SPDX-License-Identifier: GPL-2.0
"""Module.verify() against feature states the module prints (stdlib
unittest, no module loaded: the sysfs reads are stubbed)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from stbench import module  # noqa: E402


class FakeModule(module.Module):
    def __init__(self, states, support):
        super().__init__(log=lambda *a: None)
        self.states = states
        self.support = support
        self.knob_names = list(module.STOCK)
        self.knobs = {}

    @staticmethod
    def loaded():
        return True

    def read_knobs(self, names=None):
        return {k: self.knobs.get(k, module.STOCK[k]) for k in names or self.knob_names}

    def feature_states(self):
        return self.states


def ratelimit_on():
    cfg = module.Config("rl", module.stock_plus({}), "rate limit on")
    key = module.FEATURE_MAIN["ratelimit"]
    cfg.knobs[key] = "2000000" if module.STOCK[key] != "2000000" else "1000000"
    return cfg


class VerifyStates(unittest.TestCase):
    def check(self, rl_state):
        m = FakeModule({"ratelimit": (rl_state, ""), "cache_level": ("inactive", ""),
                        "numa_scan": ("inactive", "")},
                       {"ratelimit": "inactive"})
        cfg = ratelimit_on()
        m.knobs = dict(cfg.knobs)
        return m.verify(cfg)

    def test_active_holds_hooks(self):
        self.assertTrue(self.check("active")[0])

    def test_unchecked_active_holds_hooks(self):
        # allow_unchecked=1 on a sublevel the gate never compared
        ok, problems, _ = self.check("active (unchecked)")
        self.assertTrue(ok, problems)

    def test_unchecked_idle_holds_hooks(self):
        self.assertTrue(self.check("idle (unchecked)")[0])

    def test_inactive_when_needed_is_a_problem(self):
        ok, problems, _ = self.check("inactive")
        self.assertFalse(ok)
        self.assertIn("ratelimit is inactive", problems[0])

    def test_unsupported_when_needed_names_full_state(self):
        ok, problems, _ = self.check("refused (unchecked)")
        self.assertFalse(ok)
        self.assertIn("refused (unchecked)", problems[0])


if __name__ == "__main__":
    unittest.main()
