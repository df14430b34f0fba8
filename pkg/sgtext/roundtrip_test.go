package sgtext_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/sgtext"
	"github.com/gusset/gusset/pkg/store"
)

// TestSamplesRoundTrip writes every bundled sample as a text file, reads
// it back and writes it again: the two files are the same text (the same
// model to the 15 significant digits the format writes), and every row
// the format carries holds the numbers of the sample to a relative 1e-14
// (15 significant digits round a number by at most 5e-16 of itself; the
// unit conversion there and back adds a few ulps).
func TestSamplesRoundTrip(t *testing.T) {
	for _, name := range samples.Names() {
		t.Run(name, func(t *testing.T) {
			orig := decodeSample(t, name)
			text1 := write(t, orig)
			imp, err := sgtext.Read(strings.NewReader(text1))
			if err != nil {
				t.Fatalf("read back: %v\n%s", err, text1)
			}
			text2 := write(t, imp.Snapshot)
			if withoutComments(text1) != withoutComments(text2) {
				t.Fatalf("the file written from the imported model differs from the first:\n%s", firstDiff(text1, text2))
			}
			for coll, rows := range orig.Collections {
				if !sgtext.Carries(coll) {
					if !strings.Contains(text1, coll) {
						t.Errorf("the file does not name the collection %s it left out", coll)
					}
					continue
				}
				sameRows(t, coll, rows, imp.Snapshot.Collections[coll])
			}
			if imp.Snapshot.Job.Units != orig.Job.Units || imp.Snapshot.Job.Headings != orig.Job.Headings {
				t.Errorf("job record: got %+v, want %+v", imp.Snapshot.Job, orig.Job)
			}
		})
	}
}

func decodeSample(t *testing.T, name string) store.Snapshot {
	t.Helper()
	b, _, err := samples.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return dec.Snapshot
}

func write(t *testing.T, snap store.Snapshot) string {
	t.Helper()
	var buf bytes.Buffer
	if err := sgtext.Write(&buf, snap); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// withoutComments drops the comment lines: the first file names the
// collections it left out, which the imported model no longer holds.
func withoutComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}

// sameRows compares two row lists by key, a member missing on one side
// counting as its zero value (stored rows leave zero members out).
func sameRows(t *testing.T, coll string, want, got []store.Row) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %d rows, want %d", coll, len(got), len(want))
		return
	}
	byKey := map[string]json.RawMessage{}
	for _, r := range got {
		byKey[r.Key] = r.Value
	}
	for _, r := range want {
		g, ok := byKey[r.Key]
		if !ok {
			t.Errorf("%s: row %s missing", coll, r.Key)
			continue
		}
		var a, b any
		if err := json.Unmarshal(r.Value, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(g, &b); err != nil {
			t.Fatal(err)
		}
		if msg := diff(prune(a), prune(b), ""); msg != "" {
			t.Errorf("%s row %s: %s\n want %s\n got  %s", coll, r.Key, msg, r.Value, g)
		}
	}
}

// prune drops zero members (0, "", false, empty lists and objects).
func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if p := prune(e); p != nil {
				out[k] = p
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = prune(e)
		}
		return out
	case float64:
		if x == 0 {
			return nil
		}
	case string:
		if x == "" {
			return nil
		}
	case bool:
		if !x {
			return nil
		}
	}
	return v
}

func diff(a, b any, path string) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v, want %v", path, b, a)
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if m := diff(x[k], y[k], path+"."+k); m != "" {
				return m
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: %v, want %v", path, b, a)
		}
		for i := range x {
			if m := diff(x[i], y[i], fmt.Sprintf("%s[%d]", path, i)); m != "" {
				return m
			}
		}
		return ""
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > 1e-14*math.Max(math.Abs(x), math.Abs(y)) {
			return fmt.Sprintf("%s: %v, want %v", path, b, a)
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s: %v, want %v", path, b, a)
	}
	return ""
}
