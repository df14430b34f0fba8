package httpapi

import (
	"regexp"
	"strings"
)

// The SDK names: SPACE GASS's API description of build 14.50.149, and
// the SDKs generated from it, renamed some of what /api/v1 fixes. A
// script generated from that SDK sends and reads those names, so every
// operation is served a second time under sgPrefix in them. This file is
// the one table of those renames: the routing, the translation of
// bodies, query strings and answers, the names errors give, and the
// second OpenAPI document all read it. Names not in it are the same on
// both paths.

// sgPrefix is the base path of the SDK's names.
const sgPrefix = "/api/sg/v1"

// sgBuild is the SDK build whose API description the table follows.
const sgBuild = "14.50.149"

// sgKeys renames JSON object keys, at any depth, of request bodies and
// answers: /api/v1 name → SDK name. No key is renamed one way in one
// operation and kept in another, so one table serves every route: the
// analysis settings keep loadCases (the SDK kept it there too), only
// the query filter of that name is renamed (sgQuery).
var sgKeys = map[string]string{
	// Loads, combination items, result rows and the results info.
	"loadCase": "case",
	// The warnings of a result query.
	"loadCasesNotAnalyzed": "casesNotAnalyzed",
	// Static, buckling and natural-frequency settings and run overrides.
	"retainLoadCases":           "retainCases",
	"checkNonExistentLoadCases": "checkNonExistentCases",
}

// sgQuery renames query parameters: /api/v1 name → SDK name.
var sgQuery = map[string]string{
	// The case filter of load lists, case lists, result queries and the
	// results info.
	"loadCases": "cases",
}

// sgParams renames path parameters in the SDK document and in the
// messages about them: /api/v1 name → SDK name. A path parameter's name
// is not on the wire, so the routes themselves keep the /api/v1 names
// (the handlers read them).
var sgParams = map[string]string{
	"loadCase": "caseId",
}

// sgRoute serves /api/v1 routes under other paths on the SDK's base
// path: the routes whose path is v1, or starts with v1 and a slash
// (their metadata, their tables), are also served at fiber followed by
// the rest of their path, and documented at each of docs followed by
// it. fiber names its parameters as the /api/v1 route does, since the
// handler reads them by name; docs names them as the SDK does.
type sgRoute struct {
	v1, fiber string
	docs      []string
	// replace leaves the route's own path out of the SDK's base path.
	replace bool
}

// sgRoutes are the SDK's paths that differ from ours.
var sgRoutes = []sgRoute{
	// Thermal loads: one path per element type, the type first.
	{v1: "/job/loads/thermal-loads/:loadCase/:elementType/:elementId", fiber: "/job/loads/thermal-loads/:elementType/:loadCase/:elementId",
		docs:    []string{"/job/loads/thermal-loads/member/{caseId}/{memberId}", "/job/loads/thermal-loads/plate/{caseId}/{plateId}"},
		replace: true},
	// A node's restraint and constraint and a member's offsets under the
	// node or member, beside the collections.
	{v1: "/job/structure/node-restraints/:node", fiber: "/job/structure/nodes/:node/restraint",
		docs: []string{"/job/structure/nodes/{id}/restraint"}},
	{v1: "/job/structure/node-constraints/:slaveNode", fiber: "/job/structure/nodes/:slaveNode/constraint",
		docs: []string{"/job/structure/nodes/{id}/constraint"}},
	{v1: "/job/structure/member-offsets/:member", fiber: "/job/structure/members/:member/offsets",
		docs: []string{"/job/structure/members/{id}/offsets"}},
	// Result queries by element, beside the hyphenated paths.
	sgResult("static/node-displacements", "static/node/displacements"),
	sgResult("static/node-reactions", "static/node/reactions"),
	sgResult("static/member-end-forces", "static/member/end-forces"),
	sgResult("static/member-intermediate-forces", "static/member/intermediate-forces"),
	sgResult("static/member-intermediate-displacements", "static/member/intermediate-displacements"),
	sgResult("static/member-stresses", "static/member/stresses"),
	sgResult("static/plate-element-forces", "static/plate/element-forces"),
	sgResult("static/plate-element-stresses", "static/plate/element-stresses"),
	sgResult("static/plate-nodal-forces", "static/plate/nodal-forces"),
	sgResult("buckling/member-effective-lengths", "buckling/member/effective-lengths"),
}

func sgResult(v1, sg string) sgRoute {
	const q = "/job/query/analysis/"
	return sgRoute{v1: q + v1, fiber: q + sg, docs: []string{q + sg}}
}

// sgSuffix reports whether route path p is e.v1 or under it, and what
// follows.
func (e sgRoute) sgSuffix(p string) (string, bool) {
	if p == e.v1 {
		return "", true
	}
	if strings.HasPrefix(p, e.v1+"/") {
		return p[len(e.v1):], true
	}
	return "", false
}

// sgPath is one path a route is served at on the SDK's base path.
type sgPath struct {
	fiber, doc string // relative to sgPrefix
}

// sgPathsOf lists the paths route r is served at on the SDK's base path:
// its own (unless a rename replaces it) and those the table adds.
func sgPathsOf(r route) []sgPath {
	var out []sgPath
	own := true
	for _, e := range sgRoutes {
		rest, ok := e.sgSuffix(r.path)
		if !ok {
			continue
		}
		own = own && !e.replace
		for _, d := range e.docs {
			out = append(out, sgPath{fiber: e.fiber + rest, doc: d + sgDocParams(rest)})
		}
	}
	if own {
		out = append([]sgPath{{fiber: r.path, doc: sgDocParams(r.path)}}, out...)
	}
	return out
}

// sgDocParams writes a Fiber path in the document's form with the SDK's
// parameter names.
func sgDocParams(p string) string {
	parts := strings.Split(openAPIPath(p), "/")
	for i, s := range parts {
		if strings.HasPrefix(s, "{") {
			name := strings.Trim(s, "{}")
			if to, ok := sgParams[name]; ok {
				parts[i] = "{" + to + "}"
			}
		}
	}
	return strings.Join(parts, "/")
}

// sgRefused are the /api/v1 names the SDK renamed: on its base path
// they are unknown, as any other unknown name.
var sgRefused, sgQueryFrom = func() (map[string]bool, map[string]string) {
	refused := map[string]bool{}
	for from := range sgKeys {
		refused[from] = true
	}
	// A name both renamed and the new name of another stays accepted.
	for _, to := range sgKeys {
		delete(refused, to)
	}
	back := map[string]string{}
	for from, to := range sgQuery {
		back[to] = from
	}
	return refused, back
}()

// sgKeysBack renames the SDK's keys to ours, for request bodies.
var sgKeysBack = func() map[string]string {
	back := map[string]string{}
	for from, to := range sgKeys {
		back[to] = from
	}
	return back
}()

// sgWords matches, in a message or a description, the names the table
// renames, as whole words.
var sgKeyWords, sgQueryWords, sgParamWords = wordsOf(sgKeys), wordsOf(sgQuery), wordsOf(sgParams)

func wordsOf(m map[string]string) *regexp.Regexp {
	names := make([]string, 0, len(m))
	for from := range m {
		names = append(names, regexp.QuoteMeta(from))
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
}

// sgRenameWords renames the whole words of text that re matches by m.
func sgRenameWords(text string, re *regexp.Regexp, m map[string]string) string {
	return re.ReplaceAllStringFunc(text, func(w string) string { return m[w] })
}
