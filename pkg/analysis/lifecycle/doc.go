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
//
// Fencing. begin counts the run's attempt, and every later write of that
// attempt to its run (the supervisor's refreshes, Admit's reservation, the
// last step, the publish, the end, the parts' fan-out) carries it: the
// store refuses it, in the transaction that would write, once the run
// record names another attempt (store.ErrRunSuperseded). That happens
// when the queue gave the task to another worker while this one was cut
// off from Redis for longer than its lease. The superseded attempt stops
// its solve, drops its results, leaves the run and its fan-out state to
// the later attempt and ends its task without asking for another attempt;
// the refusal is logged as a warning naming both attempts and counted
// (Runner.Fenced). A fanned-out run's parts are not fenced (see
// Runner.runPart).
//
// Patience. A solve that ends while Redis cannot be reached keeps its
// results: the last step and the publish are tried again, with waits
// growing from 250 ms to 5 s, for Runner.Patience (DefaultPatience, 5
// minutes), on a context that the task's cancellation does not end (the
// queue cancels it when the worker's lease on the task runs out). Only a
// store that cannot be reached (store.ErrUnreachable) is waited for; a
// refusal is final. When Redis is reached again the results are stored if
// the run is still this attempt's, or refused by the fence. A solve still
// under way when the queue cancels the task is stopped, as when the
// worker stops.
package lifecycle
