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

// sgValueKeys are the keys whose string values name a property, and
// are renamed by sgKeys in answers: the jsonName of each field a
// .../metadata answer lists.
var sgValueKeys = map[string]bool{"jsonName": true}

// sgQueryRename is a query parameter the SDK names differently on the
// routes under one path.
type sgQueryRename struct {
	// under is the start of the /api/v1 paths (below the base path) whose
	// parameter from the SDK names to.
	under, from, to string
}

// sgQuery renames query parameters, per route. The case filter is
// cases on every route of the SDK's reference pages (load lists, case
// lists, result queries), as the current SDK's renames list it; an
// earlier API description (also labelled build 14.50.149) kept
// loadCases on the load and case lists and the results info, so a
// route that keeps it needs only an entry here.
var sgQuery = []sgQueryRename{
	{under: "/job/", from: "loadCases", to: "cases"},
}

// sgQueryOn gives the query parameters the SDK renames on p, a path (or
// a route's template) below the base path: our name → the SDK's. Nil
// when it renames none there.
func sgQueryOn(p string) map[string]string {
	var out map[string]string
	for _, q := range sgQuery {
		if strings.HasPrefix(p, q.under) {
			if out == nil {
				out = map[string]string{}
			}
			out[q.from] = q.to
		}
	}
	return out
}

// sgParams renames path parameters in the SDK document and in the
// messages about them: /api/v1 name → SDK name. A path parameter's name
// is not on the wire, so the routes themselves keep the /api/v1 names
// (the handlers read them).
var sgParams = map[string]string{
	"loadCase": "caseId",
	// The node of node loads, lumped masses, prescribed displacements and
	// node restraints, the slave node of a constraint.
	"node":      "nodeId",
	"slaveNode": "nodeId",
	// The member and sub-load of member loads, the member of offsets, the
	// plate of plate loads.
	"member":  "memberId",
	"subLoad": "subLoadId",
	"plate":   "plateId",
}

// sgRoute is a path of the SDK's that differs from ours. A request on
// the SDK's base path whose path matches sg (or starts with it and a
// slash) is served by the /api/v1 route at to (v1 when empty) with sg's
// parameters put in place of to's, in order, followed by the rest of the
// path: its metadata, its tables. Every other path on the SDK's base
// path is ours, only the names in it differ.
type sgRoute struct {
	// v1 is the template of the /api/v1 route (and of the routes under
	// it) that the SDK's path serves, as the document names it.
	v1 string
	// sg is the SDK's path, its parameters named as the SDK names them;
	// a fixed segment matches in any case.
	sg string
	// to, when set, is the /api/v1 path the SDK's one becomes, where a
	// fixed segment of the SDK's stands for one of our parameters.
	to string
	// replace leaves v1's own path out of the SDK's document (it still
	// answers there, as on /api/v1).
	replace bool
}

// sgRoutes are the SDK's paths that differ from ours.
var sgRoutes = []sgRoute{
	// Thermal loads: one path per element type, the type before the case.
	{v1: "/job/loads/thermal-loads/:loadCase/:elementType/:elementId", sg: "/job/loads/thermal-loads/member/{caseId}/{memberId}",
		to: "/job/loads/thermal-loads/:loadCase/Member/:elementId", replace: true},
	{v1: "/job/loads/thermal-loads/:loadCase/:elementType/:elementId", sg: "/job/loads/thermal-loads/plate/{caseId}/{plateId}",
		to: "/job/loads/thermal-loads/:loadCase/Plate/:elementId", replace: true},
	// Prescribed displacements, under the SDK's name only.
	{v1: "/job/loads/prescribed-displacements", sg: "/job/loads/node-displacements", replace: true},
	// The node near a point: by-location is exists there, a node or 404
	// as ours.
	{v1: "/job/structure/nodes/by-location", sg: "/job/structure/nodes/exists", replace: true},
	// A node's restraint and constraint and a member's offsets under the
	// node or member, beside the collections.
	{v1: "/job/structure/node-restraints/:node", sg: "/job/structure/nodes/{id}/restraint"},
	{v1: "/job/structure/node-constraints/:slaveNode", sg: "/job/structure/nodes/{id}/constraint"},
	{v1: "/job/structure/member-offsets/:member", sg: "/job/structure/members/{id}/offsets"},
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
	return sgRoute{v1: q + v1, sg: q + sg}
}

// sgRewrite returns our path (below the base path) for p, a path below
// the SDK's base path.
func sgRewrite(p string) string {
	got := strings.Split(p, "/")
	for _, e := range sgRoutes {
		want := strings.Split(e.sg, "/")
		if len(got) < len(want) {
			continue
		}
		var params []string
		match := true
		for i, w := range want {
			switch {
			case strings.HasPrefix(w, "{"):
				params = append(params, got[i])
			case !strings.EqualFold(w, got[i]):
				match = false
			}
			if !match {
				break
			}
		}
		if !match {
			continue
		}
		to := e.to
		if to == "" {
			to = e.v1
		}
		out := strings.Split(to, "/")
		for i, s := range out {
			if strings.HasPrefix(s, ":") && len(params) > 0 {
				out[i], params = params[0], params[1:]
			}
		}
		return strings.Join(append(out, got[len(want):]...), "/")
	}
	return p
}

// sgDocPath is one path of a route in the SDK's document, below its base
// path; fixed gives the body keys its fixed segments stand for (the
// thermal element type), which the path's examples must carry.
type sgDocPath struct {
	path  string
	fixed map[string]string
}

// sgDocPaths lists the paths route r has in the SDK's document: its own
// (unless a rename replaces it) and the table's.
func sgDocPaths(r route) []sgDocPath {
	var out []sgDocPath
	own := true
	for _, e := range sgRoutes {
		rest, ok := "", r.path == e.v1
		if strings.HasPrefix(r.path, e.v1+"/") {
			rest, ok = r.path[len(e.v1):], true
		}
		if !ok {
			continue
		}
		own = own && !e.replace
		out = append(out, sgDocPath{path: e.sg + sgDocParams(rest), fixed: e.fixed()})
	}
	if own {
		out = append([]sgDocPath{{path: sgDocParams(r.path)}}, out...)
	}
	return out
}

// fixed lists the parameters of v1 that to gives a fixed value.
func (e sgRoute) fixed() map[string]string {
	if e.to == "" {
		return nil
	}
	out := map[string]string{}
	to := strings.Split(e.to, "/")
	for i, s := range strings.Split(e.v1, "/") {
		if strings.HasPrefix(s, ":") && i < len(to) && !strings.HasPrefix(to[i], ":") {
			out[s[1:]] = to[i]
		}
	}
	return out
}

// sgDocParams writes a Fiber path in the document's form with the SDK's
// parameter names.
func sgDocParams(p string) string {
	parts := strings.Split(openAPIPath(p), "/")
	for i, s := range parts {
		if strings.HasPrefix(s, "{") {
			if to, ok := sgParams[strings.Trim(s, "{}")]; ok {
				parts[i] = "{" + to + "}"
			}
		}
	}
	return strings.Join(parts, "/")
}

// sgRefused are the /api/v1 keys the SDK renamed: on its base path they
// are unknown, as any other unknown name.
var sgRefused = func() map[string]bool {
	refused := map[string]bool{}
	for from := range sgKeys {
		refused[from] = true
	}
	// A name both renamed and the new name of another stays accepted.
	for _, to := range sgKeys {
		delete(refused, to)
	}
	return refused
}()

// sgKeysBack renames the SDK's keys to ours, for request bodies.
var sgKeysBack = func() map[string]string {
	back := map[string]string{}
	for from, to := range sgKeys {
		back[to] = from
	}
	return back
}()

// sgKeyWords, sgQueryWords and sgParamWords match, in a message or a
// description, the names each table renames, as whole words.
var sgKeyWords, sgQueryWords, sgParamWords = wordsOf(sgKeys), wordsOf(sgQueryNames()), wordsOf(sgParams)

// sgQueryNames is every rename of sgQuery, whatever its routes.
func sgQueryNames() map[string]string {
	out := map[string]string{}
	for _, q := range sgQuery {
		out[q.from] = q.to
	}
	return out
}

func wordsOf(m map[string]string) *regexp.Regexp {
	names := make([]string, 0, len(m))
	for from := range m {
		names = append(names, regexp.QuoteMeta(from))
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
}

// sgRenameWords renames the whole words of text that re matches by m;
// a word m does not rename stays.
func sgRenameWords(text string, re *regexp.Regexp, m map[string]string) string {
	return re.ReplaceAllStringFunc(text, func(w string) string {
		if to, ok := m[w]; ok {
			return to
		}
		return w
	})
}
