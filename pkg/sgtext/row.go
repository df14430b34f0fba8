package sgtext

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/model"
)

// maxID is the greatest id a collection key holds.
const maxID = 9_999_999_999

// row is one data line being read: its items and the first thing wrong
// with it, so that a group's reader reads every item in turn and checks
// once.
type row struct {
	group string
	line  int
	items []string
	err   error
}

func (r *row) fail(i int, name, format string, args ...any) {
	if r.err == nil {
		r.err = lineError(r.line, "%s item %d (%s): %s", r.group, i+1, name, fmt.Sprintf(format, args...))
	}
}

func (r *row) raw(i int) string {
	if i < len(r.items) {
		return r.items[i]
	}
	return ""
}

// need refuses a line with fewer than n items.
func (r *row) need(n int, layout string) {
	if len(r.items) < n && r.err == nil {
		r.err = lineError(r.line, "a %s line needs at least %d items (%s), this one has %d: the line is cut short",
			r.group, n, layout, len(r.items))
	}
}

// most refuses a line with more than n items.
func (r *row) most(n int, layout string) {
	if len(r.items) > n && r.err == nil {
		r.err = lineError(r.line, "a %s line has at most %d items (%s), this one has %d", r.group, n, layout, len(r.items))
	}
}

// maxName is the longest name (of a section, a material, a library, a
// mark) a line may give: a record's line must fit the continued-line
// limit when the service writes it back with every property.
const maxName = 255

// text reads a name of at most maxName characters.
func (r *row) text(i int, name string) string {
	s := r.raw(i)
	if n := utf8.RuneCountInString(s); n > maxName {
		r.fail(i, name, "at most %d characters, got %d", maxName, n)
	}
	return s
}

// writtenLen is how many characters a text item takes when written.
func writtenLen(s string) int {
	return utf8.RuneCountInString(s) + strings.Count(s, `"`) + strings.Count(s, "\n") + 2
}

// num reads a real number; an empty item is 0.
func (r *row) num(i int, name string) float64 {
	s := r.raw(i)
	if s == "" {
		return 0
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		r.fail(i, name, "%q is not a number", s)
		return 0
	}
	return x
}

// si reads a real number in the file's units and returns it in SI,
// multiplied by factor; a result beyond model.MaxMagnitude is refused
// here, where the line can be named.
func (r *row) si(i int, name string, factor float64) float64 {
	x := r.num(i, name) * factor
	switch a := math.Abs(x); {
	case a > model.MaxMagnitude*(1+1e-14) || math.IsInf(x, 0):
		r.fail(i, name, "%s is beyond %g in SI units", r.raw(i), model.MaxMagnitude)
		return 0
	case a > model.MaxMagnitude:
		// The limit itself, written in other units and read back: the
		// 15 digits of the file may land a rounding above it.
		return math.Copysign(model.MaxMagnitude, x)
	}
	return x
}

// int reads an integer; an empty item is 0.
func (r *row) int(i int, name string) int64 {
	s := r.raw(i)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		r.fail(i, name, "%q is not a whole number", s)
	}
	return n
}

// id reads a required id of 1..maxID.
func (r *row) id(i int, name string) int64 {
	if r.raw(i) == "" {
		r.fail(i, name, "the number is missing")
		return 0
	}
	n := r.ref(i, name)
	if n == 0 {
		r.fail(i, name, "0 is no number of an item; numbers start at 1")
	}
	return n
}

// ref reads an optional id: 0 or empty for none, else 1..maxID.
func (r *row) ref(i int, name string) int64 {
	n := r.int(i, name)
	if n < 0 || n > maxID {
		r.fail(i, name, "%d is not a number from 1 to %d", n, int64(maxID))
		return 0
	}
	return n
}

// zero refuses generation items this service does not expand.
func (r *row) zero(i int, name string) {
	if s := r.raw(i); s != "" && s != "0" {
		r.fail(i, name, "generating further items from a line is not supported; write each item on a line of its own")
	}
}

// code is a one-letter (or short) choice of the format and the value the
// model stores for it.
type code struct{ file, value string }

// pick reads a choice from codes; an empty item is def.
func (r *row) pick(i int, name string, codes []code, def string) string {
	s := r.raw(i)
	if s == "" {
		return def
	}
	for _, c := range codes {
		if strings.EqualFold(s, c.file) {
			return c.value
		}
	}
	r.fail(i, name, "%q is not one of %s", s, codeList(codes))
	return def
}

func codeList(codes []code) string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = c.file
	}
	return strings.Join(out, ", ")
}

// fileCode is the file's spelling of a model value (def when the value
// has none).
func fileCode(codes []code, value, def string) string {
	for _, c := range codes {
		if c.value == value {
			return c.file
		}
	}
	return def
}

// writer writes the lines of a file.
type writer struct {
	w     *bufio.Writer
	items []string
	err   error
}

func (w *writer) line(s string) {
	if w.err == nil {
		_, w.err = w.w.WriteString(s + "\n")
	}
}

func (w *writer) int(v int64) { w.items = append(w.items, strconv.FormatInt(v, 10)) }

// num writes a real number to 15 significant digits, the format's
// precision.
func (w *writer) num(v float64) {
	if v == 0 {
		v = 0 // no "-0"
	}
	w.items = append(w.items, strconv.FormatFloat(v, 'G', 15, 64))
}

// si writes an SI value in the file's units (factor as converter.factor).
func (w *writer) si(v, factor float64) { w.num(v / factor) }

func (w *writer) code(s string) { w.items = append(w.items, s) }

// text writes a quoted item; a line break becomes ||, as the format
// writes one inside a text.
func (w *writer) text(s string) {
	s = strings.ReplaceAll(s, "\n", "||")
	w.items = append(w.items, `"`+strings.ReplaceAll(s, `"`, `""`)+`"`)
}

// end writes the items as one line, continued with & over as many
// physical lines as the line limit needs. A cut never puts a space at
// the start of a physical line, which the reader would drop.
func (w *writer) end() {
	s := []rune(strings.Join(w.items, ","))
	w.items = w.items[:0]
	for len(s) > MaxLineChars {
		p := MaxLineChars - 1
		for p > 1 && (s[p] == ' ' || s[p] == '\t') {
			p--
		}
		w.line(string(s[:p]) + "&")
		s = s[p:]
	}
	w.line(string(s))
}

// textItem reads a text item, || standing for a line break, and refuses
// one longer than max characters.
func (r *row) textItem(i int, name string, max int) string {
	s := strings.ReplaceAll(r.raw(i), "||", "\n")
	if n := utf8.RuneCountInString(s); n > max {
		r.fail(i, name, "at most %d characters, got %d", max, n)
	}
	return s
}
