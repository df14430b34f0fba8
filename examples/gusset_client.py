"""A minimal client of the gusset API for the example scripts: one
request helper that turns error responses into readable exceptions, the
run-and-poll loop of an analysis, and closing the job at the end. Standard
library only; the scripts import it from their own folder.

A service that requires API keys (AUTH_MODE=keys, as the compose set-up
runs) is given one in $GUSSET_API_KEY; it is sent as X-API-Key."""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8080/api/v1"
RUN_TIMEOUT = 120  # seconds to wait for the analysis


class ApiError(Exception):
    """A request the service refused, or one that did not reach it."""


def base_url():
    if len(sys.argv) > 1:
        return sys.argv[1].rstrip("/")
    return (os.environ.get("GUSSET_URL") or DEFAULT_URL).rstrip("/")


class Client:
    """A minimal JSON client of the gusset API."""

    def __init__(self, base, key=None):
        self.base = base
        self.key = key if key is not None else os.environ.get("GUSSET_API_KEY", "")

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
        if self.key:
            headers["X-API-Key"] = self.key
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


def run_analysis(api, state, path="/job/analysis/static/run-linear", overrides=None):
    """Starts a run (a linear static one by default; overrides are the
    optional per-run settings) and polls it until it has finished."""
    run = api.post(path, overrides)
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
    for p in run.get("parameters", []):
        print("  %-22s %s" % (p["label"], p["value"]))
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


def with_job(api, work):
    """Runs work(state), which opens a job (setting state["open"]) and
    returns its result, and always closes that job afterwards, cancelling a
    run left under way, so the script can run again. Returns the result,
    or None after printing the error of a failed request or Ctrl-C."""
    state = {"open": False, "run": None}
    failed = result = None
    try:
        result = work(state)
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
        return None
    return result
