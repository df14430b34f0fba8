package model

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Fuzz tests of the id list parser and formatter. `go test` runs their
// seeds; `make fuzz` fuzzes them.

var idListSeeds = []string{
	"", " ", "1", "1,3-7,10", "10,3-7,1", "3-7,5-9", "1-3,4-6", "1-3,5", "7-7", "5-3", "0", "-1", "1-",
	"-", ",", "1,,2", "1,", " 1 , 2 - 4 ", "2147483647", "2147483648", "1-2147483647", "2147483646-2147483647,1",
	"+5", "007", "1--2", "1-+3", "1 2", "1.5", "0x10", "1e3", "9223372036854775807", "9223372036854775808",
	"1-3,2-4,3-5,10-20,15-16", "\t1\n", "\u00a01\u00a0", "1,2,3,4,5,6,7,8,9", "100-200,1-99,201",
}

// refItem is one item as written, parsed on its own.
type refItem struct{ lo, hi int64 }

// refItems parses the items of s independently of ParseIDList's merging,
// for a list ParseIDList accepted.
func refItems(t *testing.T, s string) []refItem {
	t.Helper()
	var out []refItem
	for _, item := range strings.Split(strings.TrimSpace(s), ",") {
		lo, hi, found := strings.Cut(strings.TrimSpace(item), "-")
		a, err := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		if err != nil {
			t.Fatalf("ParseIDList accepted %q, but its item %q does not start with an integer", s, item)
		}
		b := a
		if found {
			if b, err = strconv.ParseInt(strings.TrimSpace(hi), 10, 64); err != nil {
				t.Fatalf("ParseIDList accepted %q, but its item %q does not end with an integer", s, item)
			}
		}
		out = append(out, refItem{a, b})
	}
	return out
}

// checkList checks the invariants of a parsed list: ranges sorted,
// disjoint, not adjacent, each within 1..MaxID.
func checkList(t *testing.T, in string, l IDList) {
	t.Helper()
	if len(l.Ranges) == 0 {
		t.Fatalf("%q: a list without ranges", in)
	}
	for i, r := range l.Ranges {
		if r.Lo < 1 || r.Hi > MaxID || r.Lo > r.Hi {
			t.Fatalf("%q: range %d %v outside 1..%d or backwards: %v", in, i, r, MaxID, l.Ranges)
		}
		if i > 0 && r.Lo <= l.Ranges[i-1].Hi+1 {
			t.Fatalf("%q: ranges %v and %v overlap or touch: %v", in, l.Ranges[i-1], r, l.Ranges)
		}
	}
}

// probes are the ids around each item's ends and the list's bounds.
func probes(items []refItem) []int64 {
	ps := []int64{0, 1, 2, MaxID - 1, MaxID, MaxID + 1}
	for _, it := range items {
		ps = append(ps, it.lo-1, it.lo, it.lo+1, it.hi-1, it.hi, it.hi+1, (it.lo+it.hi)/2)
	}
	return ps
}

// FuzzParseIDList: the parser never panics; what it accepts is a valid
// list (sorted, disjoint, not adjacent, within 1..MaxID) with one entry
// per item as written, whose Contains agrees with the items themselves,
// and whose String parses back to the same list.
func FuzzParseIDList(f *testing.F) {
	for _, s := range idListSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, ok, err := ParseIDList("ids", s)
		if strings.TrimSpace(s) == "" {
			if ok || err != nil || len(l.Ranges) != 0 {
				t.Fatalf("blank %q: %v, ok %v, err %v; want all (ok false, no error)", s, l, ok, err)
			}
			return
		}
		if err != nil {
			if ok || len(l.Ranges) != 0 {
				t.Fatalf("%q: error %v with ok %v and list %v", s, err, ok, l)
			}
			if KindOf(err) != KindValidation {
				t.Fatalf("%q: error of kind %d, want validation: %v", s, KindOf(err), err)
			}
			return
		}
		if !ok {
			t.Fatalf("%q: no error but ok false", s)
		}
		checkList(t, s, l)
		items := refItems(t, s)
		if l.Entries != len(items) {
			t.Fatalf("%q: Entries %d, the text has %d items", s, l.Entries, len(items))
		}
		for _, id := range probes(items) {
			want := false
			for _, it := range items {
				want = want || it.lo <= id && id <= it.hi
			}
			if got := l.Contains(id); got != want {
				t.Fatalf("%q: Contains(%d) = %v, the items say %v (ranges %v)", s, id, got, want, l.Ranges)
			}
		}
		text := l.String()
		if text != FormatIDs(nil, l.Ranges) {
			t.Fatalf("%q: String %q differs from FormatIDs %q", s, text, FormatIDs(nil, l.Ranges))
		}
		back, ok, err := ParseIDList("ids", text)
		if err != nil || !ok || !reflect.DeepEqual(back.Ranges, l.Ranges) {
			t.Fatalf("%q → %v → %q → %v (ok %v, err %v): no round trip", s, l.Ranges, text, back.Ranges, ok, err)
		}
		if back.Entries != len(l.Ranges) {
			t.Fatalf("%q: the formatted %q has %d entries, want one per range (%d)", s, text, back.Entries, len(l.Ranges))
		}
		if again := back.String(); again != text {
			t.Fatalf("%q: formatting is not canonical: %q then %q", s, text, again)
		}
	})
}

// FuzzFormatIDs: any ids and ranges (within 1..MaxID, in any order,
// overlapping or not) format to a list that parses back to their union.
func FuzzFormatIDs(f *testing.F) {
	le := func(vs ...uint32) []byte {
		b := make([]byte, 0, 4*len(vs))
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		return b
	}
	f.Add(le(1, 2, 3), le(5, 9))
	f.Add(le(), le(1, 3, 4, 6))
	f.Add(le(10, 1, 5), le(2, 4, 3, 8, 20, 20))
	f.Add(le(MaxID, MaxID-1), le(MaxID-5, MaxID))
	f.Add(le(7, 7, 7), le())
	f.Add(le(1), le(1, MaxID))
	f.Fuzz(func(t *testing.T, idBytes, rangeBytes []byte) {
		clamp := func(v uint32) int64 { return int64(v)%MaxID + 1 }
		var ids []int64
		for i := 0; i+4 <= len(idBytes); i += 4 {
			ids = append(ids, clamp(binary.LittleEndian.Uint32(idBytes[i:])))
		}
		var ranges []IDRange
		for i := 0; i+8 <= len(rangeBytes); i += 8 {
			a, b := clamp(binary.LittleEndian.Uint32(rangeBytes[i:])), clamp(binary.LittleEndian.Uint32(rangeBytes[i+4:]))
			ranges = append(ranges, IDRange{min(a, b), max(a, b)})
		}
		in := append([]IDRange(nil), ranges...)
		text := FormatIDs(ids, ranges)
		if !reflect.DeepEqual(in, ranges) {
			t.Fatalf("FormatIDs changed its ranges argument: %v → %v", in, ranges)
		}
		if len(ids) == 0 && len(ranges) == 0 {
			if text != "" {
				t.Fatalf("nothing formats as %q", text)
			}
			return
		}
		l, ok, err := ParseIDList("ids", text)
		if err != nil || !ok {
			t.Fatalf("FormatIDs(%v, %v) = %q, which does not parse: ok %v, %v", ids, ranges, text, ok, err)
		}
		checkList(t, text, l)
		items := make([]refItem, 0, len(ids)+len(ranges))
		for _, id := range ids {
			items = append(items, refItem{id, id})
		}
		for _, r := range ranges {
			items = append(items, refItem{r.Lo, r.Hi})
		}
		for _, id := range probes(items) {
			want := false
			for _, it := range items {
				want = want || it.lo <= id && id <= it.hi
			}
			if got := l.Contains(id); got != want {
				t.Fatalf("FormatIDs(%v, %v) = %q: Contains(%d) = %v, want %v", ids, ranges, text, id, got, want)
			}
		}
		if l.Entries != len(l.Ranges) || l.String() != text {
			t.Fatalf("FormatIDs(%v, %v) = %q is not canonical: parses to %v (%d entries), formats as %q", ids, ranges, text, l.Ranges, l.Entries, l.String())
		}
	})
}
