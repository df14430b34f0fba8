package sgtext

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Imported is what a text file holds for a new job.
type Imported struct {
	Snapshot store.Snapshot
	// Warnings say what of the file the service has no place for: one
	// per group skipped (or per kind of data dropped), for a person.
	Warnings []string
	// lines are the lines that gave each row: collection → key → line.
	lines map[string]map[string]int
}

// Explain restates err, when it is a rule a row broke (model.RowError)
// in checks made after Read, as the error of the line that gave the
// row; other errors pass unchanged.
func (imp Imported) Explain(err error) error {
	var re *model.RowError
	if !errors.As(err, &re) {
		return err
	}
	if line, ok := imp.lines[re.Coll][re.Key]; ok {
		return lineError(line, "%s", re.Problem)
	}
	return err
}

// headerRE is the first line of every file.
var headerRE = regexp.MustCompile(`(?i)^\s*SPACE\s*GASS\s+Text\s+File\s*-\s*Version\s+\d{1,9}(\.\d{1,9})?\s*$`)

// Read reads a text file into the snapshot of a new job. Every refusal
// is a model.KindValidation error that names the line. Read checks each
// record's own field rules and that what a line refers to is defined;
// the model-wide rules are the job-file checks the session applies to
// every job it opens.
func Read(r io.Reader) (Imported, error) {
	lr := newLineReader(r)
	first, err := lr.physical()
	if errors.Is(err, io.EOF) {
		return Imported{}, lineError(1, "the file is empty; a text file starts with the line SPACE GASS Text File - Version N")
	}
	if err != nil {
		return Imported{}, err
	}
	if !headerRE.MatchString(strings.TrimPrefix(first, "\ufeff")) {
		return Imported{}, lineError(1, "the file does not start with the header SPACE GASS Text File - Version N (N a number), so it is not a text file of this format")
	}
	b := newBuilder()
	var cur *group
	for {
		s, line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Imported{}, err
		}
		if b.shape.active() {
			if !endsShapes(s) {
				if err := b.skipShapeLine(s, line); err != nil {
					return Imported{}, err
				}
				continue
			}
			// Files from other writers declare shapes they do not give:
			// the next title ends them.
			b.shape = shapeSkip{}
		}
		if isLetter(s[0]) {
			if strings.EqualFold(strings.TrimSpace(s), "END") {
				break
			}
			if isUnits(s) {
				u, err := parseUnits(strings.TrimSpace(s)[5:], line)
				if err != nil {
					return Imported{}, err
				}
				b.setUnits(u)
				cur = nil
				continue
			}
			if g := groupOf(s); g != nil {
				cur, b.tables, b.lastRec = g, nil, last{}
				continue
			}
			if name, ok := skippedGroup(s); ok {
				b.warn(name, fmt.Sprintf("the %s data (from line %d) has no place in this service and was skipped", name, line))
				cur = &group{title: name, skip: true}
				continue
			}
			if cur == nil || !cur.freeText && !cur.letters {
				return Imported{}, lineError(line, "%q is not a group title this service reads (the title's first six characters count); the groups are %s",
					firstWord(s), groupList())
			}
		}
		if cur == nil {
			return Imported{}, lineError(line, "a data line before any group title; start the group with its title line (e.g. NODES)")
		}
		if cur.skip {
			continue
		}
		rw := &row{group: cur.title, line: line}
		if cur.freeText && s[0] != '"' {
			rw.items = []string{s}
		} else if rw.items, err = splitItems(s, line); err != nil {
			return Imported{}, err
		}
		cur.read(b, rw)
		if rw.err != nil {
			return Imported{}, rw.err
		}
	}
	if b.shape.active() {
		return Imported{}, lineError(lr.line, "the file ends inside the shape lines of section %d: the file is cut short", b.shape.of)
	}
	return b.finish()
}

// endsShapes is true for a line that cannot be a shape line: a title,
// UNITS or END (shape lines are numbers).
func endsShapes(s string) bool {
	if !isLetter(s[0]) {
		return false
	}
	_, skipped := skippedGroup(s)
	return isUnits(s) || strings.EqualFold(strings.TrimSpace(s), "END") || groupOf(s) != nil || skipped
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func isUnits(s string) bool {
	return len(s) >= 5 && strings.EqualFold(s[:5], "UNITS") && (len(s) == 5 || s[5] == ' ' || s[5] == '\t')
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " ,\t"); i > 0 {
		s = s[:i]
	}
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

// titleKey is what recognises a title line: its first six characters.
func titleKey(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if r := []rune(s); len(r) > 6 {
		s = string(r[:6])
	}
	return strings.TrimSpace(s)
}

// entry is a record read from the file with the line that gave it.
type entry struct {
	rec  any
	line int
}

// refCheck is a reference of a line to a row of another group.
type refCheck struct {
	coll, noun, field string
	id                int64
	line              int
}

// builder collects the records of a file; a later line with the key of an
// earlier one overrides it, as the format says.
type builder struct {
	units    model.Units
	conv     converter
	unitLine bool
	job      model.Job
	rows     map[string]map[string]entry
	refs     []refCheck
	// caseRefs are the load cases lines use, with the first line that does.
	caseRefs map[int64]int
	catRefs  map[int64]int
	combos   map[int64][]model.CombinationItem
	comboAt  map[int64]int
	headings int // heading lines read
	warnings []string
	warned   map[string]bool
	subLoads map[string]int64
	shape    shapeSkip
	tables   *tableState
	lastRec  last
}

func newBuilder() *builder {
	b := &builder{job: model.NewJob(), rows: map[string]map[string]entry{}, caseRefs: map[int64]int{}, catRefs: map[int64]int{},
		combos: map[int64][]model.CombinationItem{}, comboAt: map[int64]int{}, warned: map[string]bool{}, subLoads: map[string]int64{}}
	b.setUnits(model.DefaultUnits())
	return b
}

func (b *builder) setUnits(u model.Units) {
	b.units, b.conv, b.unitLine = u, newConverter(u), true
	b.job.Units = u
}

func (b *builder) warn(key, msg string) {
	if !b.warned[key] {
		b.warned[key] = true
		b.warnings = append(b.warnings, msg)
	}
}

// put keeps rec under its key once it meets its own field rules.
func storeKey(ids ...int64) string { return store.Key(ids...) }

func (b *builder) put(r *row, coll string, rec any, keys ...int64) {
	if r.err != nil {
		return
	}
	if errs := model.CheckFields(rec); len(errs) > 0 {
		r.err = lineError(r.line, "%s: %s", r.group, errs[0].Message)
		return
	}
	m := b.rows[coll]
	if m == nil {
		m = map[string]entry{}
		b.rows[coll] = m
	}
	m[store.Key(keys...)] = entry{rec: rec, line: r.line}
}

func (b *builder) ref(r *row, coll, noun, field string, id int64) {
	if id != 0 && r.err == nil {
		b.refs = append(b.refs, refCheck{coll: coll, noun: noun, field: field, id: id, line: r.line})
	}
}

// useCase notes a line's load case and category.
func (b *builder) useCase(r *row, lc, cat int64) {
	if r.err != nil {
		return
	}
	if _, ok := b.caseRefs[lc]; !ok {
		b.caseRefs[lc] = r.line
	}
	if _, ok := b.catRefs[cat]; !ok && cat != 0 {
		b.catRefs[cat] = r.line
	}
}

// finish completes the load cases and categories the lines use, checks
// references and encodes the rows as the editor stores them.
func (b *builder) finish() (Imported, error) {
	cases := b.rows[model.CollLoadCases]
	if cases == nil {
		cases = map[string]entry{}
		b.rows[model.CollLoadCases] = cases
	}
	for lc, line := range b.caseRefs {
		if _, ok := cases[store.Key(lc)]; !ok {
			cases[store.Key(lc)] = entry{rec: &model.LoadCase{ID: lc, Title: fmt.Sprintf("Load case %d", lc)}, line: line}
		}
	}
	for lc, items := range b.combos {
		e, ok := cases[store.Key(lc)]
		if !ok {
			e = entry{rec: &model.LoadCase{ID: lc, Title: fmt.Sprintf("Load case %d", lc)}, line: b.comboAt[lc]}
			cases[store.Key(lc)] = e
		}
		e.rec.(*model.LoadCase).CombinationItems = items
		for _, it := range items {
			if _, ok := cases[store.Key(it.LoadCase)]; !ok {
				return Imported{}, lineError(b.comboAt[lc], "COMBINATIONS: combination case %d uses load case %d, which the file does not define", lc, it.LoadCase)
			}
		}
	}
	if len(cases) == 0 {
		delete(b.rows, model.CollLoadCases)
	}
	cats := b.rows[model.CollLoadCategories]
	for cat, line := range b.catRefs {
		if cats == nil {
			cats = map[string]entry{}
			b.rows[model.CollLoadCategories] = cats
		}
		if _, ok := cats[store.Key(cat)]; !ok {
			cats[store.Key(cat)] = entry{rec: &model.LoadCategory{ID: cat, Title: fmt.Sprintf("Category %d", cat)}, line: line}
		}
	}
	sort.SliceStable(b.refs, func(i, j int) bool { return b.refs[i].line < b.refs[j].line })
	for _, rc := range b.refs {
		if _, ok := b.rows[rc.coll][store.Key(rc.id)]; !ok {
			return Imported{}, lineError(rc.line, "%s refers to %s %d, which the file does not define", rc.field, rc.noun, rc.id)
		}
	}
	snap := store.Snapshot{Job: b.job, Collections: map[string][]store.Row{}}
	lines := make(map[string]map[string]int, len(b.rows))
	for coll, m := range b.rows {
		rows := make([]store.Row, 0, len(m))
		lm := make(map[string]int, len(m))
		lines[coll] = lm
		for k, e := range m {
			lm[k] = e.line
			v, err := editor.EncodeRecord(deref(e.rec))
			if err != nil {
				return Imported{}, lineError(e.line, "%v", err)
			}
			rows = append(rows, store.Row{Key: k, Value: v})
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].Key < rows[j].Key })
		snap.Collections[coll] = rows
	}
	return Imported{Snapshot: snap, Warnings: b.warnings, lines: lines}, nil
}
