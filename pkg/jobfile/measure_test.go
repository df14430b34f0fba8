package jobfile

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/store"
)

// millionMemberFile encodes a real job file of n members: the rows of the
// bundled multi-storey frame (members, nodes, distributed and node loads,
// restraints) repeated in its proportions, with fresh ids, keys and
// coordinates. It is how DefaultMaxJobBytes was chosen.
func millionMemberFile(tb testing.TB, n int) []byte {
	tb.Helper()
	raw, err := os.ReadFile("../samples/files/Multi-storey frame.gsj")
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := Decode(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		tb.Fatal(err)
	}
	src := dec.Snapshot.Collections
	tmpl := func(coll string) map[string]any {
		var v map[string]any
		if err := json.Unmarshal(src[coll][0].Value, &v); err != nil {
			tb.Fatal(err)
		}
		return v
	}
	ratio := func(coll string) int { return n * len(src[coll]) / len(src["members"]) }
	key := func(ids ...int) string {
		s := ""
		for i, id := range ids {
			if i > 0 {
				s += ":"
			}
			s += fmt.Sprintf("%010d", id)
		}
		return s
	}
	gen := func(coll string, count int, fill func(i int, v map[string]any) string) []store.Row {
		v := tmpl(coll)
		rows := make([]store.Row, count)
		for i := range rows {
			k := fill(i+1, v)
			b, err := json.Marshal(v)
			if err != nil {
				tb.Fatal(err)
			}
			rows[i] = store.Row{Key: k, Value: b}
		}
		return rows
	}
	nodes := ratio("nodes")
	snap := dec.Snapshot
	snap.Collections = map[string][]store.Row{}
	for c, rows := range src {
		snap.Collections[c] = rows
	}
	snap.Collections["nodes"] = gen("nodes", nodes, func(i int, v map[string]any) string {
		v["id"], v["x"], v["y"], v["z"] = i, float64(i%97)*6.125, float64(i/97%53)*3.85, float64(i/(97*53))*7.5
		return key(i)
	})
	snap.Collections["members"] = gen("members", n, func(i int, v map[string]any) string {
		v["id"], v["nodeA"], v["nodeB"] = i, 1+i%nodes, 1+(i*7+13)%nodes
		return key(i)
	})
	snap.Collections["memberDistributedLoads"] = gen("memberDistributedLoads", ratio("memberDistributedLoads"), func(i int, v map[string]any) string {
		lc := 1 + i%3
		v["loadCase"], v["member"], v["fyStart"], v["fyFinish"] = lc, i, -21750.5-float64(i%11), -21750.5-float64(i%13)
		return key(lc, i, 1)
	})
	snap.Collections["nodeLoads"] = gen("nodeLoads", ratio("nodeLoads"), func(i int, v map[string]any) string {
		v["loadCase"], v["node"], v["fx"] = 3, i, 15525.25+float64(i%17)
		return key(3, i)
	})
	snap.Collections["nodeRestraints"] = gen("nodeRestraints", ratio("nodeRestraints"), func(i int, v map[string]any) string {
		v["node"] = i
		return key(i)
	})
	var buf bytes.Buffer
	if err := Encode(&buf, snap, "measure", time.Unix(0, 0)); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestMeasureMillionMembers reports what a job file of 1,000,000 members
// expands to, and what decoding it costs. GUSSET_MEASURE=1 runs it.
func TestMeasureMillionMembers(t *testing.T) {
	if os.Getenv("GUSSET_MEASURE") == "" {
		t.Skip("set GUSSET_MEASURE=1 to measure a 1,000,000-member job file")
	}
	b := millionMemberFile(t, 1_000_000)
	total := uncompressedSize(t, b)
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	dec, err := Decode(bytes.NewReader(b), int64(len(b)))
	took := time.Since(start)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, r := range dec.Snapshot.Collections {
		rows += len(r)
	}
	t.Logf("1,000,000 members: %d rows, file %d bytes (%.1f MiB), uncompressed %d bytes (%.1f MiB); decode %v, heap after %.1f MiB, allocated %.1f MiB",
		rows, len(b), float64(len(b))/(1<<20), total, float64(total)/(1<<20), took,
		float64(m1.HeapAlloc-m0.HeapAlloc)/(1<<20), float64(m1.TotalAlloc-m0.TotalAlloc)/(1<<20))
}

// uncompressedSize sums what the entries of a zip expand to, as read.
func uncompressedSize(tb testing.TB, b []byte) int64 {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		tb.Fatal(err)
	}
	var total int64
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		total += n
	}
	return total
}
