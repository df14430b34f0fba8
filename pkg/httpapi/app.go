// Package httpapi serves the gusset HTTP interface (/api/v1) with Fiber.
//
// It is the edge of the service: it decodes and validates requests, maps
// errors to ErrorResponse bodies through one table (errors.go), converts
// between job units and SI (later resources), and documents every route in
// the OpenAPI document it serves. It holds no state of its own: every
// request reads and writes the store, so any replica can serve any request.
package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/analysis/service"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
)

// apiPrefix is the path prefix of interface version 1.
const apiPrefix = "/api/v1"

// Version is the service version reported by /service/info.
const Version = "0.1.0"

// MaxHeaderBytes bounds the request line and headers of a request; a
// longer one is a 400 that says so.
const MaxHeaderBytes = 16 << 10

// DefaultBodyLimit is the largest request body accepted by default: large
// enough for bulk batches of 10,000 rows and for job file uploads.
const DefaultBodyLimit = 64 << 20

// responseWriteTimeout bounds the writing of one response, and of each
// part of a streamed answer.
const responseWriteTimeout = 2 * time.Minute

// Config holds what the API needs.
type Config struct {
	Session *session.Service
	// Model is the model store; Structure edits it.
	Model     store.Model
	Structure *editor.Structure
	Loads     *editor.Loads
	// Analysis starts, reads and cancels runs; Query reads results. Both
	// nil leave the analysis and result routes out.
	Analysis *service.Service
	Query    *query.Query
	// Kinds are the analysis kinds whose routes the API serves; nil means
	// kinds.StandardKinds(). The worker must run the same kinds.
	Kinds *analysis.Registry
	// Limits gives a workspace's limits, which a run is held to before it
	// is queued (analysis.Admitter); nil holds runs to none.
	Limits func(ctx context.Context, ws string) (model.Limits, error)
	// Ready checks the dependencies for /readyz (Redis reachable).
	Ready func(ctx context.Context) error
	// Storage reports how full the data store is, for /readyz; nil, or
	// an error, leaves it out.
	Storage func(ctx context.Context) (Storage, error)
	// Registry receives the HTTP metrics; nil makes a private one.
	Registry *prometheus.Registry
	Log      *slog.Logger
	// BodyLimit is the request body limit in bytes; zero means DefaultBodyLimit.
	BodyLimit int
	// BodyMemory bounds the request bodies read and handled at once, in
	// bytes, each byte counted BodyWeightFactor times for decoding (see
	// bodygate.go); zero means DefaultBodyMemory, and less than BodyLimit
	// is raised to it so that the largest body fits.
	BodyMemory int64
	// BodyMemoryPerClient is the most of BodyMemory the bodies of one
	// client (a workspace, or the remote address of a request without
	// one) may hold at once; zero means half of BodyMemory. It is at
	// least BodyLimit and at most BodyMemory.
	BodyMemoryPerClient int64
	// MinBodyRate is the slowest a body may arrive, in bytes per second,
	// measured over each HeaderTimeout after the first; zero means
	// DefaultMinBodyRate.
	MinBodyRate int
	// BodyWait is how long a request waits for BodyMemory before it is a
	// 503; zero means DefaultBodyWait.
	BodyWait time.Duration
	// HeaderTimeout bounds the wait for a request's headers, and then for
	// the first bytes of its body; each later HeaderTimeout must bring
	// MinBodyRate bytes a second of the body. Zero means
	// DefaultHeaderTimeout.
	HeaderTimeout time.Duration
	// RequestTimeout bounds the work of one request (of a streamed
	// answer, the work before it starts); zero means 60 s.
	RequestTimeout time.Duration
	// AllowedOrigins are the browser origins (scheme://host[:port], as
	// ParseAllowedOrigins reads them) whose cross-origin mutating requests
	// are accepted besides the request's own origin; empty allows none.
	AllowedOrigins []string
	// Auth maps API keys to workspaces (AUTH_MODE=keys): every request
	// but the health probes and /metrics must carry a key. Nil is open
	// mode: no credentials, one workspace (store.DefaultWorkspace).
	Auth Authenticator
	// AllowedHosts are the Host names accepted besides loopback ones
	// (as ParseAllowedHosts reads them: a name matches any port, a
	// name:port only that port, "*" any Host); empty allows loopback only.
	AllowedHosts []string
	// MaxResponseRows is the most rows one answer of a result query or a
	// model list holds (MAX_RESPONSE_ROWS); a request for more is a 400
	// that says to page. Zero means DefaultMaxResponseRows.
	MaxResponseRows int64
	// HideWorkspaceLabels writes HiddenWorkspace for every workspace in
	// the metrics' workspace labels (METRICS_WORKSPACE_LABELS=false):
	// /metrics answers without a key.
	HideWorkspaceLabels bool
}

// API is the HTTP interface.
type API struct {
	app       *fiber.App
	sess      *session.Service
	model     store.Model
	structure *editor.Structure
	loads     *editor.Loads
	limits    func(context.Context, string) (model.Limits, error)
	analysis  *service.Service
	query     *query.Query
	kinds     *analysis.Registry
	ready     func(ctx context.Context) error
	storage   func(ctx context.Context) (Storage, error)
	log       *slog.Logger
	reg       *prometheus.Registry
	metrics   *httpMetrics
	routes    []route
	// openAPIJSON is the document, built at its first request: the routes
	// are fixed by then, and the page answers without a key, so it must
	// not cost a rebuild per request.
	openAPIJSON func() ([]byte, error)
	// sgOpenAPIJSON is the document of the SDK's names (sgopenapi.go),
	// built at its first request likewise.
	sgOpenAPIJSON func() ([]byte, error)
	timeout       time.Duration
	gate          *bodyGate
	auth          Authenticator
	// pagePolicy is the Content-Security-Policy of the pages.
	pagePolicy     string
	hideWorkspaces bool
	// maxRows is Config.MaxResponseRows.
	maxRows int64
}

// Authenticator maps an API key to the workspace it opens.
type Authenticator interface {
	// Authenticate returns the workspace of key; a key that opens none is
	// a model.KindUnauthorized error.
	Authenticate(ctx context.Context, key string) (workspace string, err error)
}

// New builds the API and registers every route.
func New(cfg Config) *API {
	a := &API{sess: cfg.Session, model: cfg.Model, structure: cfg.Structure, loads: cfg.Loads, analysis: cfg.Analysis, query: cfg.Query, kinds: cfg.Kinds, limits: cfg.Limits, ready: cfg.Ready, storage: cfg.Storage, log: cfg.Log, reg: cfg.Registry,
		timeout: cfg.RequestTimeout, auth: cfg.Auth, hideWorkspaces: cfg.HideWorkspaceLabels, maxRows: cfg.MaxResponseRows}
	if a.maxRows <= 0 {
		a.maxRows = DefaultMaxResponseRows
	}
	a.openAPIJSON = sync.OnceValues(func() ([]byte, error) { return json.Marshal(a.openAPI()) })
	a.sgOpenAPIJSON = sync.OnceValues(func() ([]byte, error) {
		doc, err := a.sgOpenAPI()
		if err != nil {
			return nil, err
		}
		return json.Marshal(doc)
	})
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.kinds == nil {
		a.kinds = kinds.StandardKinds()
	}
	if a.reg == nil {
		a.reg = prometheus.NewRegistry()
	}
	policy, err := pagePolicy()
	if err != nil {
		// The pages are embedded: this is a broken build, and the pages
		// that need their inline scripts show it.
		a.log.Error("page security policy", "err", err)
		policy = apiPolicy
	}
	a.pagePolicy = policy
	if a.timeout == 0 {
		a.timeout = 60 * time.Second
	}
	limit := cfg.BodyLimit
	if limit <= 0 {
		limit = DefaultBodyLimit
	}
	a.metrics = newHTTPMetrics(a.reg)
	a.app = fiber.New(fiber.Config{
		// Fiber reuses request buffers; Immutable copies every string taken
		// from a request so none of them changes under a handler.
		Immutable: true,
		BodyLimit: limit,
		// The request line and headers of one request: room for long id
		// lists in query strings (about 3,000 single ids).
		ReadBufferSize:        MaxHeaderBytes,
		DisableStartupMessage: true,
		// Bodies come as streams for the body gate to read under its
		// memory budget: fasthttp would otherwise allocate the declared
		// Content-Length before a byte of it arrives. Multipart bodies are
		// parsed from what the gate read, not from the connection.
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
		// A slow or stalled client must not hold a connection: headers
		// must arrive within HeaderTimeout, bodies at MinBodyRate in each
		// HeaderTimeout after it (the gate sets those deadlines). The
		// write limit leaves room for large pages on slow links; a
		// streamed answer gets it anew for each part (results_stream.go).
		ReadTimeout:  cfg.headerTimeout(),
		WriteTimeout: responseWriteTimeout,
		IdleTimeout:  2 * time.Minute,
		ErrorHandler: func(c *fiber.Ctx, err error) error {
			a.writeError(c, err)
			return nil
		},
	})
	// The body gate reads bodies before the guard, which may look at one.
	a.gate = newBodyGate(a, cfg, limit)
	a.app.Server().HeaderReceived = a.gate.headerReceived
	// Authentication comes before the body gate: a request without a key
	// gets its 401 before a byte of its body is read.
	// sgEntry moves a request on the SDK's base path onto ours before
	// any of them sees it.
	a.app.Use(sgEntry, a.observe, a.recoverPanic, a.authenticate, a.gate.handle, newGuard(a, cfg).handle)
	a.registerRoutes()
	return a
}

// App is the Fiber application, for serving and for tests.
func (a *API) App() *fiber.App { return a.app }

// observe is the outermost middleware: it turns handler errors into
// responses, then logs the request and records its metrics with the final
// status.
func (a *API) observe(c *fiber.Ctx) error {
	start := time.Now()
	a.setSecurityHeaders(c, isPage(c.Path()))
	ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
	defer cancel()
	c.SetUserContext(ctx)
	if err := c.Next(); err != nil {
		a.writeError(c, err)
	}
	status := c.Response().StatusCode()
	routePath, _ := c.Locals(localRoute).(string)
	if routePath == "" {
		routePath = "unmatched"
	}
	elapsed := time.Since(start)
	// The workspace, never the key, names who made the request.
	ws, _ := c.Locals(localWorkspace).(string)
	a.metrics.observe(c.Method(), routePath, status, a.metricWorkspace(ws), elapsed)
	a.log.Info("request", "method", c.Method(), "path", loggedPath(c), "route", routePath,
		"status", status, "workspace", ws, "ms", float64(elapsed.Microseconds())/1000)
	return nil
}

// recoverPanic turns a panic in a handler into a logged 500 that leaks
// nothing about its cause.
func (a *API) recoverPanic(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("panic in handler", "method", c.Method(), "path", loggedPath(c),
				"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return c.Next()
}

// localWorkspace is the request local that holds the workspace.
const localWorkspace = "workspace"

// localRoute is the request local that holds the matched route's template.
const localRoute = "route"

// httpMetrics are the Prometheus series of the HTTP edge.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gusset_http_requests_total",
			Help: "HTTP requests by method, route template, status and workspace (empty before authentication; " + HiddenWorkspace + " for every workspace with METRICS_WORKSPACE_LABELS=false).",
		}, []string{"method", "route", "status", "workspace"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gusset_http_request_duration_seconds", Help: "HTTP request duration by method, route template and status.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"method", "route", "status"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

func (m *httpMetrics) observe(method, route string, status int, ws string, d time.Duration) {
	s := strconv.Itoa(status)
	m.requests.WithLabelValues(method, route, s, ws).Inc()
	m.duration.WithLabelValues(method, route, s).Observe(d.Seconds())
}
