package model

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MaxID is the largest id any resource may have (spec: 1 to 2147483647).
const MaxID = 2147483647

// MaxMagnitude bounds every stored number (SI): far beyond any physical
// quantity of a structure, far enough below the float64 range that every
// unit conversion of it stays finite.
const MaxMagnitude = 1e20

// IDRange is an inclusive range of ids.
type IDRange struct{ Lo, Hi int64 }

// IDList is a parsed id list ("1,3-7,10"): sorted, merged ranges.
type IDList struct {
	Ranges []IDRange
	// Entries counts the items as written: a number or a range is one.
	Entries int
}

// Limits of an id list: its text and its items as written. A list that
// names more ids than this says them as ranges ("1-100000"); the limits
// keep a hostile list ("1,1,1,…" of 60 MB) from costing gigabytes.
const (
	MaxIDListBytes   = 1 << 20
	MaxIDListEntries = 100_000
)

// ParseIDList parses the id list format of the spec: comma-separated items,
// each an integer or a range "low-high". Blank means "all" and returns
// ok=false. field names the parameter in error messages.
func ParseIDList(field, s string) (list IDList, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return IDList{}, false, nil
	}
	if len(s) > MaxIDListBytes {
		return IDList{}, false, Invalid(field, "%s: the id list is %d bytes long, more than the %d allowed: write runs of ids as ranges (1-5000)",
			field, len(s), MaxIDListBytes)
	}
	// Items one at a time, so that a long list costs no slice of them.
	for rest, more := s, true; more; {
		var item string
		item, rest, more = strings.Cut(rest, ",")
		if list.Entries == MaxIDListEntries {
			return IDList{}, false, Invalid(field, "%s: the id list has more than %d items: write runs of ids as ranges (1-5000)",
				field, MaxIDListEntries)
		}
		item = strings.TrimSpace(item)
		if item == "" {
			return IDList{}, false, Invalid(field, "%s: empty item (number %d) in the id list", field, list.Entries+1)
		}
		lo, hi, found := strings.Cut(item, "-")
		a, err1 := parseID(lo)
		b := a
		var err2 error
		if found {
			b, err2 = parseID(hi)
		}
		if err1 != nil || err2 != nil {
			return IDList{}, false, Invalid(field, "%s: %q is not an id or a range like 3-7 (ids are 1 to %d)", field, item, MaxID)
		}
		if b < a {
			return IDList{}, false, Invalid(field, "%s: range %q runs backwards", field, item)
		}
		list.Ranges = append(list.Ranges, IDRange{a, b})
		list.Entries++
	}
	sort.Slice(list.Ranges, func(i, j int) bool { return list.Ranges[i].Lo < list.Ranges[j].Lo })
	merged := list.Ranges[:1]
	for _, r := range list.Ranges[1:] {
		last := &merged[len(merged)-1]
		if r.Lo <= last.Hi+1 {
			last.Hi = max(last.Hi, r.Hi)
			continue
		}
		merged = append(merged, r)
	}
	list.Ranges = merged
	return list, true, nil
}

func parseID(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 || n > MaxID {
		return 0, fmt.Errorf("bad id %q", s)
	}
	return n, nil
}

// Contains reports whether id is in the list.
func (l IDList) Contains(id int64) bool {
	i := sort.Search(len(l.Ranges), func(i int) bool { return l.Ranges[i].Hi >= id })
	return i < len(l.Ranges) && l.Ranges[i].Lo <= id
}

// String formats the list in the wire format, e.g. "1,3-7,10".
func (l IDList) String() string {
	return FormatIDs(nil, l.Ranges)
}

// FormatIDs writes sorted ids (and ranges) as an id list string, folding
// runs of consecutive ids into ranges.
func FormatIDs(ids []int64, ranges []IDRange) string {
	rs := append([]IDRange(nil), ranges...)
	for _, id := range ids {
		rs = append(rs, IDRange{id, id})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	var b strings.Builder
	for i := 0; i < len(rs); {
		lo, hi := rs[i].Lo, rs[i].Hi
		j := i + 1
		for j < len(rs) && rs[j].Lo <= hi+1 {
			hi = max(hi, rs[j].Hi)
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(lo, 10))
		if hi > lo {
			b.WriteByte('-')
			b.WriteString(strconv.FormatInt(hi, 10))
		}
		i = j
	}
	return b.String()
}
