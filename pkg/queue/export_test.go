package queue

// Unfair makes w let every task run at once, as before fair scheduling:
// the baseline of BenchmarkFairWait.
func Unfair(w *Worker) { w.fair.off = true }
