# SPDX-License-Identifier: GPL-2.0
"""The man page, the README and debian/control say what the code does:
the same configurations, every option, the plotter and the workloads."""

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import cli, module  # noqa: E402

TOP = os.path.join(HERE, "..", "..")


def text(rel):
    with open(os.path.join(TOP, rel)) as f:
        return f.read()


def man_section(man, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH )" % name, man, re.M | re.S)
    return m.group(1) if m else ""


class TestManPage(unittest.TestCase):
    def setUp(self):
        self.man = text("bench/sched-tune-bench.1")

    def test_configurations_are_the_codes(self):
        sec = man_section(self.man, "CONFIGURATIONS")
        names = [n.replace("\\-", "-") for n in re.findall(r"^\.TP\n\.B (\S+)$", sec, re.M)]
        self.assertEqual(names, module.BUILTIN_NAMES)

    def test_every_option(self):
        man = re.sub(r"\\f[RBIP]", " ", self.man.replace("\\-", "-"))
        p = cli.parser()
        sub = next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction")
        missing = []
        for name, sp in sub.choices.items():
            if name not in man:
                missing.append(name)
            for a in sp._actions:
                for o in a.option_strings:
                    if o not in ("-h", "--help") and not re.search(r"(^|[^\w-])%s(?![\w-])" % re.escape(o), man):
                        missing.append("%s %s" % (name, o))
        self.assertEqual(missing, [])

    def test_no_stale_claims(self):
        man = self.man.replace("\\-", "-")
        self.assertNotIn("ABAB", man)
        self.assertNotIn("such as 6.1 and 7.3", man)
        self.assertNotIn("gnuplot", man)
        self.assertNotIn("Hmean", man)
        self.assertIn("6.12 and 7.3.4 run them", man)


class TestReadmeAndPackage(unittest.TestCase):
    def test_readme_configurations(self):
        readme = text("bench/README.md")
        table = re.search(r"^## Configurations\n(.*?)^## ", readme, re.M | re.S).group(1)
        named = set(re.findall(r"`([a-z0-9_-]+)`", " ".join(
            line.split("|")[1] for line in table.splitlines() if line.startswith("| `"))))
        self.assertEqual(set(module.BUILTIN_NAMES) - named, set())

    def test_fleet_recipe_gives_every_host_the_same_work(self):
        """The README's compare recipe: hosts of 8 and 192 CPUs run the
        same commands (8 tbench clients against 192 was the issue's)."""
        from stbench.workloads import Env, make_workloads
        readme = text("bench/README.md")
        sec = readme[readme.index("## Many machines: compare"):]
        cmd = re.search(r"^    (sched-tune-bench -c .*?)\n    #", sec, re.M | re.S).group(1)
        argv = cmd.replace("\\\n", " ").replace("$(hostname)", "host").split()[1:]
        opts = cli.parser().parse_args(["run"] + argv)
        works = []
        for ncpus in (8, 192):
            env = Env(opts, ncpus, 64 << 20, "/nonexistent", build=False)
            try:
                wls = make_workloads(env, opts.workloads, opts.hackbench_groups)
                works.append([(w.name, w.work()) for w in wls])
            finally:
                env.cleanup()
        self.assertEqual(works[0], works[1])
        self.assertEqual(len(works[0]), 8)

    def test_plotter_and_workloads(self):
        control = text("debian/control")
        self.assertNotIn("gnuplot", control)
        self.assertIn("python3-matplotlib", control)
        self.assertIn("three C workloads", control)
        self.assertNotIn("two C workloads", control)
        bench = text("selftests/strunner/bench.py")
        pkgs = re.search(r"^PACKAGES = \(([^)]*)\)$", bench, re.M | re.S).group(1)
        self.assertNotIn("gnuplot-nox", pkgs)
        self.assertIn("python3-matplotlib", pkgs)
        for rel in ("bench/README.md", "bench/stbench/plots.py", "README.md", "selftests/README.md",
                    "selftests/lib.sh"):
            self.assertFalse("gnuplot" in text(rel), rel)


class TestPackaging(unittest.TestCase):
    """bench/pyproject.toml is the project debian/rules builds (pybuild):
    the version stbench's and debian/changelog's, the console script the
    tree's entry point, the workloads' C sources package data; the tree
    runs without installing and without editing sys.path."""

    def setUp(self):
        import tomllib
        with open(os.path.join(TOP, "bench", "pyproject.toml"), "rb") as f:
            self.proj = tomllib.load(f)

    def test_version_is_the_changelogs(self):
        from stbench import __version__
        ver = re.match(r"^\S+ \(([^)]+)\)", text("debian/changelog")).group(1)
        self.assertEqual(__version__, ver)
        self.assertEqual(self.proj["project"]["dynamic"], ["version"])
        self.assertEqual(self.proj["tool"]["setuptools"]["dynamic"]["version"],
                         {"attr": "stbench.__version__"})

    def test_console_script_and_data(self):
        from stbench.workloads import HELPERS, find_source
        self.assertEqual(self.proj["project"]["name"], "sched-tune-bench")
        self.assertEqual(self.proj["project"]["scripts"], {"sched-tune-bench": "stbench.cli:main"})
        self.assertEqual(self.proj["tool"]["setuptools"]["package-data"], {"stbench": ["*.c"]})
        pkg = os.path.realpath(os.path.join(TOP, "bench", "stbench"))
        for h in HELPERS:
            self.assertEqual(os.path.dirname(os.path.realpath(find_source(h))), pkg, h)
        self.assertNotIn("selftests/helpers/st_numa_work.c", text("debian/sched-tune-bench.install"))

    def test_tree_runs_without_sys_path_edits(self):
        import subprocess
        self.assertNotIn("sys.path", text("bench/sched-tune-bench"))
        self.assertNotIn("sys.path", text("bench/stbench/__main__.py"))
        for cmd in (["./sched-tune-bench", "--version"], [sys.executable, "-m", "stbench", "--version"]):
            p = subprocess.run(cmd, cwd=os.path.join(TOP, "bench"), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True,
                               env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
            self.assertEqual((p.returncode, p.stdout.split()[0]), (0, "sched-tune-bench"), cmd)

    def test_bench_is_the_tool_only(self):
        # the qemu harness is the selftests' (selftests/bench_vm.sh sources
        # selftests/lib.sh); nothing in bench/ sources the selftests
        for rel in ("bench/vm.sh", "bench/guest"):
            self.assertFalse(os.path.exists(os.path.join(TOP, rel)), rel)
        self.assertIn("selftests/bench_vm.sh", text("Makefile"))
        self.assertIn('. "$(dirname "$0")/bench_vm.sh"', text("selftests/job.sh"))


if __name__ == "__main__":
    unittest.main()
