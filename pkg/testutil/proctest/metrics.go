package proctest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Metrics is one scrape of a Prometheus text endpoint: the value of each
// sample, keyed by its series as the endpoint wrote it (the metric name,
// then its labels in braces, if any).
type Metrics map[string]float64

// Scrape reads the metrics a process serves at http://addr/metrics (a
// worker's METRICS_ADDR, say).
func Scrape(ctx context.Context, client *http.Client, addr string) (Metrics, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", addr, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("scrape %s: status %d", addr, res.StatusCode)
	}
	m := Metrics{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// The value follows the series (whose label values may hold
		// spaces), optionally followed by a timestamp.
		series, rest := line, ""
		if i := strings.LastIndexByte(line, '}'); i >= 0 {
			series, rest = line[:i+1], line[i+1:]
		} else if j := strings.IndexByte(line, ' '); j >= 0 {
			series, rest = line[:j], line[j:]
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			continue
		}
		m[series] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scrape %s: %w", addr, err)
	}
	return m, nil
}

// Sum adds up the samples of the metric name (all its series) whose
// labels include every one of labels, each written as the endpoint
// writes it: `outcome="Completed"`.
func (m Metrics) Sum(name string, labels ...string) float64 {
	var sum float64
	for series, v := range m {
		metric, lbls, _ := strings.Cut(series, "{")
		if metric != name {
			continue
		}
		ok := true
		for _, l := range labels {
			ok = ok && strings.Contains(lbls, l)
		}
		if ok {
			sum += v
		}
	}
	return sum
}

// Has reports whether the scrape holds any series of the metric name.
func (m Metrics) Has(name string) bool {
	for series := range m {
		if metric, _, _ := strings.Cut(series, "{"); metric == name {
			return true
		}
	}
	return false
}
