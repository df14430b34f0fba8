// Package server wires the processes together: configuration from the
// environment, the Redis connection, the API, the worker, and the
// standalone process that runs both over an embedded Redis. The mains in
// services/ call into it and do nothing else.
package server

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
)

// Config is read from the environment.
type Config struct {
	// RedisURL is a redis:// URL; empty in standalone mode starts an
	// embedded Redis.
	RedisURL string
	// Port is the HTTP port; "0" picks a free one (tests).
	Port string
	// Host is the interface to listen on; 127.0.0.1 unless HOST says
	// otherwise, so that an open-mode service is not reachable from other
	// machines by accident.
	Host string
	// AuthMode is AuthOpen (no credentials, one workspace) or AuthKeys
	// (every request carries an API key that names its workspace).
	AuthMode string
	// JobsDir is where job files are saved.
	JobsDir string
	// BodyLimit is the request body limit in bytes.
	BodyLimit int
	// BodyMemory bounds the request bodies the API reads and handles at
	// once, in bytes, each byte counted httpapi.BodyWeightFactor times;
	// zero means httpapi.DefaultBodyMemory. It is at least the body limit,
	// so that the largest body fits.
	BodyMemory int64
	// BodyMemoryPerClient is the most of BodyMemory one workspace (or,
	// for a request without one, one remote address) may hold; zero
	// means half of BodyMemory. It is at least the body limit.
	BodyMemoryPerClient int64
	// MinBodyRate is the slowest, in bytes per second, that a request
	// body may arrive, measured over each 10 s after the first; zero
	// means httpapi.DefaultMinBodyRate.
	MinBodyRate int
	// MaxResponseRows is the most rows one answer of a result query or a
	// model list holds (MAX_RESPONSE_ROWS); zero means
	// httpapi.DefaultMaxResponseRows.
	MaxResponseRows int64
	// HideWorkspaceLabels (METRICS_WORKSPACE_LABELS=false) replaces every
	// workspace name in the metrics' workspace label by
	// httpapi.HiddenWorkspace, for a /metrics that anyone may read; the
	// zero value keeps the names.
	HideWorkspaceLabels bool
	// MaxJobBytes caps what a job file may expand to, uncompressed, and
	// the size of an uploaded template; zero means
	// jobfile.DefaultMaxJobBytes (1 GiB).
	MaxJobBytes int64
	// Limits are every workspace's limits unless an administrator sets
	// its own (gusset-admin workspace limits): model.DefaultLimits, each
	// replaced by its variable (model.LimitDefs: MAX_NODES, MAX_MEMBERS,
	// MAX_PLATES, MAX_LOAD_CASES, MAX_STEP_CASES, MAX_RESULT_BYTES,
	// MAX_JOB_BYTES) when set. The zero value (a Config not read by
	// FromEnv) sets no limit.
	Limits model.Limits
	// JobfileKeys sign the job files the API saves and verify the files it
	// opens (JOBFILE_KEYS): only a file signed with one of them opens with
	// its results. Every API replica needs the same keys.
	JobfileKeys jobfile.Keys
	// KeepJobfileKeys, when JobfileKeys is empty, keeps the keys in the
	// jobs directory (jobfile.KeyFileName), making one on first start: the
	// standalone's default, so that its saved files reopen with their
	// results with nothing to configure. Without it and without keys the
	// API signs nothing and opens every file without its results.
	KeepJobfileKeys bool
	// RecoveryDelay coalesces recovery-file writes.
	RecoveryDelay time.Duration
	// LogLevel is debug, info, warn or error.
	LogLevel slog.Level
	// MetricsAddr is where a worker serves /metrics and /healthz
	// (host:port); empty serves nothing. The api and the standalone serve
	// /metrics on their HTTP port.
	MetricsAddr string
	// AnalysisMaxRetry is how many times the API lets a run whose worker
	// was lost go to another worker; nil means queue.MaxRetry.
	AnalysisMaxRetry *int
	// WorkerMemory is the memory, in bytes, a worker's analyses may take
	// at once (WORKER_MEMORY): a run whose estimate does not fit fails
	// before its numeric phase. Zero means the process's memory limit
	// (cgroup, else RAM) less a headroom (workerBudget).
	WorkerMemory int64
	// AllowedOrigins are the browser origins besides the API's own whose
	// pages may send mutating requests (ALLOWED_ORIGINS).
	AllowedOrigins []string
	// AllowedHosts are the Host names the API serves besides loopback ones;
	// "*" serves any (ALLOWED_HOSTS).
	AllowedHosts []string
	// Kinds are the analysis kinds the API serves and the worker runs;
	// nil means kinds.StandardKinds(). An API and the workers it
	// queues for must run the same kinds.
	Kinds *analysis.Registry
}

// FromEnv reads REDIS_URL, PORT (default 8080), HOST (default
// 127.0.0.1), AUTH_MODE (open or keys; default open), JOBS_DIR (default ./data/jobs), MAX_BODY_BYTES,
// BODY_MEMORY (default httpapi.DefaultBodyMemory, at least the body limit),
// BODY_MEMORY_PER_CLIENT (default half of BODY_MEMORY, at least the body
// limit), BODY_MIN_RATE (bytes/s, default httpapi.DefaultMinBodyRate),
// METRICS_WORKSPACE_LABELS (true or false, default true), MAX_RESPONSE_ROWS
// (rows of one result query answer or model list, default
// httpapi.DefaultMaxResponseRows),
// MAX_JOB_BYTES and the other limits of model.LimitDefs (see Limits),
// JOBFILE_KEYS (hex keys
// separated by commas; default none), RECOVERY_DELAY_MS (default 500), LOG_LEVEL (default info),
// METRICS_ADDR (worker metrics; default none), ANALYSIS_MAX_RETRY
// (default queue.MaxRetry), WORKER_MEMORY (bytes the analyses of a worker
// or standalone may take at once; default the cgroup's memory limit, v2
// memory.max or v1 memory.limit_in_bytes, else the machine's RAM, less an
// eighth of it and at least 256 MiB: see workerBudget), ALLOWED_ORIGINS (comma-separated browser
// origins allowed to write; default none but the API's own) and
// ALLOWED_HOSTS (comma-separated Host names served besides loopback ones,
// * for any; default none).
func FromEnv() (Config, error) {
	c := Config{
		RedisURL:      os.Getenv("REDIS_URL"),
		Port:          envOr("PORT", "8080"),
		Host:          envOr("HOST", "127.0.0.1"),
		AuthMode:      envOr("AUTH_MODE", AuthOpen),
		JobsDir:       envOr("JOBS_DIR", "./data/jobs"),
		MetricsAddr:   os.Getenv("METRICS_ADDR"),
		RecoveryDelay: 500 * time.Millisecond,
	}
	if v := os.Getenv("MAX_BODY_BYTES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("MAX_BODY_BYTES must be a positive integer, got %q", v)
		}
		c.BodyLimit = n
	}
	if v := os.Getenv("BODY_MEMORY"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("BODY_MEMORY must be a positive integer (bytes), got %q", v)
		}
		limit := int64(c.BodyLimit)
		if limit == 0 {
			limit = httpapi.DefaultBodyLimit
		}
		if n < limit {
			return c, fmt.Errorf("BODY_MEMORY (%d bytes) must be at least the body limit MAX_BODY_BYTES (%d bytes), "+
				"so that the largest body fits", n, limit)
		}
		c.BodyMemory = n
	}
	if v := os.Getenv("BODY_MEMORY_PER_CLIENT"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("BODY_MEMORY_PER_CLIENT must be a positive integer (bytes), got %q", v)
		}
		limit, budget := int64(c.BodyLimit), c.BodyMemory
		if limit == 0 {
			limit = httpapi.DefaultBodyLimit
		}
		if budget == 0 {
			budget = max(httpapi.DefaultBodyMemory, limit)
		}
		if n < limit || n > budget {
			return c, fmt.Errorf("BODY_MEMORY_PER_CLIENT (%d bytes) must be at least the body limit MAX_BODY_BYTES (%d bytes), "+
				"so that the largest body fits, and at most BODY_MEMORY (%d bytes)", n, limit, budget)
		}
		c.BodyMemoryPerClient = n
	}
	if v := os.Getenv("BODY_MIN_RATE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("BODY_MIN_RATE must be a positive integer (bytes per second), got %q", v)
		}
		c.MinBodyRate = n
	}
	if v := os.Getenv("MAX_RESPONSE_ROWS"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("MAX_RESPONSE_ROWS must be a positive integer (rows), got %q", v)
		}
		c.MaxResponseRows = n
	}
	if v := os.Getenv("METRICS_WORKSPACE_LABELS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("METRICS_WORKSPACE_LABELS must be true or false, got %q", v)
		}
		c.HideWorkspaceLabels = !b
	}
	c.Limits = model.DefaultLimits()
	for _, d := range model.LimitDefs {
		v := os.Getenv(d.Setting)
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("%s must be a positive integer (%s), got %q", d.Setting, d.Noun, v)
		}
		*d.Field(&c.Limits) = n
	}
	c.MaxJobBytes = c.Limits.JobFileBytes
	keys, err := jobfile.ParseKeys(os.Getenv(jobfile.KeysSetting))
	if err != nil {
		return c, err
	}
	c.JobfileKeys = keys
	if v := os.Getenv("RECOVERY_DELAY_MS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("RECOVERY_DELAY_MS must be a non-negative integer, got %q", v)
		}
		c.RecoveryDelay = time.Duration(n) * time.Millisecond
	}
	if v := os.Getenv("ANALYSIS_MAX_RETRY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("ANALYSIS_MAX_RETRY must be a non-negative integer, got %q", v)
		}
		c.AnalysisMaxRetry = &n
	}
	if c.WorkerMemory, err = parseWorkerMemory(os.Getenv(WorkerMemorySetting)); err != nil {
		return c, err
	}
	if c.AllowedOrigins, err = httpapi.ParseAllowedOrigins(os.Getenv("ALLOWED_ORIGINS")); err != nil {
		return c, err
	}
	if c.AllowedHosts, err = httpapi.ParseAllowedHosts(os.Getenv("ALLOWED_HOSTS")); err != nil {
		return c, err
	}
	if c.AuthMode != AuthOpen && c.AuthMode != AuthKeys {
		return c, fmt.Errorf("AUTH_MODE must be %s or %s, got %q", AuthOpen, AuthKeys, c.AuthMode)
	}
	if p, err := strconv.Atoi(c.Port); err != nil || p < 0 || p > 65535 {
		return c, fmt.Errorf("PORT must be a port number, got %q", c.Port)
	}
	if err := c.LogLevel.UnmarshalText([]byte(strings.ToUpper(envOr("LOG_LEVEL", "info")))); err != nil {
		return c, fmt.Errorf("LOG_LEVEL: %w", err)
	}
	return c, nil
}

// The authentication modes of AUTH_MODE.
const (
	// AuthOpen needs no credentials; every request works in the one
	// workspace "default", whose jobs directory is JOBS_DIR itself.
	AuthOpen = "open"
	// AuthKeys needs an API key on every request but the probes and
	// /metrics; each key opens its workspace, whose jobs directory is
	// JOBS_DIR/<workspace>/.
	AuthKeys = "keys"
)

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Logger returns the structured logger of the process.
func (c Config) Logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: c.LogLevel}))
}

// Main runs one process: it reads the configuration, starts run with a
// context that ends on SIGINT or SIGTERM, and exits non-zero on failure.
// needRedis makes REDIS_URL mandatory (the api and worker binaries).
func Main(name string, needRedis bool, run func(ctx context.Context, cfg Config, log *slog.Logger) error) {
	cfg, err := FromEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
	if needRedis && cfg.RedisURL == "" {
		fmt.Fprintf(os.Stderr, "%s: REDIS_URL is required (e.g. redis://localhost:6379/0)\n", name)
		os.Exit(2)
	}
	log := cfg.Logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log); err != nil {
		log.Error("stopped", "err", err)
		stop()
		os.Exit(1)
	}
}
