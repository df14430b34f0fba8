package model

import (
	"strings"
	"testing"
)

func TestFormatCount(t *testing.T) {
	for _, c := range []struct {
		n     int64
		bytes bool
		want  string
	}{
		{0, false, "0"},
		{999, false, "999"},
		{1000, false, "1,000"},
		{500000, false, "500,000"},
		{-1234567, false, "-1,234,567"},
		{512, true, "512"},
		{1 << 30, true, "1,073,741,824 (1 GiB)"},
		{3 << 19, true, "1,572,864 (1.5 MiB)"},
	} {
		if got := FormatCount(c.n, c.bytes); got != c.want {
			t.Errorf("FormatCount(%d, %v) = %q, want %q", c.n, c.bytes, got, c.want)
		}
	}
}

// A workspace's own limits replace the defaults one by one; the rest stay.
func TestLimitsOverAndCheck(t *testing.T) {
	base := DefaultLimits()
	l := Limits{Nodes: 10}.Over(base)
	if l.Nodes != 10 || l.Members != base.Members || l.JobFileBytes != base.JobFileBytes {
		t.Errorf("Over = %+v", l)
	}
	for _, d := range LimitDefs {
		if l.Of(d) <= 0 || d.Setting == "" || d.Name == "" || d.Noun == "" {
			t.Errorf("limit %+v has no default, variable, name or noun", d)
		}
	}
	if err := l.CheckCounts(map[string]int64{CollNodes: 10, CollMembers: 1}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	err := l.CheckCounts(map[string]int64{CollNodes: 11})
	if KindOf(err) != KindLimitExceeded || !strings.Contains(err.Error(), "at most 10 nodes (limit nodes, set by MAX_NODES") ||
		!strings.Contains(err.Error(), "would make it 11") {
		t.Errorf("over the limit: %v", err)
	}
	if err := (Limits{Plates: -1}).Validate(); KindOf(err) != KindValidation {
		t.Errorf("a negative limit: %v", err)
	}
}
