package library

import (
	"math"
	"sort"
	"strconv"
)

// maxSuggestions is how many names a miss suggests at most.
const maxSuggestions = 5

// candidate is one name a miss may suggest: its normalised forms and the
// name shown. forms[i] is compared only with the query's forms[i]; an empty
// form takes no part (an Aust300 name whose structured key does not parse).
type candidate struct {
	forms []string
	show  string
}

// suggest returns up to maxSuggestions names of cands closest to a query
// whose normalised forms are q, best first. A candidate's distance is the
// smallest edit distance (Levenshtein, in runes) between a query form and
// the candidate's form of the same index. For a query form of n runes a
// candidate is kept when that distance is at most max(2, n/4), or when the
// two share a prefix of at least max(3, ⌈2n/3⌉) runes: designations are
// hierarchical (family, depth, then weight), so "360 UB 45" still offers
// 360UB50.7, while a name far from everything gets no noise. Ties go to the
// longer common prefix, then to the number nearer the query's at the first
// difference ("W14X91": W14X90 before W14X99), then to catalogue order. A
// name shown by several candidates (aliases) counts once, at its best.
func suggest(q []string, cands []candidate) []string {
	type scored struct {
		show         string
		dist, prefix int
		gap          float64
		order        int
	}
	best := map[string]scored{}
	for i, c := range cands {
		s := scored{show: c.show, dist: math.MaxInt, order: i}
		for j, f := range c.forms {
			if j >= len(q) || f == "" || q[j] == "" {
				continue
			}
			qr, fr := []rune(q[j]), []rune(f)
			d, p := editDistance(q[j], f), commonPrefix(qr, fr)
			keep := d <= max(2, len(qr)/4) || p >= max(3, (2*len(qr)+2)/3)
			if !keep {
				continue
			}
			if d < s.dist || (d == s.dist && p > s.prefix) {
				s.dist, s.prefix, s.gap = d, p, numberGap(qr, fr, p)
			}
		}
		if s.dist == math.MaxInt {
			continue
		}
		if b, ok := best[c.show]; !ok || s.dist < b.dist || (s.dist == b.dist && s.prefix > b.prefix) {
			if ok {
				s.order = b.order
			}
			best[c.show] = s
		}
	}
	list := make([]scored, 0, len(best))
	for _, s := range best {
		list = append(list, s)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		switch {
		case a.dist != b.dist:
			return a.dist < b.dist
		case a.prefix != b.prefix:
			return a.prefix > b.prefix
		case a.gap != b.gap:
			return a.gap < b.gap
		}
		return a.order < b.order
	})
	out := []string{}
	for i := 0; i < len(list) && i < maxSuggestions; i++ {
		out = append(out, list[i].show)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b in runes.
func editDistance(a, b string) int {
	ar, br := []rune(a), []rune(b)
	prev := make([]int, len(br)+1)
	cur := make([]int, len(br)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ar); i++ {
		cur[0] = i
		for j := 1; j <= len(br); j++ {
			sub := prev[j-1]
			if ar[i-1] != br[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(br)]
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// numberGap compares the numbers that a and b hold where they first differ
// (at p): both read from the start of the digit run that p falls in. It is
// +Inf when either has no number there.
func numberGap(a, b []rune, p int) float64 {
	isNum := func(r rune) bool { return r == '.' || (r >= '0' && r <= '9') }
	start := p
	for start > 0 && isNum(a[start-1]) {
		start--
	}
	read := func(r []rune) (float64, bool) {
		end := start
		for end < len(r) && isNum(r[end]) {
			end++
		}
		v, err := strconv.ParseFloat(string(r[start:end]), 64)
		return v, err == nil
	}
	x, okA := read(a)
	y, okB := read(b)
	if !okA || !okB {
		return math.Inf(1)
	}
	return math.Abs(x - y)
}
