package static_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/static"
)

// peakSampler samples the memory an analysis holds: the Go heap's
// objects (live and not yet swept: with a GC target of memGCPercent they
// exceed the live set by at most that fraction), the goroutine stacks,
// and the factor values mapped outside the heap (sparse.MappedBytes).
// Sampling every memSampleEvery catches every phase of an analysis of the
// sizes measured here: each holds its peak for far longer than that.
type peakSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	mu   sync.Mutex
	base int64
	peak int64
}

const (
	memGCPercent   = 5
	memSampleEvery = time.Millisecond
)

var memSamples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}

// heldBytes returns the memory the process holds now, as the sampler
// counts it.
func heldBytes() int64 {
	s := make([]metrics.Sample, len(memSamples))
	copy(s, memSamples)
	metrics.Read(s)
	var n int64
	for _, v := range s {
		n += int64(v.Value.Uint64())
	}
	return n + sparse.MappedBytes()
}

// startPeak collects garbage, takes the baseline and starts sampling.
func startPeak(tb testing.TB) *peakSampler {
	tb.Helper()
	old := debug.SetGCPercent(memGCPercent)
	tb.Cleanup(func() { debug.SetGCPercent(old) })
	runtime.GC()
	p := &peakSampler{stop: make(chan struct{}), base: heldBytes()}
	p.done.Go(func() {
		t := time.NewTicker(memSampleEvery)
		defer t.Stop()
		for {
			h := heldBytes()
			p.mu.Lock()
			p.peak = max(p.peak, h)
			p.mu.Unlock()
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	})
	return p
}

// growth stops sampling and returns the peak above the baseline.
func (p *peakSampler) growth() int64 {
	close(p.stop)
	p.done.Wait()
	return p.peak - p.base
}

// plateMesh is BenchmarkPlateMesh's 200 × 200 Mindlin plate mesh under
// a uniform pressure.
func plateMesh(n int) *domain.Model {
	plates := platecase.Grid(n, n, 20, 20, false, shell.Mindlin, 0.2)
	platecase.SimplySupport(plates, n, n)
	lc := domain.LoadCase{ID: 1}
	for _, p := range plates.Plates {
		lc.Pressures = append(lc.Pressures, domain.PlatePressure{Plate: p.ID, Axes: domain.GlobalInclined, P: [3]float64{0, 0, -5000}})
	}
	plates.LoadCases = []domain.LoadCase{lc}
	return plates
}

// manyCases replaces m's load cases by n, each a copy of one of them
// under a new id.
func manyCases(m *domain.Model, n int) *domain.Model {
	base := m.LoadCases
	m.LoadCases = make([]domain.LoadCase, n)
	for i := range n {
		m.LoadCases[i] = base[i%len(base)]
		m.LoadCases[i].ID = int64(i + 1)
	}
	return m
}

// TestMemoryEstimate compares the memory estimate Options.Admit is given
// with the peak growth of the same analysis, measured by peakSampler from
// just before Analyze (the model built) to its end, on grid-20, grid-30
// and the 200 × 200 plate mesh of BenchmarkPlateMesh, one load case each
// (the acceptance asks for 10 %), and on grid-6 with 500 cases.
// The measure is of memory, not time, so a loaded machine changes it only
// through when the collector runs, which memGCPercent bounds. grid-30 and
// the plate mesh take 3 GB and 1 GB and half a minute to minutes: they run
// with GUSSET_MEASURE=1 (make test-memory); grid-20 (700 MB) and grid-6
// always do.
func TestMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("grid-20 takes 700 MB")
	}
	large := os.Getenv("GUSSET_MEASURE") != ""
	tests := []struct {
		name  string
		large bool
		model func(testing.TB) *domain.Model
		cases []int64
	}{
		{"grid-20", false, func(tb testing.TB) *domain.Model { return gridModel(tb, 20) }, []int64{1}},
		{"grid-30", true, func(tb testing.TB) *domain.Model { return gridModel(tb, 30) }, []int64{1}},
		{"plate-200", true, func(testing.TB) *domain.Model { return plateMesh(200) }, nil},
		// Finding 4's shape: a small model with many cases, where the
		// cases' results are the peak, not the factor.
		{"grid-6×500", false, func(tb testing.TB) *domain.Model { return manyCases(gridModel(tb, 6), 500) }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.large && !large {
				t.Skip("set GUSSET_MEASURE=1 to measure grid-30 and the plate mesh")
			}
			m := tc.model(t)
			var est static.MemoryEstimate
			p := startPeak(t)
			res, err := static.Analyze(context.Background(), m, static.Options{Cases: tc.cases, EndsOnly: true,
				Admit: func(e static.MemoryEstimate) error { est = e; return nil }})
			got := p.growth()
			if err != nil {
				t.Fatal(err)
			}
			runtime.KeepAlive(res)
			ratio := float64(est.Total) / float64(got)
			t.Logf("%d equations: estimate %d MiB (model %d, system %d, factor %d, %d × %d KiB per case), measured %d MiB: ratio %.3f",
				est.Equations, est.Total>>20, est.Model>>20, est.System>>20, est.Factor>>20, est.Cases, est.PerCase>>10, got>>20, ratio)
			if ratio < 0.9 || ratio > 1.1 {
				t.Errorf("estimate/measured = %.3f, want within 10 %%", ratio)
			}
		})
	}
}

// TestAdmitRefuses checks that an error of Options.Admit ends the
// analysis before its factorization, wrapped.
func TestAdmitRefuses(t *testing.T) {
	refused := errors.New("does not fit")
	var calls int
	_, err := static.Analyze(context.Background(), gridModel(t, 3), static.Options{
		Admit: func(static.MemoryEstimate) error { calls++; return refused }})
	if !errors.Is(err, refused) {
		t.Fatalf("Analyze: %v, want the Admit error", err)
	}
	if calls != 1 {
		t.Errorf("Admit called %d times, want 1", calls)
	}
}
