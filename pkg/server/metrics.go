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
}

func newAnalysisMetrics(reg prometheus.Registerer) *analysisMetrics {
	m := &analysisMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gusset_analysis_duration_seconds", Help: "Wall time of analyses that ended, by analysis type and outcome.",
			Buckets: prometheus.ExponentialBuckets(0.01, 2, 18),
		}, []string{"kind", "outcome"}),
		dofs: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "gusset_analysis_dofs", Help: "Degrees of freedom (equations) of the analyses solved.",
			Buckets: prometheus.ExponentialBuckets(100, 4, 10),
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gusset_analysis_runs_in_flight", Help: "Analyses this process is solving now.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.duration, m.dofs, m.inFlight)
	}
	return m
}

func (m *analysisMetrics) observe(kind model.AnalysisType, status model.RunStatus, dofs int, d time.Duration) {
	m.duration.WithLabelValues(string(kind), string(status)).Observe(d.Seconds())
	if dofs > 0 {
		m.dofs.Observe(float64(dofs))
	}
}

func (m *analysisMetrics) running(delta int) { m.inFlight.Add(float64(delta)) }

// queueCollector reports the analysis queue depth when scraped.
type queueCollector struct {
	qc   *queue.Client
	desc *prometheus.Desc
}

func newQueueCollector(qc *queue.Client) prometheus.Collector {
	return &queueCollector{qc: qc, desc: prometheus.NewDesc("gusset_analysis_queue_depth",
		"Analysis tasks waiting for a worker (pending, scheduled and retrying).", nil, nil)}
}

// Describe implements prometheus.Collector.
func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := c.qc.Depth(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n))
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
