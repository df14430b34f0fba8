package peak

import (
	"sync/atomic"
	"testing"
	"time"
)

// The sampler keeps the largest value of a sequence that rises and falls,
// skips samples that are not there, and calls onOver once when a sample
// passes over.
func TestSamplerKeepsTheLargest(t *testing.T) {
	seq := []int64{3, 9, -1, 4, 12, 7}
	var i atomic.Int64
	var overs atomic.Int64
	s := Start(time.Millisecond, func() (int64, bool) {
		n := i.Add(1) - 1
		if n >= int64(len(seq)) {
			return 0, false
		}
		return seq[n], seq[n] >= 0
	}, 8, func() { overs.Add(1) })
	for i.Load() < int64(len(seq)) {
		time.Sleep(time.Millisecond)
	}
	if got := s.Stop(); got != 12 {
		t.Errorf("peak %d, want 12", got)
	}
	if n := overs.Load(); n != 1 {
		t.Errorf("onOver called %d times, want once (9 and 12 pass 8)", n)
	}
	if got := s.Stop(); got != 12 {
		t.Errorf("a second Stop gave %d", got)
	}
}
