package httpapi

import (
	"net/http"
	"reflect"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// queryPath is the prefix of the result queries.
const queryPath = "/job/query/analysis"

func (a *API) registerResultRoutes() {
	for _, f := range a.kinds.Families() {
		for _, rq := range f.Queries {
			addResultQuery(a, f, rq)
		}
	}
}

// addResultQuery serves the result query rq of family f and its metadata.
func addResultQuery(a *API, f *analysis.Family, rq analysis.ResultQuery) {
	const tag = "Results"
	path := queryPath + "/" + f.QueryDir + "/" + rq.Name
	params := []param{{name: "offset", typ: "integer", desc: "rows to skip, 0 to 2147483647 (default 0)"},
		{name: "limit", typ: "integer", desc: limitDescription}}
	for _, name := range rq.Filters {
		desc := "id list, e.g. 1,3-7"
		if name == "modes" {
			desc = "list of mode numbers, e.g. 1-3"
		}
		params = append(params, param{name: name, typ: "string", desc: desc})
	}
	if rq.Normalization != "" {
		params = append(params, param{name: "normalization", typ: "string", desc: rq.Normalization})
	}
	a.add(route{method: "GET", path: path, tag: tag, headers: pagingHeaders, summary: rq.Summary, desc: rq.Doc + " " + f.QueryDoc, query: params,
		responses: map[int]any{200: rq.Response}, errors: []int{http.StatusBadRequest, http.StatusConflict, http.StatusInternalServerError},
		handler: func(c *fiber.Ctx) error {
			flt, err := resultFilter(c, rq.Filters)
			if err != nil {
				return err
			}
			if rq.Normalization != "" {
				flt.Normalization = c.Query("normalization")
			}
			ws := workspace(c)
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			return a.answerResults(c, rq, ws, flt, u)
		}})
	a.add(route{method: "GET", path: path + "/metadata", tag: tag, summary: "Describe the fields of " + rq.Name,
		desc:      "Units are resolved against the job units.",
		responses: map[int]any{200: Metadata{}}, errors: []int{http.StatusConflict, http.StatusInternalServerError},
		handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			return c.JSON(Metadata{ResourceType: rq.Name, Fields: fieldMetadata(rq.Row, u, "")})
		}})
}

// resultFilter reads the paging and the id-list filters of a query.
func resultFilter(c *fiber.Ctx, names []string) (query.Filter, error) {
	var f query.Filter
	var err error
	if f.Offset, f.Limit, err = paging(c); err != nil {
		return f, err
	}
	for _, name := range names {
		list, some, err := model.ParseIDList(name, c.Query(name))
		if err != nil {
			return f, err
		}
		if !some {
			continue
		}
		switch name {
		case "loadCases":
			f.LoadCases = &list
		case "nodes":
			f.Nodes = &list
		case "members":
			f.Members = &list
		case "plates":
			f.Plates = &list
		case "modes":
			f.Modes = &list
		}
	}
	return f, nil
}

// scaleRows converts result rows from SI to the job units. A batch of
// rows holds thousands of numbers, so each field's factor is worked out
// once per batch rather than once per value as scale does.
func scaleRows(rows any, u model.Units) {
	rv := reflect.ValueOf(rows)
	if rv.Kind() != reflect.Slice || rv.Len() == 0 {
		return
	}
	type fieldScale struct {
		index int
		slice bool
		div   float64
	}
	var fs []fieldScale
	for _, f := range infoOf(rv.Type().Elem()).fields {
		if f.unit == nil {
			continue
		}
		if d := factorOf(f.unit, u); d != 1 {
			fs = append(fs, fieldScale{f.Index, f.Type.Kind() == reflect.Slice, d})
		}
	}
	if len(fs) == 0 {
		return
	}
	for i := range rv.Len() {
		v := rv.Index(i)
		for _, f := range fs {
			fv := v.Field(f.index)
			if !f.slice {
				fv.SetFloat(fv.Float() / f.div)
				continue
			}
			xs := fv.Interface().([]float64)
			for k := range xs {
				xs[k] /= f.div
			}
		}
	}
}
