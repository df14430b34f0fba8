package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Settings is a family's settings record: a struct whose fields carry the
// validator's tags (pkg/model, fields.go).
type Settings interface {
	// Validate checks every field and reports every failing one at once.
	Validate() error
}

// Family is a family of analyses whose results are stored together and
// queried through the same routes, with the settings record they share:
// linear and non-linear static analyses are one family.
type Family struct {
	// Name is the path segment of the family's settings and results-info
	// routes, and the name its results are stored under (in the store and
	// in job files).
	Name model.AnalysisFamily
	// QueryDir is the path segment of its result queries.
	QueryDir string
	// Noun names the family in summaries ("static analysis").
	Noun string
	// StatusFlag is the JSON name of the job status flag that says
	// whether the job holds the family's results ("hasStaticResults").
	StatusFlag string
	// SettingsName is the resourceType of the settings metadata.
	SettingsName string
	// SettingsDoc states the rules of the settings record that its field
	// tags do not.
	SettingsDoc string
	// SettingsLabels are the unit labels of unitless quantities
	// ("%", "Hz") for the settings metadata.
	SettingsLabels map[string]string
	// SettingsKey is the name of the family's record in a job's analysis
	// settings (model.AnalysisSettings), in the store and in job files.
	SettingsKey string
	// Default is the family's settings record in a new job; its dynamic
	// type is the family's record type. A record type may have an
	// Upgrade method (pointer receiver), applied to every stored record
	// as it is read, and a Normalize method, applied as one is stored.
	Default Settings
	// QueryDoc is what each of its result queries says besides its own
	// description.
	QueryDoc string
	// Queries are its result queries.
	Queries []ResultQuery
	// Cases reads the load cases of a stored meta record.
	Cases func(meta []byte) ([]model.CaseResultsInfo, error)
	// Check checks a result set a job file carries against the model the
	// file carries (see CheckResults).
	Check func(set store.ResultSet, colls map[string][]store.Row) error
}

// Kind is one analysis kind: what starts a run of it, which settings it
// reads, and how a worker solves it and stores the results.
type Kind interface {
	// Type is the analysisType of its runs, and the name tasks carry.
	Type() model.AnalysisType
	// Family is the family whose settings it reads and whose results it
	// stores.
	Family() *Family
	// Describe names the analysis for people ("linear static analysis").
	Describe() string
	// Start describes the route that starts a run.
	Start() StartRoute
	// Check refuses settings (the family's record with a run's overrides
	// applied) that a run of the kind cannot use, with a message naming
	// the field. It runs before a run is queued; a kind whose rules the
	// worker must see again (the settings may change while a run waits)
	// checks them in its Run.
	Check(s Settings) error
	// ResultBytes estimates the bytes a run with settings s would store
	// (columns and meta records) on the model a describes: the cases it
	// analyses × the rows and row sizes of the columns it stores (package
	// columns). It is held against the workspace's resultBytes limit
	// before the run is queued, so it errs on the large side.
	ResultBytes(s Settings, a Admission) int64
	// Run carries the run of t through r's lifecycle (Runner.Execute).
	Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error
}

// Admitter is a kind whose runs may ask for more than a workspace's
// limits allow (a non-linear run keeping its load steps): Admit refuses
// such a run before it is queued, with a KindLimitExceeded error naming
// the limit. Kinds whose runs no limit bounds need not implement it.
type Admitter interface {
	Admit(s Settings, a Admission) error
}

// Admission is what a run is admitted against.
type Admission struct {
	// Cases are the ids of the model's load and combination cases,
	// ascending, Step cases left out: those a run may analyse.
	Cases []int64
	// Counts are the model's rows by collection.
	Counts map[string]int64
	// Limits are the workspace's.
	Limits model.Limits
}

// Selected counts the cases of a a run whose loadCases list is list
// analyses: those the list contains, or every one when some is false.
func (a Admission) Selected(list model.IDList, some bool) int64 {
	if !some {
		return int64(len(a.Cases))
	}
	var n int64
	for _, id := range a.Cases {
		if list.Contains(id) {
			n++
		}
	}
	return n
}

// StartRoute is the route that starts a run of a kind.
type StartRoute struct {
	// Path is its path below the analysis routes ("static/run-linear").
	Path string
	// Summary and Doc document it.
	Summary string
	Doc     string
}

// Registry holds the analysis kinds a service runs. Register every kind
// before the registry is used; it is read-only from then on, and safe
// for concurrent reads.
type Registry struct {
	kinds    []Kind
	families []*Family
}

// Register adds k, and its family when it is the first of its family. A
// second kind of the same type, a second family of the same name, query
// path or settings key, or a family that cannot be stored (a name or key
// a job file cannot carry, no default settings record, or one that is not
// a struct) is a programming error and panics, as asynq's mux does for a
// pattern registered twice.
func (g *Registry) Register(k Kind) {
	if k == nil || k.Family() == nil {
		panic("analysis: Register of a nil kind or a kind without a family")
	}
	if g.Kind(k.Type()) != nil {
		panic(fmt.Sprintf("analysis: kind %s registered twice", k.Type()))
	}
	f := k.Family()
	if !slices.Contains(g.families, f) {
		if !storableName(string(f.Name), false) || !storableName(f.SettingsKey, true) || f.QueryDir == "" {
			panic(fmt.Sprintf("analysis: family %q (settings key %q, query path %q): the name takes lower-case letters and hyphens, "+
				"the settings key letters, and neither nor the query path may be empty", f.Name, f.SettingsKey, f.QueryDir))
		}
		if f.Default == nil || reflect.TypeOf(f.Default).Kind() != reflect.Struct {
			panic(fmt.Sprintf("analysis: family %s: its default settings record is a %T, not a struct", f.Name, f.Default))
		}
		for _, o := range g.families {
			if o.Name == f.Name || o.QueryDir == f.QueryDir || strings.EqualFold(o.SettingsKey, f.SettingsKey) {
				panic(fmt.Sprintf("analysis: two families named %s (query path %s, settings key %s)", f.Name, f.QueryDir, f.SettingsKey))
			}
		}
		g.families = append(g.families, f)
	}
	g.kinds = append(g.kinds, k)
}

// storableName reports whether s may name a family in a job file: its
// results folder takes lower-case letters and hyphens, its settings key
// (camel case) letters.
func storableName(s string, key bool) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
		case key && r >= 'A' && r <= 'Z':
		case !key && r == '-':
		default:
			return false
		}
	}
	return true
}

// Kinds lists the kinds in the order they were registered.
func (g *Registry) Kinds() []Kind { return slices.Clone(g.kinds) }

// Types lists the analysis types of the kinds, in the order they were
// registered.
func (g *Registry) Types() []model.AnalysisType {
	out := make([]model.AnalysisType, len(g.kinds))
	for i, k := range g.kinds {
		out[i] = k.Type()
	}
	return out
}

// Families lists the families in the order their first kind was
// registered: the order results are shown in.
func (g *Registry) Families() []*Family { return slices.Clone(g.families) }

// Handler implements lifecycle.Kinds: the kind of type t, as the worker
// runs it; nil when none is registered.
func (g *Registry) Handler(t model.AnalysisType) lifecycle.Handler {
	if k := g.Kind(t); k != nil {
		return k
	}
	return nil
}

var _ lifecycle.Kinds = (*Registry)(nil)

// Kind returns the kind of type t; nil when none is registered.
func (g *Registry) Kind(t model.AnalysisType) Kind {
	for _, k := range g.kinds {
		if k.Type() == t {
			return k
		}
	}
	return nil
}

// Family returns the family named name; nil when none is registered.
func (g *Registry) Family(name model.AnalysisFamily) *Family {
	for _, f := range g.families {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Describe names the analysis of type t for people; an unregistered type
// is shown as it is.
func (g *Registry) Describe(t model.AnalysisType) string {
	if k := g.Kind(t); k != nil {
		return k.Describe()
	}
	return string(t)
}

// DefaultSettings returns the settings record of family f in a new job.
func DefaultSettings(f *Family) Settings { return f.Default }

// Settings returns the family's settings record of a job: the stored one
// read over the defaults (a record stored by an earlier version lacks the
// fields added since), brought up to the present rules (Upgrade).
func (f *Family) Settings(a model.AnalysisSettings) (Settings, error) {
	p := reflect.New(reflect.TypeOf(f.Default))
	p.Elem().Set(reflect.ValueOf(f.Default))
	if raw, ok := a[f.SettingsKey]; ok {
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			return nil, fmt.Errorf("read the %s settings: %w", f.SettingsKey, err)
		}
	}
	if u, ok := p.Interface().(interface{ Upgrade() }); ok {
		u.Upgrade()
	}
	return p.Elem().Interface().(Settings), nil
}

// SetSettings stores s, a record of the family's type, as the family's
// settings of a, normalised (Normalize).
func (f *Family) SetSettings(a *model.AnalysisSettings, s Settings) error {
	if reflect.TypeOf(s) != reflect.TypeOf(f.Default) {
		return fmt.Errorf("store the %s settings: a %T is not a %T", f.SettingsKey, s, f.Default)
	}
	p := reflect.New(reflect.TypeOf(s))
	p.Elem().Set(reflect.ValueOf(s))
	if n, ok := p.Interface().(interface{ Normalize() }); ok {
		n.Normalize()
	}
	raw, err := json.Marshal(p.Interface())
	if err != nil {
		return fmt.Errorf("store the %s settings: %w", f.SettingsKey, err)
	}
	if *a == nil {
		*a = model.AnalysisSettings{}
	}
	(*a)[f.SettingsKey] = raw
	return nil
}

// SettingsOf returns the settings record of family f of a job, as type T
// (the family's record type).
func SettingsOf[T Settings](f *Family, a model.AnalysisSettings) (T, error) {
	var zero T
	s, err := f.Settings(a)
	if err != nil {
		return zero, err
	}
	t, ok := s.(T)
	if !ok {
		return zero, fmt.Errorf("the %s settings are a %T, not a %s", f.SettingsKey, s, reflect.TypeFor[T]())
	}
	return t, nil
}

// canonicalKeys returns a copy of a whose records are under their
// families' keys: a file written by hand may spell a key in another case
// ("Static"), which the records' readers accepted before they were kept
// per family. A record already under its key wins.
func (g *Registry) canonicalKeys(a model.AnalysisSettings) model.AnalysisSettings {
	out := a.Clone()
	for key, raw := range a {
		for _, f := range g.families {
			if key != f.SettingsKey && strings.EqualFold(key, f.SettingsKey) {
				if _, ok := a[f.SettingsKey]; !ok {
					out[f.SettingsKey] = raw
				}
				delete(out, key)
			}
		}
	}
	return out
}

// PrepareSave readies a snapshot of a job for its file: every family's
// settings record written out over its defaults, normalised (so that the
// file keeps the settings its job ran with, even should a later version
// change the defaults), and the results of families the registry does not
// know left out (this version could not open a file holding them). The
// records are not validated: what the job holds was checked when it was
// stored, and a save must not fail on rules tightened since.
func (g *Registry) PrepareSave(snap *store.Snapshot) {
	a := snap.Job.Analysis.Clone()
	for _, f := range g.families {
		// A record that cannot be read stays as it is, for the file to
		// carry and its opening to report.
		if s, err := f.Settings(a); err == nil {
			_ = f.SetSettings(&a, s) // s is of the family's type: SetSettings cannot refuse it
		}
	}
	snap.Job.Analysis = a
	for name := range snap.Results {
		if g.Family(name) == nil {
			delete(snap.Results, name)
		}
	}
}

// CheckSettings checks the analysis settings of a job file against the
// rules a PATCH meets, reporting every failing field of every family at
// once, named with its family's key ("buckling.modes"), and returns them
// with every family's record written out (a family the settings lack
// gets its defaults) and normalised: a saved file then keeps the settings
// its job ran with, even should a later version change the defaults.
// Records of families the registry does not know are kept as they are.
func (g *Registry) CheckSettings(a model.AnalysisSettings) (model.AnalysisSettings, error) {
	out := g.canonicalKeys(a)
	a = out.Clone()
	var fields []model.FieldError
	for _, f := range g.families {
		s, err := f.Settings(a)
		if err == nil {
			err = s.Validate()
		}
		var me *model.Error
		switch {
		case errors.As(err, &me) && len(me.Fields) > 0:
			for _, fe := range me.Fields {
				fields = append(fields, model.FieldError{Field: f.SettingsKey + "." + fe.Field, Message: fe.Message})
			}
			continue
		case err != nil:
			fields = append(fields, model.FieldError{Field: f.SettingsKey, Message: err.Error()})
			continue
		}
		if err := f.SetSettings(&out, s); err != nil {
			return nil, err
		}
	}
	if len(fields) > 0 {
		return nil, model.FieldsError(fields)
	}
	return out, nil
}

// RunSettings returns the settings record of family f that t runs with:
// the job's stored record with the run's overrides applied.
func RunSettings[T Settings](f *Family, t lifecycle.Task, job model.Job) (T, error) {
	base, err := SettingsOf[T](f, job.Analysis)
	if err != nil || len(t.Overrides) == 0 {
		return base, err
	}
	if err := json.Unmarshal(t.Overrides, &base); err != nil {
		return base, lifecycle.ModelError("the run's setting overrides cannot be read: %v", err)
	}
	return base, nil
}
