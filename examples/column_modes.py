#!/usr/bin/env python3
"""A steel column's natural frequencies and buckling loads.

Buckling and natural-frequency analysis with gusset's /api/v1, with the
Python standard library only (urllib.request and json):

  1. POST /job/new; a 4 m column along Y (up), fixed at its base (node 1),
     free at its top (node 2); steel (E 200 000 MPa, 7.85 T/m³) and a
     section with different second moments about its two axes. Its shear
     areas are made huge, so that the numbers match the slender-column
     (Euler-Bernoulli) formulas.
  2. Load case 1: self-weight, 1 g down. A frequency analysis takes its
     mass from the loads of the case analysed: self-weight gives the
     members their mass.
  3. Load case 2: 100 kN down at the top. A buckling analysis finds the
     factors of the case's loads at which the column buckles.
  4. POST /job/analysis/dynamic-frequency/run {"loadCases": "1", "modes": 4}
     and GET /job/query/analysis/dynamic/natural-frequencies: frequencies
     (Hz), periods and mass participation (percent).
  5. POST /job/analysis/buckling/run {"loadCases": "2", "modes": 2}, then
     GET /job/query/analysis/buckling/load-factors and
     .../member-effective-lengths: load factors, critical loads and
     effective lengths (2L for a cantilever).
  6. POST /job/close. Nothing is saved.

The column is one member: the service subdivides members internally for
eigen analyses, so one member gives its Euler load and first frequencies.

The last line of stdout is one JSON object with the numbers read, for
programs (examples/examples_test.go checks them against the closed forms):

  {"units": {...}, "height": 4.0, "load": 100.0,
   "section": {"a", "iy", "iz"}, "material": {"youngsModulus", "massDensity"},
   "frequencies": [{"mode", "naturalFrequency", "massPartX", "massPartZ"}],
   "loadFactors": [{"mode", "loadFactor"}],
   "effectiveLengths": [{"mode", "pcr", "ly", "lz"}]}

Usage:
  python3 examples/column_modes.py [BASE_URL]

BASE_URL defaults to $GUSSET_URL, then http://127.0.0.1:8080/api/v1
$GUSSET_API_KEY, when set, is sent as the API key (X-API-Key).
(what `make run` serves).
"""

import json
import sys

from gusset_client import Client, base_url, run_analysis, with_job

HEIGHT = 4.0  # m
LOAD = 100.0  # kN
SECTION = {"id": 1, "name": "column", "a": 12300, "iy": 2.23e8, "iz": 7.7e7, "j": 1e9, "ay": 1e12, "az": 1e12}
MATERIAL = {"id": 1, "name": "steel", "youngsModulus": 200000, "poissonsRatio": 0.3, "massDensity": 7.85}


def build(api, units):
    """Builds the column and its two load cases."""
    api.post("/job/structure/nodes", {"id": 1, "x": 0, "y": 0, "z": 0})
    api.post("/job/structure/nodes", {"id": 2, "x": 0, "y": HEIGHT, "z": 0})
    api.post("/job/structure/node-restraints", {"node": 1, "restraintCode": "FFFFFF"})
    api.post("/job/structure/materials", MATERIAL)
    api.post("/job/structure/sections", SECTION)
    api.post("/job/structure/members", {"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
    print("column: %g %s, fixed base, free top; A %g, Iy %g, Iz %g %s" % (
        HEIGHT, units["length"], SECTION["a"], SECTION["iy"], SECTION["iz"], units["sectionProperties"]))
    api.post("/job/loads/load-cases", {"id": 1, "title": "self-weight (mass)"})
    api.post("/job/loads/self-weight-loads", {"loadCase": 1, "accelerationY": -1})
    api.post("/job/loads/load-cases", {"id": 2, "title": "axial load"})
    api.post("/job/loads/node-loads", {"loadCase": 2, "node": 2, "fy": -LOAD})
    print("load cases: 1 self-weight, 2 %g %s down at the top" % (LOAD, units["force"]))


def frequencies(api, state):
    """Runs the frequency analysis of case 1 and reads its modes."""
    run_analysis(api, state, "/job/analysis/dynamic-frequency/run", {"loadCases": "1", "modes": 4})
    rows = api.get("/job/query/analysis/dynamic/natural-frequencies")["results"]
    print("\nnatural frequencies (mass participation in percent):")
    print("  %4s %12s %10s %8s %8s %8s" % ("mode", "Hz", "period s", "X", "Y", "Z"))
    for r in rows:
        print("  %4d %12.4f %10.5f %8.2f %8.2f %8.2f" % (
            r["mode"], r["naturalFrequency"], r["naturalPeriod"], r["massPartX"], r["massPartY"], r["massPartZ"]))
    return [{k: r[k] for k in ("mode", "naturalFrequency", "massPartX", "massPartZ")} for r in rows]


def buckling(api, state, units):
    """Runs the buckling analysis of case 2 and reads its load factors and
    the member's effective lengths."""
    run_analysis(api, state, "/job/analysis/buckling/run", {"loadCases": "2", "modes": 2})
    factors = api.get("/job/query/analysis/buckling/load-factors")["results"]
    lengths = api.get("/job/query/analysis/buckling/member-effective-lengths", members="1")["results"]
    print("\nbuckling (load factors of case 2; critical load and effective lengths of the column):")
    print("  %4s %12s %12s %10s %10s" % ("mode", "factor", "Pcr " + units["force"], "ly " + units["length"], "lz " + units["length"]))
    for f, l in zip(factors, lengths):
        print("  %4d %12.4f %12.1f %10.4f %10.4f" % (f["mode"], f["loadFactor"], l["pcr"], l["ly"], l["lz"]))
    return ([{k: f[k] for k in ("mode", "loadFactor")} for f in factors],
            [{k: l[k] for k in ("mode", "pcr", "ly", "lz")} for l in lengths])


def main():
    api = Client(base_url())
    print("gusset at %s" % api.base)

    def work(state):
        job = api.post("/job/new")
        state["open"] = True
        units = job["units"]
        build(api, units)
        freqs = frequencies(api, state)
        factors, lengths = buckling(api, state, units)
        return units, freqs, factors, lengths

    done = with_job(api, work)
    if done is None:
        return 1
    units, freqs, factors, lengths = done
    print(json.dumps({
        "units": {k: units[k] for k in ("length", "force", "sectionProperties", "stress", "massDensity")},
        "height": HEIGHT, "load": LOAD,
        "section": {k: SECTION[k] for k in ("a", "iy", "iz")},
        "material": {k: MATERIAL[k] for k in ("youngsModulus", "massDensity")},
        "frequencies": freqs, "loadFactors": factors, "effectiveLengths": lengths,
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
