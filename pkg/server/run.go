package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	results "github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/analysis/service"
	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// Connect opens the Redis client url names and checks that it answers:
// OpenRedis, which lists the URL forms.
func Connect(ctx context.Context, url string) (redis.UniversalClient, error) {
	return OpenRedis(ctx, url)
}

// redisTimeout is the Redis client's read and write timeout unless the
// URL sets one.
const redisTimeout = 10 * time.Second

// StartEmbeddedRedis starts miniredis on a free loopback port. ClockTTL
// makes keys with a TTL expire as wall-clock time passes, as in Redis.
func StartEmbeddedRedis() (*miniredis.Miniredis, error) {
	m := miniredis.NewMiniRedis()
	m.ClockTTL(true)
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start embedded redis: %w", err)
	}
	return m, nil
}

// modelStores are the stores and the editor every process reads the
// model through.
type modelStores struct {
	jobs   *redisstore.Jobs
	model  *redisstore.Model
	editor *editor.Editor
	source adapter.Source
	// kinds are the analyses the api serves and the worker runs.
	kinds *analysis.Registry
}

func newModel(rdb redis.UniversalClient, reg *analysis.Registry) *modelStores {
	if reg == nil {
		reg = kinds.StandardKinds()
	}
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	mod := redisstore.NewModel(rdb)
	ed := editor.New(mod, jobs)
	st := editor.NewStructure(ed)
	return &modelStores{jobs: jobs, model: mod, editor: ed, source: adapter.Source{Structure: st, Loads: editor.NewLoads(ed, st)},
		kinds: reg}
}

// checkSnapshot checks a job file before it opens: the model rows, then
// the results it carries.
func (m *modelStores) checkSnapshot(ctx context.Context, snap store.Snapshot) error {
	if err := m.editor.CheckSnapshot(ctx, snap); err != nil {
		return err
	}
	return m.kinds.CheckResults(snap)
}

// ServeAPI serves the HTTP interface on cfg's port until ctx ends. ready,
// when not nil, receives the base URL once the listener is up. reg (nil:
// a new one) receives the metrics the API serves at /metrics.
func ServeAPI(ctx context.Context, cfg Config, rdb redis.UniversalClient, log *slog.Logger, reg *prometheus.Registry, ready func(baseURL string)) error {
	dir, err := jobfile.OpenDir(cfg.JobsDir)
	if err != nil {
		return err
	}
	if err := setJobfileKeys(dir, cfg, log); err != nil {
		return err
	}
	m := newModel(rdb, cfg.Kinds)
	keys := cfg.AuthMode == AuthKeys
	var authn httpapi.Authenticator
	var workspaces workspaceReader
	if keys {
		svc := &auth.Service{Store: redisstore.NewAuth(rdb)}
		authn, workspaces = svc, svc
	}
	limits := limitsOf(cfg.Limits, workspaces)
	sess := session.New(m.jobs, dir, session.Options{Generator: "gusset " + httpapi.Version,
		RecoveryDelay: cfg.RecoveryDelay, Log: log, CheckModel: m.checkSnapshot, CheckAnalysis: m.kinds.CheckSettings, PrepareSave: m.kinds.PrepareSave, MaxJobBytes: cfg.MaxJobBytes,
		Limits: limits, WorkspaceDirs: keys})
	m.editor.Touched = sess.Touched
	m.editor.Limits = limits
	if reg == nil {
		reg = newRegistry()
	}
	qc := queue.NewClient(rdb)
	res := redisstore.NewResults(rdb)
	if cfg.AnalysisMaxRetry != nil {
		qc.MaxRetry = *cfg.AnalysisMaxRetry
	}
	api := httpapi.New(httpapi.Config{Session: sess, Model: m.model, Structure: m.source.Structure, Loads: m.source.Loads,
		Analysis: &service.Service{Runs: redisstore.NewRuns(rdb), Queue: qc, FanOut: redisstore.NewFanOut(rdb), Lost: newRunsLost(reg, m.kinds.Types()),
			Limits: limits, Stored: res, ObserveBytes: newResultBytesGauge(reg, cfg.HideWorkspaceLabels)},
		Limits: limits,
		Query:  &results.Query{Source: m.source, Results: res, Jobs: m.jobs},
		Kinds:  m.kinds,
		Ready:  m.jobs.Ping, Storage: storageOf(rdb), Registry: reg, Log: log, BodyLimit: cfg.BodyLimit, BodyMemory: cfg.BodyMemory,
		BodyMemoryPerClient: cfg.BodyMemoryPerClient, MinBodyRate: cfg.MinBodyRate, HideWorkspaceLabels: cfg.HideWorkspaceLabels,
		MaxResponseRows: cfg.MaxResponseRows,
		AllowedOrigins:  cfg.AllowedOrigins, AllowedHosts: cfg.AllowedHosts, Auth: authn})
	reg.MustRegister(newQueueCollector(qc), newRedisCollector(rdb))

	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, cfg.Port))
	if err != nil {
		return fmt.Errorf("listen on port %s: %w", cfg.Port, err)
	}
	host := cfg.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	base := fmt.Sprintf("http://%s/api/v1", net.JoinHostPort(host, fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)))
	errc := make(chan error, 1)
	go func() { errc <- api.App().Listener(ln) }()
	log.Info("api listening", "baseURL", base, "jobsDir", dir.Root(), "authMode", cfg.AuthMode)
	if ready != nil {
		ready(base)
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	shutdownErr := api.App().ShutdownWithTimeout(10 * time.Second)
	sess.Flush()
	return shutdownErr
}

// setJobfileKeys gives dir the keys that sign and verify job files:
// cfg's, else (the standalone) those kept in the jobs directory, else
// none, which the log says: files are then saved unsigned and open
// without their results.
func setJobfileKeys(dir *jobfile.Dir, cfg Config, log *slog.Logger) error {
	keys := cfg.JobfileKeys
	switch {
	case !keys.Empty():
	case cfg.KeepJobfileKeys:
		var created bool
		var err error
		if keys, created, err = dir.KeptKeys(); err != nil {
			return err
		}
		if created {
			log.Info("made a job-file key; job files saved from now on are signed with it", "file", filepath.Join(dir.Root(), jobfile.KeyFileName))
		}
	default:
		log.Warn(jobfile.KeysSetting + " is not set: job files are saved unsigned and open without their analysis results")
	}
	dir.SetKeys(keys)
	return nil
}

// ServeWorker runs a worker process: analysis tasks on rdb and, when
// cfg.MetricsAddr is set, its metrics, until ctx ends.
func ServeWorker(ctx context.Context, cfg Config, rdb redis.UniversalClient, log *slog.Logger) error {
	reg := newRegistry()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	merr := make(chan error, 1)
	go func() { merr <- serveMetrics(ctx, cfg.MetricsAddr, reg, log) }()
	err := RunWorker(ctx, cfg, rdb, log, reg)
	cancel()
	return errors.Join(err, <-merr)
}

// RunWorker serves analysis tasks on rdb until ctx ends, running the
// kinds of cfg.Kinds and recording the analysis metrics in reg.
func RunWorker(ctx context.Context, cfg Config, rdb redis.UniversalClient, log *slog.Logger, reg prometheus.Registerer) error {
	m := newModel(rdb, cfg.Kinds)
	met := newAnalysisMetrics(reg, m.kinds.Types(), cfg.HideWorkspaceLabels)
	runner := &lifecycle.Runner{Kinds: m.kinds, Source: m.source, Jobs: m.jobs, Runs: redisstore.NewRuns(rdb), Results: redisstore.NewResults(rdb),
		FanOut: redisstore.NewFanOut(rdb), Queue: queue.NewClient(rdb), Name: workerName(), Log: log, Observe: met.observe, Running: met.running, Resumed: met.resume,
		Fenced: met.fence, Memory: workerBudget(cfg, log)}
	log.Info("worker started", "queue", queue.QueueAnalysis)
	return queue.NewWorker(rdb, log, queue.Handler{TaskType: queue.TypeAnalysisRun, Handle: func(ctx context.Context, payload []byte) error {
		var t lifecycle.Task
		if err := json.Unmarshal(payload, &t); err != nil {
			return model.E(model.KindValidation, "analysis task payload: %v", err)
		}
		return runner.Run(ctx, t)
	}}).Run(ctx)
}

// workers counts the workers this process started, so that their names
// differ.
var workers atomic.Int64

// workerName names a worker in run messages: host, process and its number
// in the process.
func workerName() string {
	host, err := os.Hostname()
	if err != nil {
		host = "worker"
	}
	return fmt.Sprintf("%s-%d-%d", host, os.Getpid(), workers.Add(1))
}

// RunStandalone runs the API and one worker in this process, over cfg's
// Redis or, when REDIS_URL is empty, over an embedded Redis. Without
// JOBFILE_KEYS it keeps its job-file key in the jobs directory
// (KeepJobfileKeys).
func RunStandalone(ctx context.Context, cfg Config, log *slog.Logger, ready func(baseURL string)) error {
	url := cfg.RedisURL
	if url == "" {
		m, err := StartEmbeddedRedis()
		if err != nil {
			return err
		}
		defer m.Close()
		url = "redis://" + m.Addr()
		log.Info("embedded redis started", "addr", m.Addr())
	}
	rdb, err := Connect(ctx, url)
	if err != nil {
		return err
	}
	defer rdb.Close()
	cfg.KeepJobfileKeys = true
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	reg := newRegistry()
	werr := make(chan error, 1)
	go func() { werr <- RunWorker(ctx, cfg, rdb, log, reg) }()
	err = ServeAPI(ctx, cfg, rdb, log, reg, ready)
	cancel()
	return errors.Join(err, <-werr)
}
