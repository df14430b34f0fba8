package redisstore

import (
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/store"
)

// lastParts takes every composite key into account, wherever it stands
// among single-part ones.
func TestLastPartsOfKeys(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want map[string]string
	}{
		{"single-part keys", []string{store.Key(1), store.Key(2)}, nil},
		{"composite", []string{store.Key(1, 2, 3), store.Key(1, 2, 9), store.Key(1, 3, 1)},
			map[string]string{store.Key(1, 2): store.Key(9), store.Key(1, 3): store.Key(1)}},
		{"mixed, composite not first", []string{store.Key(1), store.Key(1, 1, 5)},
			map[string]string{store.Key(1, 1): store.Key(5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lastParts(tt.keys); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lastParts(%v) = %v, want %v", tt.keys, got, tt.want)
			}
		})
	}
}
