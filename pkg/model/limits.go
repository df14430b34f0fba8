package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits are the most one workspace may hold or ask for. Each field is a
// count (or bytes); zero means "not set here", so that a workspace's own
// limits (set by an administrator) can be laid over the service's
// defaults (set by environment) with Over.
type Limits struct {
	// Nodes, Members and Plates bound the rows of those collections.
	Nodes   int64 `json:"nodes,omitempty"`
	Members int64 `json:"members,omitempty"`
	Plates  int64 `json:"plates,omitempty"`
	// LoadCases bounds the load cases of the model, primary and
	// combination (generated moving-load cases included): each is a
	// case an analysis solves and stores results for.
	LoadCases int64 `json:"loadCases,omitempty"`
	// StepCases bounds the Step cases one non-linear run keeps
	// (keepLoadSteps: one per converged load step of each case), each of
	// which stores a full set of results.
	StepCases int64 `json:"stepCases,omitempty"`
	// ResultBytes bounds the bytes of stored results.
	ResultBytes int64 `json:"resultBytes,omitempty"`
	// JobFileBytes bounds what a job file may expand to, opened or
	// uploaded, and the size of an uploaded template.
	JobFileBytes int64 `json:"jobFileBytes,omitempty"`
}

// LimitDef describes one field of Limits: how people, the environment
// and the admin command name it, and what it counts.
type LimitDef struct {
	// Name is the field's JSON name and the admin command's flag.
	Name string
	// Setting is the environment variable of the service-wide default.
	Setting string
	// Noun names what is counted, in the plural ("nodes").
	Noun string
	// Bytes says the limit is a size in bytes.
	Bytes bool
	// Default applies when neither the environment nor the workspace
	// sets the limit.
	Default int64
	// Coll is the model collection whose rows the limit counts; "" for a
	// limit checked elsewhere.
	Coll string
	// Field addresses the limit in a Limits.
	Field func(*Limits) *int64
}

// LimitDefs are the limits, in the order they are documented. The
// defaults hold a large engineering model with room to spare (a 200 × 200
// plate mesh has 40,401 nodes) while keeping what one workspace can ask
// of Redis and of a worker far from what a service of a few GiB holds:
// 500,000 nodes take about 100 MiB of Redis (TestCapacityFullRedis fills
// 24 MB with about 117,000). The results default is half
// the Redis the deploy files give the service (maxmemory 1gb), so that
// one workspace cannot fill it alone.
var LimitDefs = []LimitDef{
	{Name: "nodes", Setting: "MAX_NODES", Noun: "nodes", Default: 500_000, Coll: CollNodes,
		Field: func(l *Limits) *int64 { return &l.Nodes }},
	{Name: "members", Setting: "MAX_MEMBERS", Noun: "members", Default: 1_000_000, Coll: CollMembers,
		Field: func(l *Limits) *int64 { return &l.Members }},
	{Name: "plates", Setting: "MAX_PLATES", Noun: "plates", Default: 500_000, Coll: CollPlates,
		Field: func(l *Limits) *int64 { return &l.Plates }},
	{Name: "loadCases", Setting: "MAX_LOAD_CASES", Noun: "load cases", Default: 20_000, Coll: CollLoadCases,
		Field: func(l *Limits) *int64 { return &l.LoadCases }},
	{Name: "stepCases", Setting: "MAX_STEP_CASES", Noun: "Step cases kept by one non-linear run", Default: 1000,
		Field: func(l *Limits) *int64 { return &l.StepCases }},
	{Name: "resultBytes", Setting: "MAX_RESULT_BYTES", Noun: "bytes of stored results", Bytes: true, Default: 512 << 20,
		Field: func(l *Limits) *int64 { return &l.ResultBytes }},
	{Name: "jobFileBytes", Setting: "MAX_JOB_BYTES", Noun: "bytes of a job file (uncompressed)", Bytes: true, Default: 1 << 30,
		Field: func(l *Limits) *int64 { return &l.JobFileBytes }},
}

// LimitDefOf returns the definition of the limit named name.
func LimitDefOf(name string) (LimitDef, bool) {
	for _, d := range LimitDefs {
		if d.Name == name {
			return d, true
		}
	}
	return LimitDef{}, false
}

// DefaultLimits are the limits when the environment sets none.
func DefaultLimits() Limits {
	var l Limits
	for _, d := range LimitDefs {
		*d.Field(&l) = d.Default
	}
	return l
}

// Over returns l with every limit it does not set taken from base.
func (l Limits) Over(base Limits) Limits {
	for _, d := range LimitDefs {
		if *d.Field(&l) == 0 {
			*d.Field(&l) = *d.Field(&base)
		}
	}
	return l
}

// Of returns the value of the limit d in l.
func (l Limits) Of(d LimitDef) int64 { return *d.Field(&l) }

// Validate refuses a negative limit.
func (l Limits) Validate() error {
	for _, d := range LimitDefs {
		if v := l.Of(d); v < 0 {
			return Invalid(d.Name, "the limit %s must be a positive number, got %d", d.Name, v)
		}
	}
	return nil
}

// Exceeded is the error of a request that would take a workspace past
// the limit d: a 4xx naming the limit, its value and how it is raised.
// would is what the workspace would hold (or the request ask for).
func Exceeded(d LimitDef, max, would int64) *Error {
	return E(KindLimitExceeded, "this workspace may hold at most %s %s (limit %s, set by %s or for one workspace by an administrator); "+
		"this request would make it %s; nothing was changed", FormatCount(max, d.Bytes), d.Noun, d.Name, d.Setting, FormatCount(would, d.Bytes))
}

// CheckCounts checks row counts by collection against the limits that
// count collections; the first one exceeded is the error.
func (l Limits) CheckCounts(counts map[string]int64) error {
	for _, d := range LimitDefs {
		if d.Coll == "" {
			continue
		}
		if max, n := l.Of(d), counts[d.Coll]; max > 0 && n > max {
			return Exceeded(d, max, n)
		}
	}
	return nil
}

// CollectionCaps returns collection → limit for the limits that count
// collections and are set.
func (l Limits) CollectionCaps() map[string]int64 {
	out := map[string]int64{}
	for _, d := range LimitDefs {
		if v := l.Of(d); d.Coll != "" && v > 0 {
			out[d.Coll] = v
		}
	}
	return out
}

// LimitOfColl returns the definition of the limit that counts the rows
// of coll.
func LimitOfColl(coll string) (LimitDef, bool) {
	for _, d := range LimitDefs {
		if d.Coll == coll && coll != "" {
			return d, true
		}
	}
	return LimitDef{}, false
}

// FormatCount writes n with thousands separators, and a byte size also
// in binary units ("1,073,741,824 (1 GiB)").
func FormatCount(n int64, bytes bool) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	if n < 0 {
		b.WriteByte('-')
		s = s[1:]
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if bytes && n >= 1<<10 {
		units := []string{"KiB", "MiB", "GiB", "TiB"}
		v, u := float64(n)/1024, 0
		for v >= 1024 && u < len(units)-1 {
			v /= 1024
			u++
		}
		fmt.Fprintf(&b, " (%s %s)", strconv.FormatFloat(v, 'g', 4, 64), units[u])
	}
	return b.String()
}
