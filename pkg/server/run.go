package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// Connect opens a Redis client for url and checks that it answers.
func Connect(ctx context.Context, url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	rdb := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, fmt.Errorf("connect to redis at %s: %w", opt.Addr, err)
	}
	return rdb, nil
}

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

// ServeAPI serves the HTTP interface on cfg's port until ctx ends. ready,
// when not nil, receives the base URL once the listener is up.
func ServeAPI(ctx context.Context, cfg Config, rdb redis.UniversalClient, log *slog.Logger, ready func(baseURL string)) error {
	dir, err := jobfile.OpenDir(cfg.JobsDir)
	if err != nil {
		return err
	}
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	mod := redisstore.NewModel(rdb)
	ed := editor.New(mod, jobs)
	sess := session.New(jobs, dir, session.Options{Generator: "gusset " + httpapi.Version,
		RecoveryDelay: cfg.RecoveryDelay, Log: log, CheckModel: ed.CheckSnapshot})
	ed.Touched = sess.Touched
	st := editor.NewStructure(ed)
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	api := httpapi.New(httpapi.Config{Session: sess, Model: mod, Structure: st, Loads: editor.NewLoads(ed, st),
		Ready: jobs.Ping, Registry: reg, Log: log, BodyLimit: cfg.BodyLimit})

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
	log.Info("api listening", "baseURL", base, "jobsDir", dir.Root())
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

// RunWorker serves analysis tasks on rdb until ctx ends.
func RunWorker(ctx context.Context, rdb redis.UniversalClient, log *slog.Logger) error {
	log.Info("worker started", "queue", queue.QueueAnalysis)
	return queue.NewWorker(rdb, log).Run(ctx)
}

// RunStandalone runs the API and one worker in this process, over cfg's
// Redis or, when REDIS_URL is empty, over an embedded Redis.
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	werr := make(chan error, 1)
	go func() { werr <- RunWorker(ctx, rdb, log) }()
	err = ServeAPI(ctx, cfg, rdb, log, ready)
	cancel()
	return errors.Join(err, <-werr)
}
