#!/usr/bin/env python3
"""A propped steel beam from scratch: build, analyse, read results, save.

This is the classic first walkthrough of a structural-analysis REST API,
written against gusset's /api/v1 with the Python standard library only
(urllib.request and json):

  1. POST /job/new opens a blank job in the default units
     (m, mm, MPa, Tperm3, degC, kN, kNm, T, gs, mm, MPa).
  2. Two nodes 6 m apart along X: node 1 fixed, node 2 pinned.
  3. Steel from the "Aust" material library and a 360 UB 44.7 from the
     "Aust300" section library; one member between the nodes.
  4. Load case 1 "G": self-weight (1 g down) plus a 2 kN/m dead load;
     load case 2 "Q": a 5 kN/m live load; combinations
     3 = 1.2G + 1.5Q and 4 = G + 0.7Q.
  5. POST /job/analysis/static/run-linear, then poll the run until it
     has finished, printing its progress.
  6. Queries: node reactions, the largest bending moment along the member
     (member-intermediate-forces) and the midspan deflection
     (member-intermediate-displacements), per load case, in the job units.
  7. POST /job/save to examples/simple-beam.gsj (under the service's
     JOBS_DIR), then POST /job/close.

The job is closed at the end whatever happens (a running analysis is
cancelled first), so the script can be run again straight away. A failed
request stops the script with the service's error message (the `detail`
of its ErrorResponse) and exit status 1.

The last line of stdout is one JSON object with the numbers read, for
programs (examples/examples_test.go checks them against hand
calculations):

  {"units": {...}, "span": 6.0, "loadCases": {"1": "G", ...},
   "reactions": {"<case>": {"<node>": {"fx", "fy", "fz", "mx", "my", "mz"}}},
   "maxMoment": {"<case>": {"mz", "location"}},
   "midspanDeflection": {"<case>": {"tyGlobal", "location"}},
   "selfWeight": <kN/m>, "section": {...}, "material": {...}}

Usage:
  python3 examples/simple_beam.py [BASE_URL]

BASE_URL defaults to $GUSSET_URL, then http://127.0.0.1:8080/api/v1
$GUSSET_API_KEY, when set, is sent as the API key (X-API-Key).
(what `make run` serves).
"""

import json
import os
import sys

from gusset_client import Client, base_url, run_analysis, with_job

SPAN = 6.0  # m, the job length unit


def build(api, units):
    """Builds the model: nodes, supports, material, section, member, loads."""
    api.post("/job/structure/nodes", {"id": 1, "x": 0, "y": 0, "z": 0})
    api.post("/job/structure/nodes", {"id": 2, "x": SPAN, "y": 0, "z": 0})
    print("nodes: 1 at (0, 0, 0), 2 at (%g, 0, 0) %s" % (SPAN, units["length"]))

    # Restraint codes list TX TY TZ RX RY RZ, F fixed and R released.
    # Node 1 is fully fixed. Node 2 is "pinned": its translations are held
    # and it turns freely in bending (RY, RZ released), but RX is held as
    # well. That is the usual meaning of a pinned beam support: with two
    # such supports (a simply supported beam) nothing else would stop the
    # member spinning about its own axis, a mechanism the solver rejects.
    # Here node 1 holds RX anyway; under these loads there is no torsion,
    # so holding RX at node 2 as well changes none of the results.
    api.post("/job/structure/node-restraints", {"node": 1, "restraintCode": "FFFFFF"})
    api.post("/job/structure/node-restraints", {"node": 2, "restraintCode": "FFFFRR"})
    print("restraints: node 1 FFFFFF (fixed), node 2 FFFFRR (pinned)")

    mat = api.post("/job/structure/materials/library", {"id": 1, "name": "STEEL", "library": "Aust"})
    sec = api.post("/job/structure/sections/library", {"id": 1, "name": "360 UB 44.7", "library": "Aust300"})
    print("material 1: %s (%s): E = %g %s, density = %g %s"
          % (mat["name"], mat["library"], mat["youngsModulus"], units["materialStrength"],
             mat["massDensity"], units["massDensity"]))
    sp = units["sectionProperties"]
    print("section 1: %s (%s): A = %g %s^2, Iz = %g %s^4, Ay = %g %s^2"
          % (sec["name"], sec["library"], sec["a"], sp, sec["iz"], sp, sec["ay"], sp))

    api.post("/job/structure/members", {"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
    print("member 1: node 1 to node 2")

    api.post("/job/loads/load-cases", {"id": 1, "title": "G"})
    api.post("/job/loads/load-cases", {"id": 2, "title": "Q"})
    # Self-weight: an acceleration of 1 g (the job's acceleration unit is
    # gs) in -Y, the vertical axis of the job.
    api.post("/job/loads/self-weight-loads", {"loadCase": 1, "accelerationY": -1})
    # Distributed loads in kN/m over the whole member (0 to 100 %);
    # GlobalInclined: global directions, per unit length of the member.
    for case, w in ((1, -2.0), (2, -5.0)):
        api.post("/job/loads/member-distributed-loads", {
            "loadCase": case, "member": 1, "axes": "GlobalInclined",
            "positionUnits": "Percent", "startPosition": 0, "finishPosition": 100,
            "fyStart": w, "fyFinish": w})
    print("load case 1 G: self-weight (-1 g in Y) + %g %s/%s in Y on member 1"
          % (-2.0, units["force"], units["length"]))
    print("load case 2 Q: %g %s/%s in Y on member 1" % (-5.0, units["force"], units["length"]))

    combos = {3: ("1.2G + 1.5Q", [(1, 1.2), (2, 1.5)]), 4: ("G + 0.7Q", [(1, 1.0), (2, 0.7)])}
    for cid, (title, items) in combos.items():
        api.post("/job/loads/combination-load-cases", {
            "id": cid, "title": title,
            "combinationItems": [{"loadCase": lc, "multiplyingFactor": f} for lc, f in items]})
        print("combination %d: %s" % (cid, title))
    return mat, sec


def read_results(api, units, titles):
    """Queries reactions, the largest moment and the midspan deflection."""
    out = {"reactions": {}, "maxMoment": {}, "midspanDeflection": {}}
    f, m, t = units["force"], units["moment"], units["translation"]

    rows = api.get("/job/query/analysis/static/node-reactions")["results"]
    print("\nnode reactions (global axes; %s, %s):" % (f, m))
    print("  %-4s %-14s %-4s %10s %10s %10s" % ("case", "", "node", "fy", "mz", "fx"))
    for r in rows:
        lc, node = str(r["loadCase"]), str(r["node"])
        out["reactions"].setdefault(lc, {})[node] = {k: r[k] for k in ("fx", "fy", "fz", "mx", "my", "mz")}
        print("  %-4s %-14s %-4s %10.4f %10.4f %10.4f" % (lc, titles[lc], node, r["fy"], r["mz"], r["fx"]))

    rows = api.get("/job/query/analysis/static/member-intermediate-forces", members="1")["results"]
    print("\nlargest bending moment |mz| along member 1 (%s):" % m)
    for r in rows:
        lc = str(r["loadCase"])
        i = max(range(len(r["mz"])), key=lambda k: abs(r["mz"][k]))
        out["maxMoment"][lc] = {"mz": r["mz"][i], "location": r["location"][i]}
        print("  case %-2s %-14s mz = %10.4f at x = %g %s" % (lc, titles[lc], r["mz"][i], r["location"][i], units["length"]))

    rows = api.get("/job/query/analysis/static/member-intermediate-displacements", members="1")["results"]
    print("\nmidspan deflection of member 1 (%s):" % t)
    for r in rows:
        lc = str(r["loadCase"])
        # The stations are the ends and 10 equal divisions: station 6 is at
        # L/2. Pick the station nearest to it rather than count on that.
        i = min(range(len(r["location"])), key=lambda k: abs(r["location"][k] - SPAN / 2))
        out["midspanDeflection"][lc] = {"tyGlobal": r["tyGlobal"][i], "location": r["location"][i]}
        print("  case %-2s %-14s tyGlobal = %9.4f at x = %g %s" % (lc, titles[lc], r["tyGlobal"][i], r["location"][i], units["length"]))

    # The applied load of case G (reaction-summary, row Load) less the
    # 2 kN/m dead load is the self-weight the engine applied.
    rows = api.get("/job/query/analysis/static/reaction-summary", loadCases="1")["results"]
    load = next(r for r in rows if r["summaryType"] == "Load")
    out["selfWeight"] = -load["fy"] / SPAN - 2.0
    print("\nself-weight applied in case 1: %.6f %s/%s (total load %.4f %s)"
          % (out["selfWeight"], f, units["length"], load["fy"], f))
    return out


def main():
    api = Client(base_url())
    print("gusset at %s" % api.base)

    def work(state):
        job = api.post("/job/new")
        state["open"] = True
        units = job["units"]
        print("POST /job/new: blank job; units: %s" % ", ".join("%s=%s" % kv for kv in sorted(units.items())))

        mat, sec = build(api, units)
        cases = api.get("/job/loads/load-cases")
        titles = {str(c["id"]): c["title"] for c in cases}

        run_analysis(api, state)
        result = read_results(api, units, titles)

        saved = api.post("/job/save", {"filePath": "examples/simple-beam", "overwrite": True})
        print("POST /job/save: %s" % saved["file"]["path"])
        return result, units, titles, mat, sec

    done = with_job(api, work)
    if done is None:
        return 1
    result, units, titles, mat, sec = done

    result.update({
        "units": {k: units[k] for k in ("length", "force", "moment", "translation", "sectionProperties", "massDensity")},
        "span": SPAN,
        "loadCases": titles,
        "section": {k: sec[k] for k in ("name", "library", "a", "iz", "ay")},
        "material": {k: mat[k] for k in ("name", "library", "youngsModulus", "poissonsRatio", "massDensity")},
    })
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
