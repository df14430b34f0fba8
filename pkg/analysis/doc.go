// Package analysis is the registry of analysis kinds: the middle layer's
// mux between the HTTP edge and the engine (pkg/fem). Every analysis kind
// is one value registered in a Registry, as a task type is registered
// with asynq's mux. A Kind names its analysisType and its start route,
// checks a run's settings and runs it; the Family it belongs to owns the
// settings record, the results it stores and the queries over them. The
// HTTP routes, the worker, the queries, the job-file check and the session
// loop over the registry; no code outside the kinds' own packages names a
// particular kind (registry_source_test.go checks it).
//
// # Packages
//
//	analysis            the registry: Kind, Family, Settings, ResultQuery
//	analysis/kinds      the standard registry (StandardKinds)
//	analysis/statics    the static family: linear and non-linear static
//	analysis/eigen      the buckling and dynamic-frequency families
//	analysis/lifecycle  the one life of a run in a worker (Runner), fan-out included
//	analysis/service    the API's side of runs: start, read, cancel (Service)
//	analysis/adapter    the stored model → the engine's model
//	analysis/columns    the stored result layouts and meta records
//	analysis/query      what every result query shares (Query, Filter, Page)
//
// None of them knows HTTP, Redis or asynq: they reach the store through
// the pkg/store interfaces and the queue through interfaces of their own.
//
// # The path of a run
//
//  1. The HTTP edge (pkg/httpapi) finds the kind by the route
//     (Kind.Start), reads the family's stored settings (Family.Settings),
//     merges the body's overrides into them and asks the kind to check the
//     outcome (Kind.Check): a refusal is a 400 before anything is queued.
//  2. service.Service.Start records the run (Queued) and queues a
//     lifecycle.Task naming the kind's Type and carrying the overrides.
//  3. A worker's lifecycle.Runner.Run looks the kind up in the registry and
//     calls Kind.Run, which carries the run through the one lifecycle
//     (lifecycle.Runner.Execute): begin, supervise (progress, heartbeat,
//     cancel), solve (read the model through package adapter, analyse with
//     the engine, pack the results into the columns of package columns),
//     publish (results and completion in one store transaction) and
//     settle (Completed, Failed, Cancelled, or another attempt).
//  4. A kind whose runs fan out (lifecycle.FanOutKind, the non-linear
//     analysis) plans its parts in the solve step and hands the run on:
//     each part is a sub-task any idle worker takes; the last part gathers
//     what the parts staged and publishes.
//  5. The result queries (each family's ResultQuery, over a query.Query)
//     read the stored columns and answer pages of rows in SI; the HTTP
//     edge converts them to the job's units.
//
// # Units and conventions
//
// Everything in the middle layer is SI (N, m, s, kg, rad) and global axes
// unless a query's row type says otherwise (member local axes for member
// end and intermediate forces, plate local axes for plate results).
package analysis
