package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// MemoryBudget is the memory a worker process lets its analyses take at
// once, in bytes (WORKER_MEMORY). Every Runner of the process shares it:
// a run reserves its estimate before its largest allocations and gives it
// back when it ends, so that runs side by side cannot together take more
// than the budget. Its methods are safe for concurrent use.
type MemoryBudget struct {
	total int64

	mu   sync.Mutex
	used int64
	// freed is closed, and replaced, whenever a reservation is given
	// back: a run waiting for room looks again.
	freed chan struct{}
}

// NewMemoryBudget returns a budget of total bytes.
func NewMemoryBudget(total int64) *MemoryBudget {
	return &MemoryBudget{total: total, freed: make(chan struct{})}
}

// Total returns the budget in bytes.
func (b *MemoryBudget) Total() int64 { return b.total }

// Used returns the bytes reserved now.
func (b *MemoryBudget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// reserve takes n bytes of the budget, waiting while other runs hold what
// n needs, and returns the function that gives them back (once, however
// often it is called). n must not exceed the total.
func (b *MemoryBudget) reserve(ctx context.Context, n int64) (func(), error) {
	for {
		b.mu.Lock()
		if b.used+n <= b.total {
			b.used += n
			b.mu.Unlock()
			var once sync.Once
			return func() {
				once.Do(func() {
					b.mu.Lock()
					b.used -= n
					close(b.freed)
					b.freed = make(chan struct{})
					b.mu.Unlock()
				})
			}, nil
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s of the worker's memory: %w", MiB(n), ctx.Err())
		}
	}
}

// MiB formats a byte count for run messages: in MiB, rounded up, or in
// KiB below 10 MiB.
func MiB(n int64) string {
	if n < 10<<20 {
		return fmt.Sprintf("%d KiB", (n+1<<10-1)>>10)
	}
	return fmt.Sprintf("%d MiB", (n+1<<20-1)>>20)
}

// ParamMemory names the run parameter that shows the memory estimate.
const ParamMemory = "Memory estimate"

// lostShare is the fraction of its worker's budget above which a run
// whose worker was lost is not run again: such a run may be what stopped
// the worker (an estimate can be off, and a worker can hold memory the
// estimate does not see), and another attempt would stop the next worker
// too. Runs far below the budget are handed on as before, so a worker
// lost to an unrelated cause (a restart, a node drained, a kill) does not
// fail them.
const lostShare = 0.5

// Admit reserves need bytes of the worker's memory budget for the run of
// t before the solver makes its largest allocations; what says what
// the estimate covers, for the messages. A run that needs more than the
// whole budget fails at once with a model.KindValidation error (the user
// must change the model or the run; another worker of the same budget
// would refuse it alike) that gives the estimate and the budget. A run
// that fits waits while other runs of the process hold the room it needs.
// The reservation is recorded in the run record, shown as a run
// parameter, and held until the run's task ends. Without a budget
// (Runner.Memory nil) Admit only shows the estimate.
func (r *Runner) Admit(ctx context.Context, t Task, lv *Progress, need int64, what string) error {
	if r.Memory == nil {
		lv.Parameter(ParamMemory, MiB(need))
		return nil
	}
	total := r.Memory.Total()
	release, err := r.Reserve(ctx, need, what)
	if err != nil {
		return err
	}
	lv.holdMemory(release)
	lv.Parameter(ParamMemory, fmt.Sprintf("%s of %s", MiB(need), MiB(total)))
	// Recorded before the allocations it covers: a worker that dies in
	// them leaves it for the next attempt to read (begin).
	_, err = r.Runs.Update(ctx, t.Workspace, t.RunID, lv.attempt, func(run *model.Run) error {
		run.MemoryReserved, run.MemoryBudget = need, total
		return nil
	})
	return err
}

// Reserve reserves need bytes of the worker's memory budget, as Admit
// does, for work whose caller gives them back (release, which may be
// called more than once): the parts of a run that fans out, which share
// their run's record and so keep no reservation in it. Work that needs
// more than the whole budget is the same model.KindValidation error as
// Admit's. Without a budget it reserves nothing.
func (r *Runner) Reserve(ctx context.Context, need int64, what string) (release func(), err error) {
	if r.Memory == nil {
		return func() {}, nil
	}
	if total := r.Memory.Total(); need > total {
		return nil, ModelError("this analysis needs about %s of memory (%s), more than the %s this worker may use (WORKER_MEMORY): "+
			"analyse fewer load cases at once, use a coarser mesh, or run it on a worker with more memory", MiB(need), what, MiB(total))
	}
	return r.Memory.reserve(ctx, need)
}

// lostNearBudget returns, for a run whose previous attempt did not
// finish, why it must not run again (see lostShare), or "".
func lostNearBudget(run *model.Run) string {
	if run.Attempt == 0 || run.MemoryBudget <= 0 || float64(run.MemoryReserved) < lostShare*float64(run.MemoryBudget) {
		return ""
	}
	return fmt.Sprintf("the worker of attempt %d was lost while this run held %s of the %s it may use; "+
		"the run is not handed to another worker, which it could stop too: analyse fewer load cases at once, "+
		"use a coarser mesh, or run it on a worker with more memory (WORKER_MEMORY)",
		run.Attempt, MiB(run.MemoryReserved), MiB(run.MemoryBudget))
}

// holdMemory keeps release until the run's task ends (releaseMemory).
func (l *Progress) holdMemory(release func()) {
	l.set(func(l *Progress) {
		if l.release != nil {
			l.release()
		}
		l.release = release
	})
}

// releaseMemory gives back the run's reservation, if any.
func (l *Progress) releaseMemory() {
	l.set(func(l *Progress) {
		if l.release != nil {
			l.release()
			l.release = nil
		}
	})
}

// heldMemory reports whether the run holds a reservation.
func (l *Progress) heldMemory() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.release != nil
}

// forgetReservation clears the reservation recorded in t's run record by
// attempt, even when ctx has ended (a stopping worker): a stopped attempt
// is not a lost one. A later attempt's record is left alone (the fence).
func (r *Runner) forgetReservation(ctx context.Context, t Task, attempt int) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, err := r.Runs.Update(ctx, t.Workspace, t.RunID, attempt, func(run *model.Run) error {
		run.MemoryReserved, run.MemoryBudget = 0, 0
		return nil
	})
	switch {
	case errors.Is(err, store.ErrRunSuperseded):
		r.fenced(ctx, t, attempt, err)
	case err != nil && !errors.Is(err, store.ErrRunFinished):
		r.Log.Warn("clear the memory reservation of an attempt", "run", t.RunID, "err", err)
	}
}
