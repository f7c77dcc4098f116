# SPDX-License-Identifier: GPL-2.0
"""Which configuration ran on which workload, from results.json alone."""


def sweep_workloads(data, sw):
    """The workloads every point of a sweep ran on."""
    cfgs = {c["name"]: c for c in data["configs"]}
    return [w for w in data["workloads"]
            if all(pt["config"] in cfgs and not cfgs[pt["config"]].get("skip")
                   and runs_on(cfgs[pt["config"]], w["name"]) for pt in sw["points"])]


def runs_on(cfg, wname):
    """Whether configuration cfg (JSON) runs on workload wname."""
    only = cfg.get("only_workloads")
    return not only or wname in only or wname.split("-")[0] in only
