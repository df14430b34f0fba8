package editor

import "testing"

// The scan finds every number beyond 1e20 (model.MaxMagnitude) and only
// those, wherever it stands, and never mistakes the text of a string for
// a number.
func TestBoundedNumbers(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"plain", `{"x":1.5,"y":-3,"z":0}`, true},
		{"at the bound", `{"x":1e20,"y":-1e20}`, true},
		{"20 digits", `{"x":99999999999999999999}`, true},
		{"tiny", `{"x":1e-300}`, true},
		{"digits inside strings", `{"name":"1e99 \"2e99\" 123456789012345678901"}`, true},
		{"beyond, exponent", `{"x":1.0000001e20}`, false},
		{"beyond, negative", `{"x":-2E21}`, false},
		{"beyond, 21 digits", `{"x":123456789012345678901}`, false},
		{"beyond float64", `{"x":1e400}`, false},
		{"nested in arrays", `{"rows":[[0,1],[2,3e30]]}`, false},
		{"after an escaped quote", `{"a":"\\","x":5e25}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := boundedNumbers([]byte(tt.in)); (err == nil) != tt.ok {
				t.Errorf("boundedNumbers(%s) = %v, want ok %v", tt.in, err, tt.ok)
			}
		})
	}
}
