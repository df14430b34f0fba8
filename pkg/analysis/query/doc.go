// Package query is the common ground of the result queries: the reader
// of stored results (Query), the filter a query takes (Filter), the sink
// its answer streams to (Sink, fed through a Stream, a batch of rows at a
// time) or the page it builds whole (Page), and the id selection and
// paging every family's queries share (PageOf, the Grid walkers, which
// read the stored columns of a few cases at a time). The queries themselves belong to the families (the
// kinds' packages), which the registry lists (analysis.Family.Queries).
//
// Values are SI; the HTTP edge converts them to the job's units. Rows are
// ordered by load case, then by the item (node, member, plate, mode), and
// paged by offset and limit over that order.
package query
