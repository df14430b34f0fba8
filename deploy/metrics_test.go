package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/server"
	"github.com/gusset/gusset/pkg/testutil/logtest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// selector is one metric a query reads, with the label names its
// matchers test.
type selector struct {
	metric string
	labels []string
}

// promqlKeywords are the words of PromQL that are not metric names when
// they are not followed by "(": operators and modifiers.
var promqlKeywords = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true,
	"group_right": true, "bool": true, "offset": true, "and": true, "or": true, "unless": true, "inf": true, "nan": true,
	"atan2": true, "sum": true, "min": true, "max": true, "avg": true, "count": true, "group": true, "stddev": true,
	"stdvar": true, "topk": true, "bottomk": true, "quantile": true, "count_values": true}

// labelLists are the keywords followed by a parenthesised list of label
// names, not of expressions.
var labelLists = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true}

// selectors returns the metric selectors of a PromQL expression. It is a
// tokenizer, not a parser (the Prometheus parser would bring in most of
// Prometheus): strings, range and subquery brackets and Grafana variables
// are skipped, an identifier followed by "(" is a function, a keyword is
// an operator, and any other identifier names a metric.
func selectors(expr string) []selector {
	var out []selector
	isStart := func(c byte) bool { return c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	isPart := func(c byte) bool { return isStart(c) || c >= '0' && c <= '9' }
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(expr, i)
		case c == '[':
			i = skipTo(expr, i, ']')
		case c == '{':
			// Matchers with no metric name before them.
			i = skipTo(expr, i, '}')
		case c == '$' || c >= '0' && c <= '9' || c == '.':
			// A Grafana variable, a number or a duration.
			j := i + 1
			for j < len(expr) && (isPart(expr[j]) || expr[j] == '.') {
				j++
			}
			i = j
		case isStart(c):
			j := i
			for j < len(expr) && isPart(expr[j]) {
				j++
			}
			word := expr[i:j]
			k := j
			for k < len(expr) && (expr[k] == ' ' || expr[k] == '\n' || expr[k] == '\t') {
				k++
			}
			call := k < len(expr) && expr[k] == '('
			switch {
			case labelLists[word] && call:
				j = skipTo(expr, k, ')')
			case call || promqlKeywords[word]:
			default:
				sel := selector{metric: word}
				if k < len(expr) && expr[k] == '{' {
					// Matchers right after a metric name belong to it.
					j = skipTo(expr, k, '}')
					sel.labels = matcherLabels(expr[k+1 : j-1])
				}
				out = append(out, sel)
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// skipString returns the index after the string literal at expr[i].
func skipString(expr string, i int) int {
	q := expr[i]
	for j := i + 1; j < len(expr); j++ {
		switch expr[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(expr)
}

// skipTo returns the index after the first close at or after i, outside
// strings.
func skipTo(expr string, i int, close byte) int {
	for j := i + 1; j < len(expr); j++ {
		switch c := expr[j]; {
		case c == '"' || c == '\'' || c == '`':
			j = skipString(expr, j) - 1
		case c == close:
			return j + 1
		}
	}
	return len(expr)
}

// matcherLabels returns the label names of a matcher list
// (a="x", b=~"y").
func matcherLabels(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`+"`[^`]*`"+`)`).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// The tokenizer finds the metrics of the forms the dashboard and the
// alerts use, and nothing else: a function, a label in by(), a string
// or a Grafana variable is not a metric.
func TestSelectors(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want string
	}{
		{`up{job="api"} == 0 or absent(up{job="api"})`, `up{job} up{job}`},
		{`sum by (route) (rate(gusset_http_requests_total{status=~"5.."}[$__rate_interval]))`, `gusset_http_requests_total{status}`},
		{`histogram_quantile(0.95, sum by (le, kind) (rate(gusset_analysis_duration_seconds_bucket{workspace=~"$workspace"}[5m])))`,
			`gusset_analysis_duration_seconds_bucket{workspace}`},
		{`max(gusset_analysis_queue_depth) > 0 and max(delta(gusset_analysis_queue_depth[10m])) > 0`,
			`gusset_analysis_queue_depth gusset_analysis_queue_depth`},
		{`sum(rate(a_total[5m] offset 1h)) / on (job) group_left (instance) b{x="by (y)", z!='q'}`, `a_total b{x,z}`},
		{`60 * sum without (instance) (rate(c:recorded[1m:10s]))`, `c:recorded`},
		{`max(gusset_analysis_queue_oldest_seconds) > 300`, `gusset_analysis_queue_oldest_seconds`},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			var got []string
			for _, s := range selectors(tc.expr) {
				if s.labels == nil {
					got = append(got, s.metric)
				} else {
					got = append(got, s.metric+"{"+strings.Join(s.labels, ",")+"}")
				}
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("selectors = %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

// queries are the PromQL expressions of the dashboards and the alert
// rules, keyed by where they come from.
func queries(t *testing.T) map[string][]selector {
	t.Helper()
	root := repoRoot(t)
	out := map[string][]selector{}
	files, _ := filepath.Glob(filepath.Join(root, "deploy", "grafana", "dashboards", "*.json"))
	if len(files) == 0 {
		t.Fatal("no dashboard found")
	}
	labelValues := regexp.MustCompile(`^label_values\((.+),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$`)
	for _, f := range files {
		d := readDashboard(t, f)
		for _, p := range allPanels(d.Panels) {
			for i, tg := range p.Targets {
				out[fmt.Sprintf("%s panel %q query %d", filepath.Base(f), p.Title, i)] = selectors(tg.Expr)
			}
		}
		for _, v := range d.Templating.List {
			// label_values(metric, label) reads label from metric.
			if m := labelValues.FindStringSubmatch(strings.TrimSpace(v.Definition)); m != nil {
				sels := selectors(m[1])
				for i := range sels {
					sels[i].labels = append(sels[i].labels, m[2])
				}
				out[fmt.Sprintf("%s variable %s", filepath.Base(f), v.Name)] = sels
			}
		}
	}
	var rules alertRules
	readYAML(t, filepath.Join(root, "deploy", "prometheus", "alerts.yml"), &rules)
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			out["alert "+r.Alert] = selectors(r.Expr)
		}
	}
	return out
}

// exposition is what /metrics endpoints serve: each metric name with the
// label names of its samples. A family with HELP/TYPE and no sample yet
// counts, with no labels known.
type exposition map[string]map[string]bool

// scrape reads one /metrics page into e.
func (e exposition) scrape(t *testing.T, url string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s = %d: %s", url, res.StatusCode, body)
	}
	add := func(name string) map[string]bool {
		if e[name] == nil {
			e[name] = map[string]bool{}
		}
		return e[name]
	}
	sample := regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s`)
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) >= 4 && f[0] == "#" && f[1] == "TYPE" {
			add(f[2])
			if f[3] == "histogram" || f[3] == "summary" {
				for _, suffix := range []string{"_bucket", "_count", "_sum"} {
					add(f[2] + suffix)
				}
			}
			continue
		}
		if m := sample.FindStringSubmatch(line); m != nil {
			labels := add(m[1])
			for _, l := range matcherLabels(m[3]) {
				labels[l] = true
			}
		}
	}
}

// missing lists the selectors of qs that e does not serve: a metric no
// process exposes, or a label its samples never carry. up and the job
// and instance labels come from Prometheus, not from the processes.
func missing(qs map[string][]selector, e exposition) []string {
	var out []string
	for where, sels := range qs {
		for _, s := range sels {
			if s.metric == "up" {
				continue
			}
			labels, ok := e[s.metric]
			if !ok {
				out = append(out, fmt.Sprintf("%s: metric %s is not exposed by the api or the worker", where, s.metric))
				continue
			}
			for _, l := range s.labels {
				if l != "job" && l != "instance" && len(labels) > 0 && !labels[l] {
					out = append(out, fmt.Sprintf("%s: metric %s has no label %s", where, s.metric, l))
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// The check itself can fail: a made-up metric, a made-up label.
func TestMissingFindsUnknownMetrics(t *testing.T) {
	e := exposition{"gusset_a_total": {"kind": true}}
	got := missing(map[string][]selector{
		"q": selectors(`rate(gusset_a_total{kind="x"}[5m]) + gusset_no_such_metric + up + gusset_a_total{colour="red"}`),
	}, e)
	if len(got) != 2 || !strings.Contains(got[0], "gusset_a_total has no label colour") || !strings.Contains(got[1], "gusset_no_such_metric") {
		t.Errorf("missing = %q", got)
	}
}

// Every metric a dashboard panel or an alert reads is served by the real
// processes: an api and a worker (separate registries, as in the
// containers) over a real redis-server, after one analysis has run so
// that the labelled histograms have series. A renamed metric would
// otherwise leave an empty panel and an alert that can never fire.
func TestDashboardAndAlertMetricsExist(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an api, a worker and redis-server")
	}
	qs := queries(t)
	apiBase, apiCfg, workerAddr := startServices(t)
	root := strings.TrimSuffix(apiBase, "/api/v1")

	runOneAnalysis(t, apiBase)

	// The container health checks probe these same processes.
	apiCfg.Port = root[strings.LastIndex(root, ":")+1:]
	for _, cfg := range []struct {
		cfg    server.Config
		worker bool
	}{{apiCfg, false}, {server.Config{MetricsAddr: workerAddr}, true}} {
		url, err := server.HealthURL(cfg.cfg, cfg.worker)
		if err != nil {
			t.Fatal(err)
		}
		if err := server.Healthcheck(context.Background(), url); err != nil {
			t.Errorf("health check of the running process: %v", err)
		}
	}

	e := exposition{}
	e.scrape(t, root+"/metrics")
	e.scrape(t, "http://"+workerAddr+"/metrics")
	for _, m := range missing(qs, e) {
		t.Error(m)
	}
}

// startServices starts an api on a free port and a worker whose metrics
// listen on a free port, as separate processes would (each its own
// registry), and stops them when the test ends. It returns the API's base
// URL, its configuration and the worker's metrics address.
func startServices(t *testing.T) (string, server.Config, string) {
	t.Helper()
	rdb := redistest.Start(t).Client(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	apiCfg := server.Config{Port: "0", Host: "127.0.0.1", JobsDir: t.TempDir()}
	base := make(chan string, 1)
	// The worker logs its metrics address when it listens: the only way
	// to learn the port of "127.0.0.1:0".
	workerLog, addr := logtest.Attr("worker metrics listening", "addr")
	done := make(chan error, 2)
	go func() { done <- server.ServeAPI(ctx, apiCfg, rdb, quiet, nil, func(b string) { base <- b }) }()
	go func() {
		done <- server.ServeWorker(ctx, server.Config{MetricsAddr: "127.0.0.1:0"}, rdb, workerLog)
	}()
	t.Cleanup(func() {
		cancel()
		for range 2 {
			if err := <-done; err != nil {
				t.Errorf("stopped: %v", err)
			}
		}
	})
	var b, a string
	for b == "" || a == "" {
		select {
		case b = <-base:
		case a = <-addr:
		case err := <-done:
			t.Fatalf("a process stopped at start: %v", err)
		case <-time.After(2 * time.Minute): // a safety net, generous for a loaded machine
			t.Fatal("the api or the worker did not start")
		}
	}
	return b, apiCfg, a
}

// runOneAnalysis opens a bundled sample and runs a linear static analysis
// to its end through the API.
func runOneAnalysis(t *testing.T, base string) {
	t.Helper()
	const sample = "Portal frame"
	if r := post(t, base+"/job/open-sample", map[string]string{"fileName": sample}); r.status != 200 {
		t.Fatalf("open sample %q: %d %s", sample, r.status, r.body)
	}
	r := post(t, base+"/job/analysis/static/run-linear", nil)
	var run struct {
		RunID  string `json:"runId"`
		Status string `json:"status"`
	}
	if r.status != 202 || json.Unmarshal(r.body, &run) != nil {
		t.Fatalf("start run: %d %s", r.status, r.body)
	}
	const patience = 2 * time.Minute // a safety net, generous for a loaded machine
	deadline := time.Now().Add(patience)
	for !slices.Contains([]string{"Completed", "Failed", "Cancelled"}, run.Status) {
		if time.Now().After(deadline) {
			t.Fatalf("run %s still %s after %v", run.RunID, run.Status, patience)
		}
		time.Sleep(50 * time.Millisecond)
		res, err := http.Get(base + "/job/analysis/runs/" + run.RunID)
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(res.Body).Decode(&run)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if run.Status != "Completed" {
		t.Fatalf("run ended %s", run.Status)
	}
}

type reply struct {
	status int
	body   []byte
}

func post(t *testing.T, url string, body any) reply {
	t.Helper()
	var rd io.Reader = http.NoBody
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	res, err := http.Post(url, "application/json", rd)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return reply{status: res.StatusCode, body: b}
}
