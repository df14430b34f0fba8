#!/usr/bin/env python3
"""Open the bundled "Portal frame" sample, analyse it and read the reactions.

The shortest useful session with gusset's /api/v1, with the Python
standard library only (urllib.request and json):

  1. POST /job/open-sample {"fileName": "Portal frame"} opens the sample
     (a fixed-base steel portal, 6 m span, 4 m high, with dead, live and
     wind load cases and a 1.2G + 1.5Q combination) as a new job.
  2. POST /job/analysis/static/run-linear, then poll
     GET /job/analysis/runs/{runId} until the run has finished.
  3. GET /job/query/analysis/static/node-reactions: the reactions of every
     load case and combination at every supported node, global axes.
  4. GET /job/query/analysis/static/reaction-summary: per case the
     resultant of the applied loads (Load), of the reactions (Reaction) and
     their sum (Residual, ideally zero), about the global origin.
  5. POST /job/close. Nothing is saved.

The job is closed at the end whatever happens (a running analysis is
cancelled first), so the script can be run again straight away. A failed
request stops the script with the service's error message (the `detail`
of its ErrorResponse) and exit status 1.

The last line of stdout is one JSON object with the numbers read:

  {"units": {...}, "loadCases": {"<case>": "<title>"},
   "nodes": {"<node>": {"x", "y", "z"}},          (the supported nodes)
   "reactions": {"<case>": {"<node>": {"fx", "fy", "fz", "mx", "my", "mz"}}},
   "reactionSummary": {"<case>": {"Load": {...}, "Reaction": {...}, "Residual": {...}}}}

Usage:
  python3 examples/portal_frame.py [BASE_URL]

BASE_URL defaults to $GUSSET_URL, then http://127.0.0.1:8080/api/v1
$GUSSET_API_KEY, when set, is sent as the API key (X-API-Key).
(what `make run` serves).
"""

import json
import sys

from gusset_client import Client, base_url, run_analysis, with_job

COMPONENTS = ("fx", "fy", "fz", "mx", "my", "mz")


def read_reactions(api, units, titles):
    """Queries the node reactions and the reaction summary of every case."""
    f, m = units["force"], units["moment"]
    out = {"reactions": {}, "reactionSummary": {}}

    rows = api.get("/job/query/analysis/static/node-reactions")["results"]
    print("\nnode reactions (global axes; forces %s, moments %s):" % (f, m))
    print("  %-4s %-20s %-4s" % ("case", "title", "node") + "".join("%11s" % c for c in COMPONENTS))
    for r in rows:
        lc, node = str(r["loadCase"]), str(r["node"])
        out["reactions"].setdefault(lc, {})[node] = {c: r[c] for c in COMPONENTS}
        print("  %-4s %-20s %-4s" % (lc, titles.get(lc, ""), node) + "".join("%11.4f" % r[c] for c in COMPONENTS))

    rows = api.get("/job/query/analysis/static/reaction-summary")["results"]
    print("\nreaction summary (resultants about the global origin; %s, %s):" % (f, m))
    print("  %-4s %-9s" % ("case", "") + "".join("%11s" % c for c in COMPONENTS))
    for r in rows:
        lc = str(r["loadCase"])
        out["reactionSummary"].setdefault(lc, {})[r["summaryType"]] = {c: r[c] for c in COMPONENTS}
        print("  %-4s %-9s" % (lc, r["summaryType"]) + "".join("%11.4f" % r[c] for c in COMPONENTS))
    return out


def main():
    api = Client(base_url())
    print("gusset at %s" % api.base)

    def work(state):
        job = api.post("/job/open-sample", {"fileName": "Portal frame"})
        state["open"] = True
        units = job["units"]
        print("POST /job/open-sample: %s: %s" % (job["headings"]["heading"], job["headings"]["notes"]))

        status = api.get("/job/status")
        print("model: %(nodes)d nodes, %(members)d members, %(nodeRestraints)d supports" % status["structure"])
        cases = api.get("/job/loads/load-cases")
        titles = {str(c["id"]): c["title"] for c in cases}
        for c in cases:
            print("  load case %d: %s (%s)" % (c["id"], c["title"], c["type"]))
        supports = [r["node"] for r in api.get("/job/structure/node-restraints")]
        nodes = {str(n["id"]): {"x": n["x"], "y": n["y"], "z": n["z"]}
                 for n in api.get("/job/structure/nodes") if n["id"] in supports}

        run_analysis(api, state)
        return read_reactions(api, units, titles), units, titles, nodes

    done = with_job(api, work)
    if done is None:
        return 1
    result, units, titles, nodes = done
    result.update({
        "units": {k: units[k] for k in ("length", "force", "moment")},
        "loadCases": titles,
        "nodes": nodes,
    })
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
