# SPDX-License-Identifier: GPL-2.0
"""python3 -m stbench: sched-tune-bench (from bench/, or installed)."""
import sys

from stbench.cli import main

sys.exit(main())
