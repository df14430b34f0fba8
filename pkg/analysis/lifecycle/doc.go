// Package lifecycle is the one life of an analysis run in a worker, for
// every kind: Runner.Run finds the task's kind (Kinds, which
// analysis.Registry implements) and the kind's Handler carries the run
// through Runner.Execute — begin (Running, a new attempt), supervise (every
// Runner.Tick the Progress and a heartbeat reach the run record, and a
// cancel request cancels the solve), solve (the kind's Solver), publish
// (the results and the run's completion in one store transaction) and
// settle (Completed, Failed with a model's message, Cancelled, or returned
// for another attempt).
//
// A kind whose runs fan out (FanOutKind, the non-linear analysis) plans
// its parts in the solve step and hands the run on (Runner.RunFannedOut):
// each part is a sub-task any idle worker takes, supervised in the same
// way, and the last part gathers what the parts staged and publishes.
//
// A run fails with a message for the user when the model cannot be
// analysed (ModelError, model.KindValidation: retrying cannot help); any
// other error returns the run to the queue for another attempt.
package lifecycle
