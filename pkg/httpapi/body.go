package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
)

// jsonMediaType reports whether a Content-Type is one the JSON endpoints
// accept: application/json, text/json or application/*+json.
func jsonMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || mt == "text/json" ||
		(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// bodyPresent reports whether the request carries a non-blank body.
func bodyPresent(c *fiber.Ctx) bool {
	return len(trimJSONSpace(c.Body())) > 0
}

// checkRequest applies the field definitions (struct tags) of a request
// type that decodeJSON decoded whole, the rules a record's fields meet at
// the edge: a required field must be given (a blank string is not given;
// the message explains the field with its doc tag), an enum value is
// taken in any case as the merge of records takes it, an empty enum field
// takes its default, and every field meets its enum and bounds
// (model.CheckFields).
func checkRequest(v any) error {
	rv := reflect.ValueOf(v).Elem()
	var errs []model.FieldError
	for _, f := range infoOf(rv.Type()).fields {
		fv := rv.Field(f.Index)
		if f.Required && (fv.IsZero() || fv.Kind() == reflect.String && strings.TrimSpace(fv.String()) == "") {
			msg := f.Name + " is required"
			if d := f.Doc; d != "" {
				msg += ": " + d
			}
			errs = append(errs, model.FieldError{Field: f.Name, Message: msg})
		}
		if f.Enum != nil && fv.Kind() == reflect.String {
			if c, ok := f.Canonical(fv.String()); ok {
				fv.SetString(c)
			}
		}
	}
	applyEnumDefaults(rv)
	errs = append(errs, model.CheckFields(v)...)
	return model.FieldsError(errs)
}

// decodeJSON decodes the request body into dst strictly: unknown
// properties, wrong types and trailing data are errors that name the
// problem. With required false a missing body leaves dst as it is.
func decodeJSON(c *fiber.Ctx, dst any, required bool) error {
	body := trimJSONSpace(c.Body())
	if len(body) == 0 || bytes.Equal(body, []byte("null")) {
		if required {
			return model.E(model.KindValidation, "a JSON request body is required")
		}
		return nil
	}
	if ct := c.Get(fiber.HeaderContentType); !jsonMediaType(ct) {
		if ct == "" {
			ct = "none"
		}
		return model.E(model.KindUnsupportedMedia,
			"Content-Type %s is not accepted: send application/json, text/json or application/*+json", ct)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return model.E(model.KindMalformed, "the request body has data after the JSON value")
	}
	return nil
}

// jsonError explains a decoding failure in terms of the request.
func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &model.Error{Kind: model.KindMalformed, Msg: fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn), Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &model.Error{Kind: model.KindMalformed, Msg: "malformed JSON: the body ends too early", Err: err}
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "(body)"
		}
		msg := fmt.Sprintf("%s: expected %s, got JSON %s", field, jsonTypeName(typ.Type.Kind().String()), typ.Value)
		return &model.Error{Kind: model.KindValidation, Msg: msg, Err: err,
			Fields: []model.FieldError{{Field: field, Message: msg}}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		msg := fmt.Sprintf("unknown property %q", name)
		return &model.Error{Kind: model.KindValidation, Msg: msg, Err: err,
			Fields: []model.FieldError{{Field: name, Message: "unknown property"}}}
	}
	return &model.Error{Kind: model.KindMalformed, Msg: "malformed JSON: " + err.Error(), Err: err}
}

func jsonTypeName(goKind string) string {
	switch goKind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return goKind
}

// queryBool reads a boolean query parameter; a value that is not a boolean
// is a validation error naming the parameter.
func queryBool(c *fiber.Ctx, name string) (bool, error) {
	v := c.Query(name)
	switch strings.ToLower(v) {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, model.Invalid(name, "query parameter %s must be true or false, got %q", name, v)
}

// trimJSONSpace trims the whitespace JSON allows around a value (space,
// tab, CR, LF) and nothing else: bytes.TrimSpace also strips \v, \f and
// Unicode spaces, which would let a body JSON refuses through.
func trimJSONSpace(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }
