//go:build !linux

package sparse

// newValues returns n zeroed float64s for a factor's values (on Linux they
// are mapped from the system; see values_linux.go).
func newValues(n int) ([]float64, func(), error) {
	return make([]float64, n), func() {}, nil
}

// MappedBytes returns 0: off Linux the factor values are on the Go heap.
func MappedBytes() int64 { return 0 }
