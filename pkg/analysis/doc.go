// Package analysis is the middle layer between the HTTP edge and the
// engine (pkg/fem): the analysis kinds, the life of a run, and the
// queries over stored results. It knows the store through the pkg/store
// interfaces and the queue through Queue; it knows nothing of HTTP,
// Redis or asynq.
//
// # Kinds
//
// Every analysis kind is one value registered in a Registry, as a task
// type is registered with asynq's mux: linear static, non-linear static,
// buckling and dynamic frequency (StandardKinds), and whatever else a
// service registers (a test registers one of its own). A Kind names its
// analysisType and its start route, checks a run's settings and runs it;
// the Family it belongs to owns the settings record, the results it
// stores and the queries over them. The HTTP routes, the worker's Runner,
// the queries, the job-file check and the session loop over the registry;
// no code outside the kinds' own files names a particular kind.
//
// # The path of a run
//
//  1. The HTTP edge finds the kind by the route (Kind.Start), reads the
//     family's stored settings (Family.Settings), merges the body's
//     overrides into them and asks the kind to check the outcome
//     (Kind.Check): a refusal is a 400 before anything is queued.
//  2. Service.Start records the run (Queued) and queues a Task naming the
//     kind's Type and carrying the overrides.
//  3. A worker's Runner.Run looks the kind up and calls Kind.Run, which
//     carries the run through the one lifecycle, Runner.Execute: begin
//     (Running, a new attempt), supervise (every Runner.Tick the progress
//     and a heartbeat reach the run record, and a cancel request cancels
//     the solve), solve (the kind's Solver: read the model through the
//     adapter, Build; analyse with the engine; pack the results into
//     columns), publish (the results and the run's completion in one
//     store transaction) and settle (Completed, Failed with a model's
//     message, Cancelled, or returned for another attempt).
//  4. A kind whose runs fan out (FanOutKind, the non-linear analysis)
//     plans its parts in the solve step and hands the run on: each part
//     is a sub-task any idle worker takes, supervised in the same way;
//     the last part gathers what the parts staged and publishes.
//  5. The queries (Query, each family's ResultQuery) read the stored
//     columns and answer pages of rows in SI; the HTTP edge converts them
//     to the job's units.
//
// # Units and conventions
//
// Everything here is SI (N, m, s, kg, rad) and global axes unless a
// query's row type says otherwise (member local axes for member end and
// intermediate forces, plate local axes for plate results). Stored
// results are columns of little-endian 8-byte values (columns.go).
package analysis
