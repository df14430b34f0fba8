package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/queue"
)

// newRegistry returns a registry with the Go and process collectors.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// analysisMetrics are the series a worker records.
type analysisMetrics struct {
	duration *prometheus.HistogramVec
	dofs     prometheus.Histogram
	inFlight prometheus.Gauge
	resumed  *prometheus.CounterVec
	fenced   *prometheus.CounterVec
	// hide writes httpapi.HiddenWorkspace for every workspace
	// (METRICS_WORKSPACE_LABELS=false).
	hide bool
}

// newAnalysisMetrics registers the worker's series in reg (nil: none);
// hide replaces workspace names in their labels.
func newAnalysisMetrics(reg prometheus.Registerer, types []model.AnalysisType, hide bool) *analysisMetrics {
	m := &analysisMetrics{hide: hide,
		// workspace names are created by the operator and few, so the
		// label keeps the series count small; it never carries a key.
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gusset_analysis_duration_seconds", Help: "Wall time of analyses that ended, by analysis type, outcome and workspace (" + httpapi.HiddenWorkspace + " for every one with METRICS_WORKSPACE_LABELS=false).",
			Buckets: prometheus.ExponentialBuckets(0.01, 2, 18),
		}, []string{"kind", "outcome", "workspace"}),
		dofs: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "gusset_analysis_dofs", Help: "Degrees of freedom (equations) of the analyses solved.",
			Buckets: prometheus.ExponentialBuckets(100, 4, 10),
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gusset_analysis_runs_in_flight", Help: "Analyses this process is solving now.",
		}),
		resumed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gusset_analysis_attempts_resumed_total",
			Help: "Attempts this worker began of runs whose previous attempt's worker was lost or stopped, by analysis type.",
		}, []string{"kind"}),
		fenced: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gusset_analysis_writes_fenced_total",
			Help: "Writes of this worker's attempts to a run that the store refused because another attempt holds the run (the worker was cut off from Redis and the queue gave the run to another worker), by analysis type.",
		}, []string{"kind"}),
	}
	// Every series starts at zero, so that increase() sees the first event
	// of each (a series that appears at 1 has no earlier sample to rise
	// from).
	for _, k := range types {
		m.resumed.WithLabelValues(string(k))
		m.fenced.WithLabelValues(string(k))
	}
	if reg != nil {
		reg.MustRegister(m.duration, m.dofs, m.inFlight, m.resumed, m.fenced)
	}
	return m
}

func (m *analysisMetrics) observe(ws string, kind model.AnalysisType, status model.RunStatus, dofs int, d time.Duration) {
	if m.hide {
		ws = httpapi.HiddenWorkspace
	}
	m.duration.WithLabelValues(string(kind), string(status), ws).Observe(d.Seconds())
	if dofs > 0 {
		m.dofs.Observe(float64(dofs))
	}
}

func (m *analysisMetrics) running(delta int) { m.inFlight.Add(float64(delta)) }

// resume counts an attempt that took over a run (Runner.Resumed).
func (m *analysisMetrics) resume(kind model.AnalysisType) {
	m.resumed.WithLabelValues(string(kind)).Inc()
}

// fence counts a write refused by the fence (Runner.Fenced).
func (m *analysisMetrics) fence(kind model.AnalysisType) {
	m.fenced.WithLabelValues(string(kind)).Inc()
}

// newRunsLost registers gusset_analysis_runs_lost_total in reg and
// returns the function that counts a run the API gave up as "worker
// lost" (service.Service.Lost).
func newRunsLost(reg prometheus.Registerer, types []model.AnalysisType) func(model.AnalysisType) {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gusset_analysis_runs_lost_total",
		Help: "Runs given up as \"worker lost\" after their retries ran out, by analysis type.",
	}, []string{"kind"})
	for _, k := range types {
		c.WithLabelValues(string(k))
	}
	reg.MustRegister(c)
	return func(kind model.AnalysisType) { c.WithLabelValues(string(kind)).Inc() }
}

// newResultBytesGauge registers gusset_workspace_result_bytes in reg and
// returns what sets it. The api reads a workspace's stored result bytes
// for GET /job/status and before each run, and sets the gauge then, so a
// sample is as fresh as the workspace's last such request. With hide
// (METRICS_WORKSPACE_LABELS=false) there is no series: one hidden label
// for every workspace would hold whichever was read last.
func newResultBytesGauge(reg prometheus.Registerer, hide bool) func(ws string, bytes int64) {
	if hide {
		return nil
	}
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "gusset_workspace_result_bytes",
		Help: "Result bytes (columns and meta records) a workspace stores, as last read by this api replica (GET /job/status, a run's start).",
	}, []string{"workspace"})
	reg.MustRegister(g)
	return func(ws string, bytes int64) { g.WithLabelValues(ws).Set(float64(bytes)) }
}

// scrapeTimeout bounds what one collector waits for Redis during a
// scrape.
const scrapeTimeout = 2 * time.Second

// queueCollector reports the analysis queue and its workers when scraped.
// A value it cannot read is left out rather than reported as an error:
// an error would fail the whole scrape, and with it the series that say
// what is wrong (gusset_redis_up).
type queueCollector struct {
	qc                         *queue.Client
	depth, oldest, total, busy *prometheus.Desc
}

func newQueueCollector(qc *queue.Client) prometheus.Collector {
	return &queueCollector{qc: qc,
		depth: prometheus.NewDesc("gusset_analysis_queue_depth",
			"Analysis tasks waiting for a worker (pending, scheduled and retrying).", nil, nil),
		oldest: prometheus.NewDesc("gusset_analysis_queue_oldest_seconds",
			"Age of the oldest analysis task ready to run that no worker has taken; 0 when none waits.", nil, nil),
		total: prometheus.NewDesc("gusset_analysis_workers",
			"Live worker processes serving the analysis queue (seen by their heartbeat in Redis).", nil, nil),
		busy: prometheus.NewDesc("gusset_analysis_workers_busy",
			"Live worker processes solving an analysis task now.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.depth
	ch <- c.oldest
	ch <- c.total
	ch <- c.busy
}

// Collect implements prometheus.Collector.
func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	var (
		st          queue.Stats
		total, busy int
		serr, werr  error
	)
	// The inspector takes no context: within bounds the wait instead.
	if err := within(ctx, func() {
		st, serr = c.qc.Stats(ctx)
		total, busy, werr = c.qc.Workers(ctx)
	}); err != nil {
		return
	}
	if serr == nil {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(st.Depth))
		ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, st.Oldest.Seconds())
	}
	if werr == nil {
		ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(total))
		ch <- prometheus.MustNewConstMetric(c.busy, prometheus.GaugeValue, float64(busy))
	}
}

// within runs fn and waits for it until ctx ends. fn keeps running after
// a timeout, until its own Redis calls time out; it must only write
// variables the caller no longer reads then.
func within(ctx context.Context, fn func()) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serveMetrics serves /metrics and /healthz of a worker on addr until ctx
// ends; an empty addr serves nothing.
func serveMetrics(ctx context.Context, addr string, reg *prometheus.Registry, log *slog.Logger) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics listener on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"status":"ok"}`)) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	log.Info("worker metrics listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve metrics: %w", err)
	}
	return nil
}
