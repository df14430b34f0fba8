package httpapi

import (
	"encoding/json"
	"sort"
	"strings"
)

// sgNote tells the readers of the /api/v1 document about the SDK's path.
const sgNote = "Every operation is also served under " + sgPrefix + " in the names of the SPACE GASS SDK (API description of build " +
	sgBuild + "): the case key loadCase is case there (path parameter caseId), the result queries' filter loadCases is cases " +
	"(load lists, case lists and .../info keep loadCases), loadCasesNotAnalyzed is casesNotAnalyzed, retainLoadCases and " +
	"checkNonExistentLoadCases are retainCases and checkNonExistentCases, prescribed displacements are at " +
	"node-displacements, nodes/by-location is nodes/exists, " +
	"thermal loads are at thermal-loads/member/{caseId}/{memberId} and thermal-loads/plate/{caseId}/{plateId}, " +
	"a node's restraint and constraint and a member's offsets are also at nodes/{id}/restraint, nodes/{id}/constraint and " +
	"members/{id}/offsets, and result queries by element also at paths such as static/node/reactions. Its document is GET " +
	sgPrefix + "/openapi.json."

// sgDescription introduces the SDK-named document.
func sgDescription() string {
	return "The gusset interface in the names of the SPACE GASS SDK generated from its API description of build " + sgBuild +
		", served under " + sgPrefix + ". Its operations, rules and limits are those of " + apiPrefix + " (GET " + apiPrefix +
		"/openapi.json), with these names: " + sgRenameList() + ". A name of " + apiPrefix + " that the SDK renamed is unknown " +
		"here, as any unknown property is: a 400 that names it. " + authDescription + " " + bodiesDescription + " " +
		limitsDescription() + " " + fieldsDescription
}

// sgRenameList lists the table's renames for the document.
func sgRenameList() string {
	var parts []string
	for _, t := range []struct {
		what string
		m    map[string]string
	}{{"property", sgKeys}, {"path parameter", sgParams}} {
		for _, from := range sortedKeys(t.m) {
			parts = append(parts, t.what+" "+from+" is "+t.m[from])
		}
	}
	for _, q := range sgQuery {
		parts = append(parts, "query parameter "+q.from+" is "+q.to+" under "+q.under+" (kept elsewhere)")
	}
	for _, e := range sgRoutes {
		how := "also at "
		if e.replace {
			how = "at "
		}
		parts = append(parts, openAPIPath(e.v1)+" is "+how+e.sg)
	}
	return strings.Join(parts, "; ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sgOpenAPI builds the SDK-named document from the same routes and
// field definitions as the /api/v1 one: each route at its SDK paths, then
// the table's renames applied to the properties, required lists,
// examples, query parameters and descriptions.
func (a *API) sgOpenAPI() (map[string]any, error) {
	fixed := map[string]map[string]string{}
	// v1 is the /api/v1 template of each operation, whose query
	// parameters the table renames.
	v1 := map[string]string{}
	doc := a.document(sgDescription(), func(sg *schemaGen, add func(r route, path string, op map[string]any)) {
		for _, r := range a.routes {
			if r.root {
				continue
			}
			for _, p := range sgDocPaths(r) {
				full := sgPrefix + p.path
				add(r, full, sg.operationAt(r, full, sgOperationID(r.method, p.path)))
				v1[full+" "+strings.ToLower(r.method)] = r.path
				if p.fixed != nil {
					fixed[full+" "+strings.ToLower(r.method)] = p.fixed
				}
			}
		}
	})
	// Renamed on the generic form: the examples and schemas are of many
	// Go types, their JSON is of few.
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var generic map[string]any
	if err := json.Unmarshal(b, &generic); err != nil {
		return nil, err
	}
	for path, item := range generic["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			sgOperation(op.(map[string]any), fixed[path+" "+method], sgQueryOn(v1[path+" "+method]))
		}
	}
	return sgRenameSchema(generic).(map[string]any), nil
}

// sgOperation renames an operation's query parameters by query (ours →
// the SDK's), and their names in its description, and gives the keys of its body example that its
// path fixes the path's value.
func sgOperation(op map[string]any, fixed, query map[string]string) {
	body, _ := op["requestBody"].(map[string]any)
	content, _ := body["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	if ex, ok := media["example"]; ok && fixed != nil {
		items, isList := ex.([]any)
		if !isList {
			items = []any{ex}
		}
		for _, it := range items {
			if obj, ok := it.(map[string]any); ok {
				for k, v := range fixed {
					if _, has := obj[k]; has {
						obj[k] = v
					}
				}
			}
		}
	}
	params, _ := op["parameters"].([]any)
	renamed := false
	for _, p := range params {
		pm := p.(map[string]any)
		if to, ok := query[pm["name"].(string)]; ok && pm["in"] == "query" {
			pm["name"], renamed = to, true
		}
	}
	if d, ok := op["description"].(string); ok && renamed {
		op["description"] = sgRenameWords(d, sgQueryWords, query)
	}
}

// sgRenameSchema renames, at any depth, the keys the table renames (the
// properties of schemas, the keys of examples), the names in required
// lists, and those names in descriptions.
func sgRenameSchema(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			switch {
			case k == "required":
				out[k] = sgRequired(e)
			case k == "description":
				if s, ok := e.(string); ok {
					out[k] = sgRenameWords(s, sgKeyWords, sgKeys)
					continue
				}
				out[k] = sgRenameSchema(e)
			default:
				name := k
				if to, ok := sgKeys[k]; ok {
					name = to
				}
				out[name] = sgRenameSchema(e)
			}
		}
		return out
	case []any:
		for i := range t {
			t[i] = sgRenameSchema(t[i])
		}
	}
	return v
}

func sgRequired(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	for i, e := range list {
		if s, ok := e.(string); ok && sgKeys[s] != "" {
			list[i] = sgKeys[s]
		}
	}
	return list
}

// sgOperationID names an operation on the SDK's path from its method and
// that path.
func sgOperationID(method, path string) string {
	var b strings.Builder
	b.WriteString("sg")
	b.WriteString(strings.ToUpper(method[:1]) + strings.ToLower(method[1:]))
	for _, s := range strings.FieldsFunc(path, func(c rune) bool { return strings.ContainsRune("/-{}.", c) }) {
		b.WriteString(strings.ToUpper(s[:1]) + s[1:])
	}
	return b.String()
}
