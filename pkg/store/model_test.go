package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestKey checks the key format against fmt's zero padding, the format
// every stored job relies on, including the ends of the id range.
func TestKey(t *testing.T) {
	tests := []struct {
		name  string
		parts []int64
		want  string
	}{
		{"none", nil, ""},
		{"zero", []int64{0}, "0000000000"},
		{"one", []int64{1}, "0000000001"},
		{"largest", []int64{9_999_999_999}, "9999999999"},
		{"composite", []int64{3, 120, 7}, "0000000003:0000000120:0000000007"},
		// Outside the range the old formatting stays: such keys never name
		// a row, but a lookup of them must not collide with one.
		{"too large", []int64{10_000_000_000}, "10000000000"},
		{"negative", []int64{2, -5}, "0000000002:00000000-5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Key(tt.parts...); got != tt.want {
				t.Errorf("Key(%v) = %q, want %q", tt.parts, got, tt.want)
			}
		})
	}
	t.Run("matches fmt", func(t *testing.T) {
		for _, p := range []int64{5, 42, 999, 1000, 123456789, 1_000_000_000, 4_294_967_296} {
			for _, q := range []int64{1, 77, 9_000_000_001} {
				want := strings.Join([]string{fmt.Sprintf("%010d", p), fmt.Sprintf("%010d", q)}, ":")
				if got := Key(p, q); got != want {
					t.Errorf("Key(%d, %d) = %q, want %q", p, q, got, want)
				}
				if back, err := ParseKey(want); err != nil || back[0] != p || back[1] != q {
					t.Errorf("ParseKey(%q) = %v, %v", want, back, err)
				}
			}
		}
	})
}
