package static_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/static"
)

// recordProgress returns a Progress callback that records the events and
// fails the test if two calls overlap, and the recorded events.
func recordProgress(t *testing.T, then func(static.Progress)) (func(static.Progress), *[]static.Progress) {
	t.Helper()
	var events []static.Progress
	var inside atomic.Int32
	return func(p static.Progress) {
		if inside.Add(1) != 1 {
			t.Error("Progress calls overlap")
		}
		defer inside.Add(-1)
		events = append(events, p)
		if then != nil {
			then(p)
		}
	}, &events
}

// checkRuns requires every run of a stage in events to start at 0, end at
// 1 and have non-decreasing fractions in [0, 1], and returns the stages of
// the runs in order.
func checkRuns(t *testing.T, events []static.Progress) []static.Stage {
	t.Helper()
	var stages []static.Stage
	for i, p := range events {
		if !(p.Fraction >= 0 && p.Fraction <= 1) {
			t.Errorf("event %d %+v: fraction outside [0, 1]", i, p)
		}
		first := i == 0 || events[i-1].Stage != p.Stage || events[i-1].Fraction == 1
		if first {
			stages = append(stages, p.Stage)
			if p.Fraction != 0 {
				t.Errorf("event %d %+v: a stage run starts with fraction %g, want 0", i, p, p.Fraction)
			}
			if i > 0 && events[i-1].Fraction != 1 {
				t.Errorf("event %d %+v: the previous run (%+v) did not end with 1", i, p, events[i-1])
			}
		} else if p.Fraction < events[i-1].Fraction {
			t.Errorf("event %d %+v: fraction decreases from %g", i, p, events[i-1].Fraction)
		}
	}
	if n := len(events); n > 0 && events[n-1].Fraction != 1 {
		t.Errorf("last event %+v: want fraction 1", events[n-1])
	}
	return stages
}

// TestProgress runs Analyze with a Progress callback: on grid-10 (linear)
// the stages come once each, in order, and the factorization reports its
// size; with the reversal loop the stages repeat with the case and
// iteration.
func TestProgress(t *testing.T) {
	t.Run("grid-10", func(t *testing.T) {
		fn, events := recordProgress(t, nil)
		res, err := static.Analyze(context.Background(), gridModel(t, 10), static.Options{Progress: fn})
		if err != nil {
			t.Fatal(err)
		}
		want := []static.Stage{static.StageSetup, static.StageAssembly, static.StageFactorization, static.StageSolution, static.StageRecovery}
		if got := checkRuns(t, *events); !slices.Equal(got, want) {
			t.Fatalf("stage runs %v, want %v", got, want)
		}
		end := slices.IndexFunc(*events, func(p static.Progress) bool {
			return p.Stage == static.StageFactorization && p.Fraction == 1
		})
		p := (*events)[end]
		if p.Equations != res.Timings.Equations || p.NnzL <= 0 || !(p.Flops > 0) || p.Method == "" {
			t.Errorf("end of factorization %+v: want Equations %d, NnzL, Flops and Method", p, res.Timings.Equations)
		}
		for _, p := range *events {
			if p.Iteration != 0 || p.Case != 0 {
				t.Errorf("linear analysis reports iteration %d of case %d", p.Iteration, p.Case)
			}
		}
	})
	t.Run("reversal", func(t *testing.T) {
		m := stationsModel()
		fn, events := recordProgress(t, nil)
		if _, err := static.Analyze(context.Background(), m, static.Options{TensionCompressionOnly: true, Progress: fn}); err != nil {
			t.Fatal(err)
		}
		stages := checkRuns(t, *events)
		if stages[0] != static.StageSetup || stages[len(stages)-1] != static.StageRecovery {
			t.Fatalf("stage runs %v: want setup first and recovery last", stages)
		}
		// Every case is solved at least once from iteration 1 up, and
		// recovered once; stages within an iteration keep their order.
		last := map[int64]int{}
		var prev static.Progress
		for i, p := range *events {
			if p.Stage == static.StageSetup {
				continue
			}
			if p.Case == 0 || p.Iteration < 1 {
				t.Fatalf("event %d %+v: want the case and its iteration", i, p)
			}
			if p.Iteration < last[p.Case] || p.Iteration > last[p.Case]+1 {
				t.Fatalf("event %d %+v: iteration after %d", i, p, last[p.Case])
			}
			last[p.Case] = p.Iteration
			if p.Case == prev.Case && p.Iteration == prev.Iteration && p.Stage < prev.Stage {
				t.Fatalf("event %d %+v: stage after %v in the same iteration", i, p, prev.Stage)
			}
			prev = p
		}
		for _, c := range []int64{1, 2, 3, 4, 5, 6, 7, 8} { // the cases of stationsModel
			if last[c] < 1 {
				t.Errorf("case %d: no progress reported", c)
			}
		}
	})
}

// TestProgressCancel cancels the analysis of grid-12 from inside the
// Progress callback during the factorization, once its symbolic analysis
// is known and once the numeric phase reports a fraction done: Analyze
// must return an error wrapping context.Canceled, with no stage reported
// after the cancel.
func TestProgressCancel(t *testing.T) {
	m := gridModel(t, 12)
	for _, tc := range []struct {
		name string
		when func(static.Progress) bool
	}{
		{"analysed", func(p static.Progress) bool { return p.Stage == static.StageFactorization && p.NnzL > 0 }},
		{"numeric", func(p static.Progress) bool {
			return p.Stage == static.StageFactorization && p.Fraction > 0 && p.Fraction < 1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var at time.Time
			fn, events := recordProgress(t, func(p static.Progress) {
				if at.IsZero() && tc.when(p) {
					at = time.Now()
					cancel()
				}
			})
			_, err := static.Analyze(ctx, m, static.Options{Progress: fn})
			if at.IsZero() {
				if err != nil {
					t.Fatal(err)
				}
				t.Skip("the factorization ended before it reported a fraction done")
			}
			lag := time.Since(at)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("want an error wrapping context.Canceled, got %v", err)
			}
			n := len(*events)
			if p := (*events)[n-1]; !tc.when(p) {
				t.Errorf("event %+v after the cancel", p)
			}
			t.Logf("returned %v after the cancel: %v", lag, err)
		})
	}
}
