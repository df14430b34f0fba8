package httpapi_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
)

// openAPIDoc is the part of the document these tests read.
type openAPIDoc struct {
	Paths map[string]map[string]struct {
		RequestBody *struct {
			Content map[string]struct {
				Schema  map[string]any  `json:"schema"`
				Example json.RawMessage `json:"example"`
			} `json:"content"`
		} `json:"requestBody"`
	} `json:"paths"`
	Components struct {
		Schemas map[string]map[string]any `json:"schemas"`
	} `json:"components"`
}

func readOpenAPI(t *testing.T, e *env) openAPIDoc {
	t.Helper()
	var doc openAPIDoc
	e.must(200, "GET", "/openapi.json", nil).decode(t, &doc)
	return doc
}

// The document's field rules come from the definitions the validator uses:
// each expected value below is a struct tag of pkg/model (Node, Member,
// NodeRestraint) or a metadata answer of the same service.
func TestOpenAPIFieldRules(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	doc := readOpenAPI(t, e)
	prop := func(t *testing.T, schema, field string) map[string]any {
		t.Helper()
		props, _ := doc.Components.Schemas[schema]["properties"].(map[string]any)
		p, _ := props[field].(map[string]any)
		if p == nil {
			t.Fatalf("schema %s has no property %s: %v", schema, field, doc.Components.Schemas[schema])
		}
		return p
	}
	t.Run("required on create, not on update", func(t *testing.T) {
		if got := doc.Components.Schemas["Node"]["required"]; !sameJSON(got, []string{"x", "y", "z"}) {
			t.Errorf("Node.required = %v, want [x y z]", got)
		}
		if got, ok := doc.Components.Schemas["NodeUpdate"]["required"]; ok {
			t.Errorf("NodeUpdate.required = %v, want none", got)
		}
		body := doc.Paths["/api/v1/job/structure/nodes/{id}"]["patch"].RequestBody.Content["application/json"].Schema
		if body["$ref"] != "#/components/schemas/NodeUpdate" {
			t.Errorf("PATCH nodes/{id} body = %v, want NodeUpdate", body)
		}
	})
	t.Run("readOnly", func(t *testing.T) {
		if prop(t, "Node", "hasRestraint")["readOnly"] != true || prop(t, "Node", "x")["readOnly"] != nil {
			t.Errorf("Node.hasRestraint should be readOnly and Node.x not: %v, %v", prop(t, "Node", "hasRestraint"), prop(t, "Node", "x"))
		}
	})
	t.Run("units", func(t *testing.T) {
		// A new job's units (model.DefaultUnits): force kN, length m,
		// moment kNm.
		for _, c := range []struct{ schema, field, want string }{
			{"Node", "x", "length units (m in a new job"},
			{"NodeRestraint", "txStiffness", "force/length units (kN/m in a new job"},
			{"NodeRestraint", "rxStiffness", "moment units (kNm in a new job"},
		} {
			if d, _ := prop(t, c.schema, c.field)["description"].(string); !strings.Contains(d, c.want) {
				t.Errorf("%s.%s description %q lacks %q", c.schema, c.field, d, c.want)
			}
		}
	})
	t.Run("enum equals the metadata's allowed values", func(t *testing.T) {
		var md struct {
			Fields []struct {
				JSONName      string `json:"jsonName"`
				AllowedValues []struct {
					Value string `json:"value"`
				} `json:"allowedValues"`
			} `json:"fields"`
		}
		e.must(200, "GET", "/job/structure/node-restraints/metadata", nil).decode(t, &md)
		checked := 0
		for _, f := range md.Fields {
			if len(f.AllowedValues) == 0 {
				continue
			}
			var want []string
			for _, v := range f.AllowedValues {
				want = append(want, v.Value)
			}
			if got := prop(t, "NodeRestraint", f.JSONName)["enum"]; !sameJSON(got, want) {
				t.Errorf("NodeRestraint.%s enum = %v, metadata lists %v", f.JSONName, got, want)
			}
			checked++
		}
		if checked < 6 {
			t.Errorf("only %d enum fields compared", checked)
		}
	})
	t.Run("bounds", func(t *testing.T) {
		p := prop(t, "NodeRestraint", "txStiffness")
		if p["minimum"] != 0.0 || p["exclusiveMinimum"] != nil {
			t.Errorf("txStiffness bounds %v, want minimum 0 inclusive (tag min:\"0\")", p)
		}
		p = prop(t, "Section", "a")
		if p["minimum"] != 0.0 || p["exclusiveMinimum"] != true {
			t.Errorf("Section.a bounds %v, want minimum 0 exclusive (tags min:\"0\" exclusive:\"true\")", p)
		}
	})
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// pathValues are the path parameters that are not ids.
var pathValues = map[string]string{"{direction}": "Tx"}

// exampleSetup puts the sample in the state an operation needs first.
var exampleSetup = map[string]func(e *env){
	// A variable table is given in a direction the code marks V.
	"PUT /api/v1/job/structure/node-restraints/{node}/table/{direction}": func(e *env) {
		e.must(200, "PATCH", "/job/structure/node-restraints/1", map[string]any{"restraintCode": "VFFFFF"})
	},
}

// Every body example in the document passes the validator of its route:
// sent to the service with the portal-frame sample open, none is refused
// as malformed or invalid. A refusal about the job's rows (a 404, a 409, a
// 400 naming a row that does not exist) is about the sample, not the
// example's shape, and is allowed.
func TestOpenAPIExamplesPassTheirRoutes(t *testing.T) {
	e := newEnv(t, envOptions{})
	doc := readOpenAPI(t, e)
	var ops []string
	for p, methods := range doc.Paths {
		for m, op := range methods {
			if op.RequestBody == nil {
				continue
			}
			if _, ok := op.RequestBody.Content["application/json"]; ok {
				ops = append(ops, strings.ToUpper(m)+" "+p)
			}
		}
	}
	sort.Strings(ops)
	if len(ops) < 40 {
		t.Fatalf("only %d operations take a JSON body", len(ops))
	}
	for _, op := range ops {
		method, p, _ := strings.Cut(op, " ")
		t.Run(op, func(t *testing.T) {
			media := doc.Paths[p][strings.ToLower(method)].RequestBody.Content["application/json"]
			if len(media.Example) == 0 {
				t.Fatalf("no example")
			}
			e.must(200, "POST", "/job/close", nil)
			e.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "portal frame"})
			if setup := exampleSetup[op]; setup != nil {
				setup(e)
			}
			path := strings.TrimPrefix(pathParam.ReplaceAllStringFunc(p, func(s string) string {
				if v, ok := pathValues[s]; ok {
					return v
				}
				return "1"
			}), "/api/v1")
			r := e.raw(method, path, "application/json", media.Example)
			// The sample has no plates and no load categories: an example
			// naming one is refused for the job's rows, not its shape.
			if r.status == http.StatusBadRequest && allAbout(r.errBody(t), " does not exist") {
				return
			}
			if r.status == http.StatusBadRequest || r.status == http.StatusUnsupportedMediaType || r.status >= 500 {
				t.Errorf("example %s answered %d: %s", media.Example, r.status, r.body)
			}
		})
	}
}

// The document passes Redocly's recommended rules without an error. The
// linter is an npm package installed by `make lint-openapi-deps` (CI does);
// without it the test skips unless GUSSET_REQUIRE_REDOCLY is set.
func TestOpenAPIPassesRedoclyLint(t *testing.T) {
	bin, err := filepath.Abs("testdata/redocly/node_modules/.bin/redocly")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("GUSSET_REQUIRE_REDOCLY") != "" {
			t.Fatalf("redocly is not installed (%v): run make lint-openapi-deps", err)
		}
		t.Skip("redocly is not installed: run make lint-openapi-deps")
	}
	e := newEnv(t, envOptions{})
	// Both documents: the contract's names and the SDK's, which is
	// generated from the same routes.
	for _, doc := range []struct{ name, url string }{
		{"api v1", e.base + "/openapi.json"},
		{"sdk names", strings.TrimSuffix(e.base, "/api/v1") + "/api/sg/v1/openapi.json"},
	} {
		t.Run(doc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "openapi.json")
			r := e.raw("GET", doc.url, "", nil)
			if r.status != 200 {
				t.Fatalf("GET %s = %d: %s", doc.url, r.status, r.body)
			}
			if err := os.WriteFile(file, r.body, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "lint", "--format=stylish", file)
			cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("redocly lint of %s failed (%v):\n%s", doc.url, err, out)
			}
			t.Logf("redocly lint:\n%s", out)
		})
	}
}

// The docs page renders descriptions as Markdown, where "<key>" would be
// taken for an HTML tag and vanish ("X-API-Key: ," on the page): a
// placeholder in angle brackets must sit in a code span. Tags need a
// description for the page's groups.
func TestOpenAPIDescriptionsRenderAsMarkdown(t *testing.T) {
	e := newEnv(t, envOptions{})
	var doc any
	e.must(200, "GET", "/openapi.json", nil).decode(t, &doc)
	tagLike := regexp.MustCompile(`<[A-Za-z/!]`)
	n := 0
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "description" {
					n++
					// Code spans are the odd-numbered pieces between backticks.
					for i, piece := range strings.Split(s, "`") {
						if i%2 == 0 && tagLike.MatchString(piece) {
							t.Errorf("%s: description has an HTML-like %q outside a code span: %q", at, tagLike.FindString(piece), s)
						}
					}
					continue
				}
				walk(x, at+"/"+k)
			}
		case []any:
			for _, x := range v {
				walk(x, at)
			}
		}
	}
	walk(doc, "")
	if n < 100 {
		t.Errorf("only %d descriptions walked", n)
	}
	for _, tag := range doc.(map[string]any)["tags"].([]any) {
		if d, _ := tag.(map[string]any)["description"].(string); d == "" {
			t.Errorf("tag %v has no description", tag)
		}
	}
}

// allAbout reports whether every field error of e says what.
func allAbout(e httpapi.ErrorResponse, what string) bool {
	for _, f := range e.Errors {
		if !strings.Contains(f.Message, what) {
			return false
		}
	}
	return len(e.Errors) > 0
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
