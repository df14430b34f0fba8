// Package query is the common ground of the result queries: the reader
// of stored results (Query), the filter a query takes (Filter), the page
// it answers (Page), and the id selection and paging every family's
// queries share. The queries themselves belong to the families (the
// kinds' packages), which the registry lists (analysis.Family.Queries).
//
// Values are SI; the HTTP edge converts them to the job's units. Rows are
// ordered by load case, then by the item (node, member, plate, mode), and
// paged by offset and limit over that order.
package query
