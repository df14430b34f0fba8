//go:build compose

package composetest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// Limits of the Prometheus scenario: safety nets, not speed targets.
const (
	// scrapeLimit bounds the wait for every target to be up and every rule
	// evaluated: DNS discovery refreshes every 15 s, scrapes and rule
	// evaluations come every 15 s, and a replaced worker's old address
	// leaves at the next refresh.
	scrapeLimit = 3 * time.Minute
	// dashboardLimit bounds the rounds of traffic until every dashboard
	// query shows what it must: a rate needs an event, a scrape, a second
	// event and a second scrape (a series that appears already at 1 has
	// no earlier sample to rise from), so about three 15 s rounds.
	dashboardLimit = 5 * time.Minute
	// rateInterval is what Grafana puts for $__rate_interval with this
	// scrape interval: max($__interval + scrape interval, 4 × scrape
	// interval) = 4 × 15 s at a step of 15 s.
	rateInterval = "1m"
	// rangeStep is the step of the range queries, as a dashboard over a
	// short time range asks them.
	rangeStep = 15 * time.Second
	// promWorkspace is the scenario's workspace, the one value of the
	// dashboard's workspace variable it checks besides All.
	promWorkspace = "prom-dash"
)

// Prometheus sees the running stack as the README says: every scrape
// target (each api replica, each worker, itself) is up; promtool accepts
// the alert rules inside the Prometheus container and Prometheus has
// loaded every group and rule of deploy/prometheus/alerts.yml with health
// "ok"; and every query of the Grafana dashboard returns what its panel
// is for, from traffic this scenario makes (requests, analyses, a 404 and
// a 503 STORAGE_FULL) — see dashboardWants for each query's reason.
func TestPrometheus(t *testing.T) {
	began := time.Now()
	ws := stk.workspace(t, promWorkspace)
	ws.upload(t, gridjob.File(2, 1))

	t.Run("targets", func(t *testing.T) { checkTargets(t) })
	t.Run("rules", func(t *testing.T) { checkRules(t) })
	t.Run("dashboard", func(t *testing.T) { checkDashboard(t, ws, began) })
}

// promGet calls Prometheus's HTTP API and decodes its data into out.
func promGet(path string, q url.Values, out any) error {
	res, err := stk.http.Get(stk.prom + path + "?" + q.Encode())
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var body struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
		Error  string          `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return fmt.Errorf("GET %s: %d: %w", path, res.StatusCode, err)
	}
	if body.Status != "success" {
		return fmt.Errorf("GET %s %s: %d %s: %s", path, q.Encode(), res.StatusCode, body.Status, body.Error)
	}
	return json.Unmarshal(body.Data, out)
}

// target is one active scrape target of /api/v1/targets.
type target struct {
	Labels     map[string]string `json:"labels"`
	ScrapeURL  string            `json:"scrapeUrl"`
	Health     string            `json:"health"`
	LastError  string            `json:"lastError"`
	LastScrape time.Time         `json:"lastScrape"`
}

func activeTargets() ([]target, error) {
	var d struct {
		ActiveTargets []target `json:"activeTargets"`
	}
	err := promGet("/api/v1/targets", url.Values{"state": {"active"}}, &d)
	return d.ActiveTargets, err
}

// checkTargets waits until Prometheus scrapes exactly the stack's
// containers, every one up: as many api and worker targets as the
// services have containers (Docker DNS finds them), and itself.
func checkTargets(t *testing.T) {
	want := map[string]int{"api": len(stk.containers(t, "api")), "worker": len(stk.containers(t, "worker")), "prometheus": 1}
	var up map[string]int
	waitFor(t, scrapeLimit, fmt.Sprintf("targets up %v", want), func() (bool, error) {
		targets, err := activeTargets()
		if err != nil {
			return false, err
		}
		up = map[string]int{}
		var bad []string
		for _, tg := range targets {
			if tg.Health == "up" {
				up[tg.Labels["job"]]++
			} else {
				bad = append(bad, fmt.Sprintf("%s %s (%s)", tg.ScrapeURL, tg.Health, tg.LastError))
			}
		}
		return len(bad) == 0 && fmt.Sprint(up) == fmt.Sprint(want), fmt.Errorf("up %v, not up %v", up, bad)
	})
	figure(t, "prometheus: scrape targets up: api %d/%d, worker %d/%d, prometheus %d/%d",
		up["api"], want["api"], up["worker"], want["worker"], up["prometheus"], want["prometheus"])
}

// alertFile is the part of deploy/prometheus/alerts.yml the check reads.
type alertFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert  string `yaml:"alert"`
			Record string `yaml:"record"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// promtoolRules is the count promtool prints for a rule file it accepts.
var promtoolRules = regexp.MustCompile(`SUCCESS: (\d+) rules found`)

// checkRules runs promtool on the rule file Prometheus mounts (the same
// file as the repository's, through the compose volume) and compares
// Prometheus's loaded rules with the repository's file: every group and
// rule present and evaluated with health "ok".
func checkRules(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(stk.root, "deploy", "prometheus", "alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var file alertFile
	if err := yaml.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, g := range file.Groups {
		total += len(g.Rules)
	}
	if total == 0 {
		t.Fatal("deploy/prometheus/alerts.yml has no rules")
	}

	prom := stk.containers(t, "prometheus")
	if len(prom) != 1 {
		t.Fatalf("%d prometheus containers, want 1", len(prom))
	}
	out, err := stk.run("exec", prom[0], "promtool", "check", "rules", "/etc/prometheus/alerts.yml")
	if err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
	accepted := "no rule"
	if m := promtoolRules.FindStringSubmatch(out); m != nil {
		accepted = m[1]
	}
	if accepted != strconv.Itoa(total) {
		t.Errorf("promtool check rules: %q, want %d rules found", out, total)
	}
	if out, err := stk.run("exec", prom[0], "promtool", "check", "config", "/etc/prometheus/prometheus.yml"); err != nil {
		t.Errorf("promtool check config: %v\n%s", err, out)
	}

	type rule struct {
		Name, Health, LastError string
	}
	var loaded map[string]map[string]rule
	waitFor(t, scrapeLimit, "every alert rule loaded and evaluated ok", func() (bool, error) {
		var d struct {
			Groups []struct {
				Name  string `json:"name"`
				Rules []rule `json:"rules"`
			} `json:"groups"`
		}
		if err := promGet("/api/v1/rules", nil, &d); err != nil {
			return false, err
		}
		loaded = map[string]map[string]rule{}
		for _, g := range d.Groups {
			loaded[g.Name] = map[string]rule{}
			for _, r := range g.Rules {
				loaded[g.Name][r.Name] = r
			}
		}
		var bad []string
		for _, g := range file.Groups {
			for _, r := range g.Rules {
				name := r.Alert + r.Record
				if got, ok := loaded[g.Name][name]; !ok {
					bad = append(bad, g.Name+"/"+name+" not loaded")
				} else if got.Health != "ok" {
					bad = append(bad, fmt.Sprintf("%s/%s %s %s", g.Name, name, got.Health, got.LastError))
				}
			}
		}
		return len(bad) == 0, fmt.Errorf("%v", bad)
	})
	n := 0
	for _, g := range loaded {
		n += len(g)
	}
	if n != total {
		t.Errorf("Prometheus has %d rules loaded, alerts.yml has %d: %v", n, total, loaded)
	}
	figure(t, "prometheus: alert rules: promtool accepts %s, %d/%d loaded with health ok, in %d group(s)", accepted, n, total, len(loaded))
}

// need is what a dashboard query's result must hold over the scenario's
// time range.
type need int

const (
	// needValue: a finite sample at some step, so that the panel draws a
	// line (a gauge's 0, a counter that did not rise).
	needValue need = iota
	// needRise: a sample above 0 at some step, so that the panel shows
	// the event it is there for.
	needRise
)

// traffic is what the scenario does so that a query has something to
// show, as a bit set.
type traffic int

const (
	// requests: every round reads the job's status and polls runs.
	requests traffic = 1 << iota
	// runs: a linear static run of grid-2, completed.
	runs
	// clientError: a GET of a run that does not exist (404).
	clientError
	// serverError: a write while Redis is full (503 STORAGE_FULL), the
	// one 5xx a healthy service gives by design: Redis's maxmemory is set
	// below what it holds for the one request, then put back.
	serverError
)

// dashWant is the decision for one query of the dashboard: what its
// result must hold, the traffic that brings it about, and why.
type dashWant struct {
	need    need
	traffic traffic
	why     string
}

// dashboardWants holds a decision for every query of
// deploy/grafana/dashboards/gusset.json, by "panel title / legend": a
// query the dashboard gains without a decision here fails the test, and
// so does a decision whose query left the dashboard.
var dashboardWants = map[string]dashWant{
	"Requests per second by route / {{route}}": {needRise, requests, "every request counts"},
	"Latency p50 / p95 / p99 / p50":            {needValue, requests, "a quantile of the requests of the last minute"},
	"Latency p50 / p95 / p99 / p95":            {needValue, requests, "as p50"},
	"Latency p50 / p95 / p99 / p99":            {needValue, requests, "as p50"},
	"Latency p95 by route / {{route}}":         {needValue, requests, "as p50, by route"},
	// Empty in a healthy system (no 5xx series exists before the first
	// one): that is right, but it would not show that the panel works,
	// so the scenario causes the one 5xx the service gives by design.
	"Server errors (5xx) by route / {{route}}":                   {needRise, requests | serverError, "a 503 STORAGE_FULL while Redis is full"},
	"Client errors (4xx) by route / {{route}}":                   {needRise, requests | clientError, "a 404 for a run that does not exist"},
	"Runs per minute by kind and outcome / {{kind}} {{outcome}}": {needRise, runs, "completed runs"},
	"Analysis duration p50 / p95 by kind / p50 {{kind}}":         {needValue, runs, "a quantile of the runs of the last minute"},
	"Analysis duration p50 / p95 by kind / p95 {{kind}}":         {needValue, runs, "as p50"},
	"Runs per minute by workspace / {{workspace}}":               {needRise, runs, "completed runs"},
	// A healthy stack loses no worker: 0 is the right answer, and it is
	// data because both counters start at zero for every analysis kind
	// (pkg/server/metrics.go). Losing one is the kill scenario's subject.
	"Workers lost mid-run / resumed {{kind}}":         {needValue, 0, "0: no worker lost (the series start at zero)"},
	"Workers lost mid-run / given up {{kind}}":        {needValue, 0, "0: no run given up (the series start at zero)"},
	"Model size (degrees of freedom) p50 / p95 / p50": {needValue, runs, "a quantile of the runs of the last minute"},
	"Model size (degrees of freedom) p50 / p95 / p95": {needValue, runs, "as p50"},
	// Gauges the api reports at every scrape; 0 while nothing waits.
	"Queue depth / waiting tasks":                     {needValue, 0, "0 when nothing waits"},
	"Oldest waiting task / age":                       {needValue, 0, "0 when nothing waits"},
	"Workers busy / total / busy":                     {needValue, 0, "0 between runs"},
	"Workers busy / total / total":                    {needRise, 0, "the live workers"},
	"Workers busy / total / solving (worker scrapes)": {needValue, 0, "0 between runs"},
	"Worker memory / {{instance}}":                    {needRise, 0, "every worker's resident memory"},
	"Scrape targets up / api replicas":                {needRise, 0, "the api replicas up"},
	"Scrape targets up / workers":                     {needRise, 0, "the workers up"},
	"Redis up / up":                                   {needRise, 0, "1: Redis answers"},
	"Redis used memory / used_memory":                 {needRise, 0, "Redis holds the workspaces"},
}

// dashQuery is one query the scenario sends: a dashboard target's
// expression with the dashboard's variables put in.
type dashQuery struct {
	name string // "panel / legend [workspace]"
	expr string
	dashWant
	ok   bool
	last string // what its last result held, for a failure
}

// grafanaVar finds a dashboard variable left in an expression.
var grafanaVar = regexp.MustCompile(`\$\{?[A-Za-z_]\w*`)

// dashboardQueries reads every panel target of the dashboard and puts in
// its variables as Grafana does: $__rate_interval, and $workspace as All
// (its allValue, .*) and as this scenario's workspace.
func dashboardQueries(t *testing.T) []*dashQuery {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(stk.root, "deploy", "grafana", "dashboards", "gusset.json"))
	if err != nil {
		t.Fatal(err)
	}
	type panel struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr   string `json:"expr"`
			Legend string `json:"legendFormat"`
		} `json:"targets"`
		Panels []json.RawMessage `json:"panels"`
	}
	var dash struct {
		Panels []json.RawMessage `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	var qs []*dashQuery
	seen := map[string]bool{}
	var walk func([]json.RawMessage)
	walk = func(panels []json.RawMessage) {
		for _, r := range panels {
			var p panel
			if err := json.Unmarshal(r, &p); err != nil {
				t.Fatal(err)
			}
			walk(p.Panels) // a collapsed row holds its panels
			for _, tg := range p.Targets {
				key := p.Title + " / " + tg.Legend
				w, ok := dashboardWants[key]
				if !ok {
					t.Errorf("dashboard query %q (%s) has no decision in dashboardWants: say what it must show", key, tg.Expr)
					continue
				}
				seen[key] = true
				expr := strings.ReplaceAll(tg.Expr, "$__rate_interval", rateInterval)
				values := []string{""}
				if strings.Contains(expr, "$workspace") {
					values = []string{".*", promWorkspace}
				}
				for _, v := range values {
					e, name := strings.ReplaceAll(expr, "$workspace", v), key
					if v != "" {
						name += " [workspace " + v + "]"
					}
					if grafanaVar.MatchString(e) {
						t.Errorf("%s: a dashboard variable the scenario does not know: %s", name, e)
						continue
					}
					qs = append(qs, &dashQuery{name: name, expr: e, dashWant: w})
				}
			}
		}
	}
	walk(dash.Panels)
	for key := range dashboardWants {
		if !seen[key] {
			t.Errorf("dashboardWants has %q, which the dashboard does not", key)
		}
	}
	return qs
}

// sample is one series of a range query's matrix.
type sample struct {
	Metric map[string]string `json:"metric"`
	Values [][2]any          `json:"values"`
}

// holds evaluates q over [from, now] as Grafana would draw it and
// reports whether its result holds what q needs.
func (q *dashQuery) holds(from time.Time) (bool, error) {
	now := time.Now()
	var d struct {
		Result []sample `json:"result"`
	}
	err := promGet("/api/v1/query_range", url.Values{"query": {q.expr},
		"start": {strconv.FormatInt(from.Unix(), 10)}, "end": {strconv.FormatInt(now.Unix(), 10)},
		"step": {strconv.Itoa(int(rangeStep.Seconds()))}}, &d)
	if err != nil {
		return false, err
	}
	finite, rise := 0, 0
	for _, s := range d.Result {
		for _, v := range s.Values {
			str, _ := v[1].(string)
			f, err := strconv.ParseFloat(str, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				continue
			}
			finite++
			if f > 0 {
				rise++
			}
		}
	}
	q.last = fmt.Sprintf("%d series, %d finite samples, %d above 0", len(d.Result), finite, rise)
	if q.need == needRise {
		return rise > 0, nil
	}
	return finite > 0, nil
}

// checkDashboard makes traffic in rounds until every dashboard query
// returns what its panel is for, each round followed by a scrape of
// every target; the workspace variable's own query (label_values of the
// analysis durations) must offer the scenario's workspace.
func checkDashboard(t *testing.T, ws *client, from time.Time) {
	qs := dashboardQueries(t)
	if t.Failed() {
		t.FailNow()
	}
	pending := slices.Clone(qs)
	offered := false
	deadline := time.Now().Add(dashboardLimit)
	rounds := 0
	for (len(pending) > 0 || !offered) && time.Now().Before(deadline) {
		rounds++
		var todo traffic
		for _, q := range pending {
			todo |= q.traffic
		}
		if !offered {
			todo |= runs
		}
		since := time.Now()
		makeTraffic(t, ws, todo|requests)
		waitScraped(t, since)
		var left []*dashQuery
		for _, q := range pending {
			ok, err := q.holds(from)
			if err != nil {
				// A query Prometheus refuses (a syntax it lacks) is a
				// finding, not a wait: it is not asked again.
				q.last = "refused: " + err.Error()
				continue
			}
			if q.ok = ok; !ok {
				left = append(left, q)
			}
		}
		pending = left
		var names []string
		if err := promGet("/api/v1/label/workspace/values", url.Values{"match[]": {"gusset_analysis_duration_seconds_count"}}, &names); err != nil {
			t.Fatal(err)
		}
		offered = slices.Contains(names, promWorkspace)
	}
	with := 0
	for _, q := range qs {
		t.Run(q.name, func(t *testing.T) {
			if !q.ok {
				t.Errorf("no %s after %d rounds of traffic (%s): %s\n%s", map[need]string{needValue: "value", needRise: "value above 0"}[q.need], rounds, q.why, q.last, q.expr)
				return
			}
			with++
		})
	}
	if !offered {
		t.Errorf("the workspace variable (label_values(gusset_analysis_duration_seconds_count, workspace)) does not offer %s", promWorkspace)
	}
	figure(t, "prometheus: dashboard queries with data: %d/%d (%d panel targets, $workspace as All and as one workspace), after %d round(s) of traffic; workspace variable offers %s: %v",
		with, len(qs), len(dashboardWants), rounds, promWorkspace, offered)
}

// makeTraffic does one round of the traffic todo asks for.
func makeTraffic(t *testing.T, ws *client, todo traffic) {
	t.Helper()
	if todo&requests != 0 {
		for range 5 {
			ws.must(t, http.StatusOK, "GET", "/job/status", nil, nil)
		}
	}
	if todo&runs != 0 {
		run := ws.startRun(t)
		done := ws.poll(t, run.RunID, scrapeLimit, "finished", finished)
		if done.Status != model.RunCompleted {
			t.Fatalf("run %s ended %s: %s", done.RunID, done.Status, done.ErrorMessage)
		}
	}
	if todo&clientError != 0 {
		ws.must(t, http.StatusNotFound, "GET", "/job/analysis/runs/00000000-0000-4000-8000-000000000000", nil, nil)
	}
	if todo&serverError != 0 {
		storageFull(t, ws)
	}
}

// storageFull sets Redis's maxmemory below what it holds, sends one
// write, which must answer 503 STORAGE_FULL and change nothing, and puts
// the maxmemory back (also when the test fails). No run is under way
// then: the window lasts one request.
func storageFull(t *testing.T, ws *client) {
	t.Helper()
	ids := stk.containers(t, "redis")
	if len(ids) != 1 {
		t.Fatalf("%d redis containers, want 1", len(ids))
	}
	cli := func(args ...string) string {
		t.Helper()
		out, err := stk.run(append([]string{"exec", ids[0], "redis-cli"}, args...)...)
		if err != nil || strings.HasPrefix(out, "ERR") {
			t.Fatalf("redis-cli %s: %v %s", strings.Join(args, " "), err, out)
		}
		return out
	}
	got := strings.Fields(cli("config", "get", "maxmemory"))
	if len(got) != 2 {
		t.Fatalf("redis-cli config get maxmemory: %q", got)
	}
	limit := got[1]
	used := int64(0)
	for _, line := range strings.Split(cli("info", "memory"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			used, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	if used <= 0 {
		t.Fatal("redis-cli info memory: no used_memory")
	}
	defer cli("config", "set", "maxmemory", limit)
	cli("config", "set", "maxmemory", strconv.FormatInt(used/2, 10))
	status, body, err := ws.do("PATCH", "/job/headings", []byte(`{"heading": "storage full"}`))
	if err != nil || status != http.StatusServiceUnavailable || !strings.Contains(string(body), "STORAGE_FULL") {
		t.Fatalf("a write while Redis is full: %d %s %v, want 503 STORAGE_FULL", status, clip(body), err)
	}
}

// waitScraped waits until Prometheus has scraped every api and worker
// target since the given time, so that what was done before it is in
// the database.
func waitScraped(t *testing.T, since time.Time) {
	t.Helper()
	waitFor(t, scrapeLimit, "a scrape of every target", func() (bool, error) {
		targets, err := activeTargets()
		if err != nil {
			return false, err
		}
		for _, tg := range targets {
			if tg.Labels["job"] != "prometheus" && !tg.LastScrape.After(since) {
				return false, fmt.Errorf("%s last scraped %v", tg.ScrapeURL, tg.LastScrape)
			}
		}
		return true, nil
	})
}
