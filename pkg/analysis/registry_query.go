package analysis

import (
	"context"
	"reflect"

	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// ResultQuery is one result query of a family: a route under the family's
// query path and the function that answers it.
type ResultQuery struct {
	// Name is its path segment under the family's query path.
	Name    string
	Summary string
	// Doc is its own description (Family.QueryDoc follows it).
	Doc string
	// Filters are the id-list filters it takes ("loadCases", "nodes",
	// "members", "plates", "modes").
	Filters []string
	// Normalization, when set, documents the normalization parameter the
	// query takes (Filter.Normalization).
	Normalization string
	// Row is the type of its rows, for documentation and metadata.
	Row reflect.Type
	// Response is a zero Envelope of its rows, for documentation.
	Response any
	// Run answers the query: Rows of the page is a non-nil []Row.
	Run func(q *query.Query, ctx context.Context, ws string, f query.Filter) (AnyPage, error)
}

// AnyPage is a page of query rows of any row type.
type AnyPage struct {
	// Rows is a non-nil slice of the query's Row type.
	Rows     any
	Total    int64
	Warnings model.ResultsWarnings
}

// Envelope is the body of every result query: the rows and the warnings.
type Envelope[T any] struct {
	Results  []T                   `json:"results"`
	Warnings model.ResultsWarnings `json:"warnings"`
}

// NewResultQuery returns spec (its query methods take the *Query first,
// so that method expressions such as (*Query).NodeDisplacements fit)
// with (Name, Summary, Doc, Filters,
// Normalization) answered by run, with the fields that follow from its
// row type T.
func NewResultQuery[T any](spec ResultQuery, run func(q *query.Query, ctx context.Context, ws string, f query.Filter) (query.Page[T], error)) ResultQuery {
	spec.Row = reflect.TypeFor[T]()
	spec.Response = Envelope[T]{}
	spec.Run = func(q *query.Query, ctx context.Context, ws string, f query.Filter) (AnyPage, error) {
		p, err := run(q, ctx, ws, f)
		if p.Rows == nil {
			p.Rows = []T{}
		}
		return AnyPage{Rows: p.Rows, Total: p.Total, Warnings: p.Warnings}, err
	}
	return spec
}
