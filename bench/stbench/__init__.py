# SPDX-License-Identifier: GPL-2.0
"""sched-tune-bench: A/B benchmark of sched_tune's configurations."""

__version__ = "0.1.0"
