package sparse

import (
	"fmt"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// mapped counts the bytes of factor values mapped now (MappedBytes).
var mapped atomic.Int64

// MappedBytes returns the bytes of factor values mapped from the system
// now: memory the process holds that the Go runtime's heap statistics do
// not show, for measurements of an analysis's peak memory.
func MappedBytes() int64 { return mapped.Load() }

// newValues returns n zeroed float64s for a factor's values, mapped from
// the system rather than the Go heap, and the function that unmaps them.
//
// A large factor is most of a factorization's memory. Allocated with make,
// reused heap memory is zeroed on the allocating goroutine before any work
// starts, faulting in every page there: 0.4–1.3 s per GiB on one core of
// the 2-core virtual machine measured, half that on both. Fresh anonymous pages
// are zero already and are faulted in where each worker first writes its
// panels, on every core at once. Transparent huge pages are asked for
// where the system grants them on request.
func newValues(n int) ([]float64, func(), error) {
	if n == 0 {
		return nil, func() {}, nil
	}
	b, err := syscall.Mmap(-1, 0, 8*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, fmt.Errorf("map %d MiB for the factor: %w", n>>17, err)
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // a hint: refusal changes nothing
	v := unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
	mapped.Add(int64(len(b)))
	return v, func() {
		if syscall.Munmap(b) == nil {
			mapped.Add(-int64(len(b)))
		}
	}, nil
}
