package httpapi

import (
	"net/http"
	"reflect"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/session"
)

func (a *API) registerRoutes() {
	a.registerServiceRoutes()
	a.registerPageRoutes()
	a.registerFileRoutes()
	a.registerJobRoutes()
	a.registerTextRoutes()
	a.registerAnalysisSettingsRoutes()
	if a.structure != nil {
		a.registerStructureRoutes()
		a.registerGeometryRoutes()
	}
	if a.loads != nil {
		a.registerLoadRoutes()
	}
	if a.analysis != nil && a.query != nil {
		a.registerAnalysisRoutes()
		a.registerResultRoutes()
	}
}

func (a *API) registerServiceRoutes() {
	const tag = "Service"
	a.add(route{method: "GET", path: "/service/info", tag: tag, summary: "Describe the service",
		responses: map[int]any{200: ServiceInfo{}}, handler: func(c *fiber.Ctx) error {
			return c.JSON(ServiceInfo{APIPath: basePath(c), Version: Version})
		}})
	a.add(route{method: "GET", path: "/openapi.json", tag: tag, summary: "This OpenAPI document",
		responses: map[int]any{200: map[string]any{}}, handler: a.serveOpenAPI})
	a.add(route{method: "GET", path: "/healthz", root: true, tag: tag, summary: "Liveness: the process is up",
		responses: map[int]any{200: Health{}}, handler: func(c *fiber.Ctx) error {
			return c.JSON(Health{Status: "ok"})
		}})
	a.add(route{method: "GET", path: "/readyz", root: true, tag: tag, summary: "Readiness: Redis answers",
		desc: "503 when Redis does not answer. storage says how full Redis is: while storage.full is true (less than 64 KiB " +
			"left below its maxmemory) writes answer 503 STORAGE_FULL, and closing or clearing a job or deleting rows frees " +
			"storage. /readyz stays 200 then: every replica shares the one Redis, so a 503 would take them all out of a load " +
			"balancer and leave nobody a way to free storage. Alert on storage.full or the gusset_redis_storage_full gauge.",
		responses: map[int]any{200: Health{}, 503: Health{}}, handler: a.readyz})
	a.add(route{method: "GET", path: "/metrics", root: true, tag: tag, summary: "Prometheus metrics",
		desc:      "gusset_http_requests_total by method, route template, status and workspace; gusset_http_request_duration_seconds by method, route template and status; the queue, worker and Redis gauges; Go runtime metrics. Needs no API key (AUTH_MODE=keys): keep it off public networks, it names workspaces.",
		responses: map[int]any{200: nil}, rawResponse: "text/plain",
		handler: adaptor.HTTPHandler(promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{}))})
}

// On the SDK's base path it answers the SDK-named document, whose names
// are written already.
func (a *API) serveOpenAPI(c *fiber.Ctx) error {
	if onSGPath(c) {
		c.Locals(localSGNative, true)
		return serveDocument(c, a.sgOpenAPIJSON)
	}
	return serveDocument(c, a.openAPIJSON)
}

// serveDocument answers the OpenAPI document doc builds.
func serveDocument(c *fiber.Ctx, doc func() ([]byte, error)) error {
	b, err := doc()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(b)
}

func (a *API) readyz(c *fiber.Ctx) error {
	if a.ready != nil {
		if err := a.ready(c.UserContext()); err != nil {
			a.log.Warn("not ready", "err", err)
			return c.Status(http.StatusServiceUnavailable).JSON(Health{Status: "unavailable", Detail: "redis is not reachable"})
		}
	}
	h := Health{Status: "ok"}
	if a.storage != nil {
		st, err := a.storage(c.UserContext())
		switch {
		case err != nil:
			// An embedded Redis reports no memory: nothing to say, and
			// nothing to warn of at every probe.
			a.log.Debug("read storage use", "err", err)
		case st.Full:
			h.Storage = &st
			h.Detail = "the storage is full: writes answer 503 STORAGE_FULL until a workspace closes or clears a job or deletes rows"
		default:
			h.Storage = &st
		}
	}
	return c.JSON(h)
}

func (a *API) registerFileRoutes() {
	const tag = "Files"
	fp := []param{{name: "filePath", typ: "string", required: true, desc: "job file path relative to the jobs directory"}}
	a.add(route{method: "GET", path: "/file/samples", tag: tag, summary: "List the bundled sample job files",
		responses: map[int]any{200: []string{}}, handler: func(c *fiber.Ctx) error {
			return c.JSON(samples.Names())
		}})
	a.add(route{method: "GET", path: "/file/status", tag: tag, summary: "Tell whether a job file can be opened",
		desc:  "status is NotFound, ReadyToOpen, Locked (it is the open job), RecoveryFilesOnly, UnsavedChanges (a newer recovery file exists) or LockedWithUnsavedChanges.",
		query: fp, responses: map[int]any{200: session.FileStatus{}}, errors: []int{http.StatusBadRequest},
		handler: func(c *fiber.Ctx) error {
			st, err := a.sess.FileStatus(c.UserContext(), workspace(c), c.Query("filePath"))
			if err != nil {
				return err
			}
			return c.JSON(st)
		}})
	a.add(route{method: "GET", path: "/file/preview", tag: tag, summary: "Read a job file's headings, size and dates without opening it",
		query: fp, responses: map[int]any{200: jobfile.Preview{}}, errors: []int{http.StatusBadRequest, http.StatusNotFound},
		handler: func(c *fiber.Ctx) error {
			pv, err := a.sess.Preview(workspace(c), c.Query("filePath"))
			if err != nil {
				return err
			}
			return c.JSON(pv)
		}})
}

// fillCounts copies collection counts into a counts struct whose JSON
// names are the collection names.
func fillCounts(dst any, counts map[string]int64) {
	v := reflect.ValueOf(dst).Elem()
	for _, f := range model.DefOf(v.Type()).Fields {
		if n, ok := counts[f.Name]; ok {
			v.Field(f.Index).SetInt(n)
		}
	}
}
