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
(what `make run` serves).
"""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8080/api/v1"
RUN_TIMEOUT = 120  # seconds to wait for the analysis
COMPONENTS = ("fx", "fy", "fz", "mx", "my", "mz")


class ApiError(Exception):
    """A request the service refused, or one that did not reach it."""


def base_url():
    if len(sys.argv) > 1:
        return sys.argv[1].rstrip("/")
    return (os.environ.get("GUSSET_URL") or DEFAULT_URL).rstrip("/")


class Client:
    """A minimal JSON client of the gusset API."""

    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None, query=None):
        """Sends one request and returns its decoded JSON body (None when
        empty). Any status of 400 or above raises ApiError carrying the
        ErrorResponse's detail."""
        url = self.base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data, headers = None, {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                raw = res.read()
        except urllib.error.HTTPError as e:
            raise ApiError("%s %s: %s" % (method, path, error_text(e))) from None
        except urllib.error.URLError as e:
            raise ApiError("%s %s: cannot reach %s (%s); is the service running (make run)?"
                           % (method, path, self.base, e.reason)) from None
        return json.loads(raw) if raw else None

    def get(self, path, **query):
        return self.call("GET", path, query=query or None)

    def post(self, path, body=None):
        return self.call("POST", path, body)


def error_text(e):
    """The status, error code and detail of an ErrorResponse."""
    raw = e.read()
    try:
        err = json.loads(raw)
        return "%d %s: %s" % (e.code, err.get("errorCode", ""), err.get("detail") or err.get("title", ""))
    except ValueError:
        return "%d %s" % (e.code, raw.decode(errors="replace").strip() or e.reason)


def run_analysis(api, state):
    """Starts a linear static run and polls it until it has finished."""
    run = api.post("/job/analysis/static/run-linear")
    state["run"] = run["runId"]
    print("analysis: run %s %s" % (run["runId"], run["status"]))
    deadline = time.monotonic() + RUN_TIMEOUT
    last = None
    while run["status"] not in ("Completed", "Failed", "Cancelled"):
        if time.monotonic() > deadline:
            raise ApiError("run %s still %s after %d s" % (run["runId"], run["status"], RUN_TIMEOUT))
        time.sleep(0.05)
        run = api.get("/job/analysis/runs/" + run["runId"])
        text = "%s: %s" % (run["status"], run["progress"].get("statusText", ""))
        if text != last:
            print("  " + text)
            last = text
    state["run"] = None
    if run["status"] != "Completed":
        raise ApiError("analysis %s: %s" % (run["status"], run.get("errorMessage") or "no message"))
    for w in run.get("warnings", []):
        print("  warning: %s" % w)
    print("  elapsed %s" % run.get("elapsedTime"))


def close_job(api, state):
    """Closes the job this script opened; a run still under way (after an
    error or Ctrl-C) is cancelled first, since closing answers 409 while
    an analysis holds the job."""
    if state.get("run"):
        run_id = state["run"]
        try:
            api.call("DELETE", "/job/analysis/runs/" + run_id)
            print("cancelled run %s" % run_id)
        except ApiError:
            pass  # 404: it had finished meanwhile
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if api.get("/job/analysis/runs/" + run_id)["status"] in ("Completed", "Failed", "Cancelled"):
                break
            time.sleep(0.1)
    api.post("/job/close")
    print("POST /job/close: job closed")


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
    state = {"open": False, "run": None}
    failed = None
    try:
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
        result = read_reactions(api, units, titles)
    except (ApiError, KeyboardInterrupt) as e:
        failed = e
    finally:
        if state["open"]:
            try:
                close_job(api, state)
            except ApiError as e:
                print("error: %s" % e, file=sys.stderr)
                failed = failed or e
    if failed is not None:
        print("error: %s" % (str(failed) or "interrupted"), file=sys.stderr)
        return 1

    result.update({
        "units": {k: units[k] for k in ("length", "force", "moment")},
        "loadCases": titles,
        "nodes": nodes,
    })
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
