package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// ErrorResponse is the body of every error (as the interface names it).
type ErrorResponse struct {
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail"`
	Instance  string       `json:"instance"`
	ErrorCode string       `json:"errorCode"`
	Source    string       `json:"source"`
	Errors    []ErrorEntry `json:"errors"`
	Timestamp time.Time    `json:"timestamp"`
}

// ErrorEntry is one problem in an ErrorResponse, usually about one field.
type ErrorEntry struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

// errorClass is what a kind of error looks like on the wire.
type errorClass struct {
	status int
	code   string
	source string
}

// kindTable is the one place that maps error kinds to HTTP. model.Kind is
// append-only, and so is this table.
var kindTable = map[model.Kind]errorClass{
	model.KindInternal:           {http.StatusInternalServerError, "INTERNAL_ERROR", "Unknown"},
	model.KindValidation:         {http.StatusBadRequest, "VALIDATION_FAILED", "Validation"},
	model.KindNotFound:           {http.StatusNotFound, "NOT_FOUND", "Api"},
	model.KindDuplicate:          {http.StatusConflict, "DUPLICATE_ENTITY", "Api"},
	model.KindNoJobOpen:          {http.StatusConflict, "NO_JOB_OPEN", "Api"},
	model.KindJobAlreadyOpen:     {http.StatusConflict, "JOB_ALREADY_OPEN", "Api"},
	model.KindConflict:           {http.StatusConflict, "CONFLICT", "Api"},
	model.KindAnalysisInProgress: {http.StatusConflict, "ANALYSIS_IN_PROGRESS", "Api"},
	model.KindUnauthorized:       {http.StatusUnauthorized, "UNAUTHORIZED", "Api"},
	model.KindMalformed:          {http.StatusBadRequest, "MALFORMED_REQUEST", "Validation"},
	model.KindUnsupportedMedia:   {http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", "Validation"},
	model.KindTooLarge:           {http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", "Validation"},
	model.KindMethodNotAllowed:   {http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "Api"},
	model.KindUnavailable:        {http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "Infrastructure"},
	model.KindNotImplemented:     {http.StatusNotImplemented, "NOT_IMPLEMENTED", "Api"},
	model.KindForbidden:          {http.StatusForbidden, "FORBIDDEN", "Api"},
	// A limit is a refusal whoever asks, like FORBIDDEN, but one the
	// client can act on (page, split the model, ask for a larger limit),
	// so it has its own code.
	model.KindLimitExceeded: {http.StatusForbidden, "LIMIT_EXCEEDED", "Api"},
	model.KindStorageFull:   {http.StatusServiceUnavailable, "STORAGE_FULL", "Infrastructure"},
}

// routeHints name the routes that mend errors of a kind: the domain's
// messages say what to do, the edge says where.
var routeHints = map[model.Kind]string{
	model.KindNoJobOpen:      " (POST " + apiPrefix + "/job/new or POST " + apiPrefix + "/job/open)",
	model.KindJobAlreadyOpen: " (POST " + apiPrefix + "/job/close)",
	model.KindStorageFull:    " (POST " + apiPrefix + "/job/close, DELETE " + apiPrefix + "/job/data?force=true or a DELETE of rows)",
}

// internalMessage is all a client learns about an unexpected failure.
const internalMessage = "internal error"

// fromFiber turns the framework's own errors (unknown route, wrong method,
// body too large) into model errors with a message a person can act on.
func fromFiber(c *fiber.Ctx, fe *fiber.Error) *model.Error {
	switch fe.Code {
	case fiber.StatusNotFound:
		return model.E(model.KindNotFound, "no such endpoint: %s %s (see GET /api/v1/openapi.json)", c.Method(), loggedPath(c))
	case fiber.StatusMethodNotAllowed:
		return model.E(model.KindMethodNotAllowed, "%s is not allowed on %s (see GET /api/v1/openapi.json)", c.Method(), loggedPath(c))
	case fiber.StatusRequestEntityTooLarge:
		return model.E(model.KindTooLarge, "the request body is larger than the limit of %d bytes", c.App().Config().BodyLimit)
	case fiber.StatusUnsupportedMediaType:
		return model.E(model.KindUnsupportedMedia, "%s", fe.Message)
	case fiber.StatusRequestHeaderFieldsTooLarge:
		return model.E(model.KindMalformed, "the request line and headers are longer than %d bytes: shorten the URL "+
			"(write id lists as ranges, e.g. members=1-10000)", c.App().Config().ReadBufferSize)
	}
	if fe.Code >= 400 && fe.Code < 500 {
		return model.E(model.KindMalformed, "%s", fe.Message)
	}
	return &model.Error{Kind: model.KindInternal, Err: fe}
}

// buildError turns any error into its response. Unknown errors become a
// 500 that says only "internal error"; the cause is logged, never sent.
func buildError(c *fiber.Ctx, err error, log *slog.Logger) ErrorResponse {
	var me *model.Error
	var fe *fiber.Error
	switch {
	case errors.As(err, &me):
	case errors.As(err, &fe):
		me = fromFiber(c, fe)
	default:
		me = &model.Error{Kind: model.KindInternal, Err: err}
	}
	cls, ok := kindTable[me.Kind]
	if !ok {
		cls = kindTable[model.KindInternal]
	}
	msg := me.Msg
	if cls.status >= 500 {
		log.Error("request failed", "method", c.Method(), "path", loggedPath(c), "status", cls.status, "err", err)
		if me.Kind == model.KindInternal || msg == "" {
			msg = internalMessage
		}
	}
	msg += routeHints[me.Kind]
	resp := ErrorResponse{Title: http.StatusText(cls.status), Status: cls.status, Detail: msg,
		Instance: redactURL(c.OriginalURL()), ErrorCode: cls.code, Source: cls.source, Timestamp: time.Now().UTC()}
	for _, f := range me.Fields {
		resp.Errors = append(resp.Errors, ErrorEntry{Field: f.Field, Message: f.Message, Code: cls.code})
	}
	if len(resp.Errors) == 0 {
		resp.Errors = []ErrorEntry{{Message: msg, Code: cls.code}}
	}
	return resp
}

// writeError sends the ErrorResponse for err and records it in the open
// job's error log when the request was about the job.
func (a *API) writeError(c *fiber.Ctx, err error) {
	a.setSecurityHeaders(c, false)
	resp := buildError(c, err, a.log)
	if onSGPath(c) {
		sgError(c, &resp)
	}
	c.Status(resp.Status)
	if jerr := c.JSON(resp); jerr != nil {
		a.log.Error("write error response", "err", jerr)
	}
	// A request that was not authenticated has no workspace whose log it
	// could write to.
	_, authed := c.Locals(localWorkspace).(string)
	if authed && strings.HasPrefix(c.Path(), apiPrefix+"/job") && resp.ErrorCode != "NO_JOB_OPEN" {
		rec := store.ErrorRecord{Timestamp: resp.Timestamp, Status: resp.Status, ErrorCode: resp.ErrorCode,
			Message: resp.Detail, Method: c.Method(), Path: loggedPath(c)}
		if lerr := a.sess.LogError(c.UserContext(), workspace(c), rec); lerr != nil {
			a.log.Warn("record job error", "err", lerr)
		}
	}
}
