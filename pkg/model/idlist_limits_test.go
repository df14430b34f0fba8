package model

import (
	"runtime"
	"strings"
	"testing"
)

// A hostile id list ("1,1,1,…" of megabytes) is refused at once, with a
// message that names the limit and says to write ranges, and without
// costing memory in proportion to its items; a long list of ranges
// within the limits still parses.
func TestIDListLimits(t *testing.T) {
	cases := []struct {
		name, list, want string
	}{
		{"bytes", strings.Repeat("1,", MaxIDListBytes/2+1) + "1", "bytes long"},
		{"items", strings.Repeat("1,", MaxIDListEntries) + "1", "items"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err := ParseIDList("loadCaseList", c.list)
			runtime.ReadMemStats(&after)
			if err == nil || KindOf(err) != KindValidation || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "ranges") {
				t.Fatalf("err %v, want a validation error about %s", err, c.want)
			}
			if len(err.Error()) > 300 {
				t.Errorf("the message repeats the list: %d bytes", len(err.Error()))
			}
			// At most the ranges of the items read before the limit (16
			// bytes each, doubled by append's growth, and a sort): a
			// bound per item allowed, not per byte sent.
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 100*uint64(MaxIDListEntries) {
				t.Errorf("parsing allocated %d bytes", grown)
			}
		})
	}
	ok := strings.Repeat("1-3,", 1000) + "5"
	if list, some, err := ParseIDList("x", ok); err != nil || !some || list.String() != "1-3,5" || list.Entries != 1001 {
		t.Errorf("a long list within the limits: %v %v %v", list, some, err)
	}
}
