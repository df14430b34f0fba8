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
	// Stream answers the query into sink, whose Rows get []Row slices:
	// the rows as they are read, so that an answer of any size costs a
	// bounded amount of memory (see query.Sink).
	Stream func(q *query.Query, ctx context.Context, ws string, f query.Filter, sink AnySink) error
}

// AnySink is a query.Sink of any row type: Rows gets a []Row of the
// query's Row type.
type AnySink interface {
	Begin(query.Head) error
	Rows(rows any) error
	Restart() error
}

// typedSink is an AnySink as a query of rows T sees it.
type typedSink[T any] struct{ AnySink }

func (s typedSink[T]) Rows(rows []T) error { return s.AnySink.Rows(rows) }

// Envelope is the body of every result query: the rows and the warnings.
type Envelope[T any] struct {
	Results  []T                   `json:"results"`
	Warnings model.ResultsWarnings `json:"warnings"`
}

// NewStreamQuery returns spec (Name, Summary, Doc, Filters,
// Normalization) answered by stream, with the fields that follow from its
// row type T. query.Method fits a family's query methods to it.
func NewStreamQuery[T any](spec ResultQuery, stream func(q *query.Query, ctx context.Context, ws string, f query.Filter, sink query.Sink[T]) error) ResultQuery {
	spec.Row = reflect.TypeFor[T]()
	spec.Response = Envelope[T]{}
	spec.Stream = func(q *query.Query, ctx context.Context, ws string, f query.Filter, sink AnySink) error {
		return stream(q, ctx, ws, f, typedSink[T]{sink})
	}
	return spec
}

// NewResultQuery is NewStreamQuery for a query that builds its page
// whole: a kind whose answers are small (a row per load case) need not
// stream them.
func NewResultQuery[T any](spec ResultQuery, run func(q *query.Query, ctx context.Context, ws string, f query.Filter) (query.Page[T], error)) ResultQuery {
	return NewStreamQuery(spec, func(q *query.Query, ctx context.Context, ws string, f query.Filter, sink query.Sink[T]) error {
		p, err := run(q, ctx, ws, f)
		if err != nil {
			return err
		}
		return query.SendPage(sink, p)
	})
}
