package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkStructureBulk is the structure issue's throughput benchmark:
// bulk-create 100,000 nodes and 100,000 members through HTTP in batches of
// 10,000, then list them in pages of 1,000. Targets (benchmark only): over
// 100,000 rows/s for create, under 20 ms per page.
func BenchmarkStructureBulk(b *testing.B) {
	const total, batch, page = 100_000, 10_000, 1_000
	for i := 0; i < b.N; i++ {
		e := benchJob(b)
		nodeBodies, memberBodies := ringBodies(total, batch)
		b.ResetTimer()
		start := time.Now()
		postBulk(b, e, sp+"/nodes/bulk", nodeBodies)
		nodeTime := time.Since(start)
		start = time.Now()
		postBulk(b, e, sp+"/members/bulk", memberBodies)
		memberTime := time.Since(start)
		start = time.Now()
		pages := 0
		for _, coll := range []string{"nodes", "members"} {
			for off := 0; off < total; off += page {
				if r := e.raw("GET", fmt.Sprintf("%s/%s?offset=%d&limit=%d", sp, coll, off, page), "", nil); r.status != 200 {
					b.Fatalf("page: %d", r.status)
				}
				pages++
			}
		}
		pageTime := time.Since(start)
		b.StopTimer()
		b.ReportMetric(total/nodeTime.Seconds(), "node-rows/s")
		b.ReportMetric(total/memberTime.Seconds(), "member-rows/s")
		b.ReportMetric(float64(pageTime.Milliseconds())/float64(pages), "ms/page")
		b.Logf("create: nodes %.0f rows/s, members %.0f rows/s (target > 100000); list: %.1f ms per page of %d (target < 20)",
			total/nodeTime.Seconds(), total/memberTime.Seconds(), float64(pageTime.Microseconds())/1000/float64(pages), page)
	}
}

// BenchmarkDistributedLoadsBulk is the loads issue's benchmark: 100,000
// member distributed loads through HTTP in batches of 10,000. Target
// (benchmark only): over 100,000 rows/s.
func BenchmarkDistributedLoadsBulk(b *testing.B) {
	const total, batch, members = 100_000, 10_000, 1_000
	for i := 0; i < b.N; i++ {
		e := benchJob(b)
		ns := make([]map[string]any, members+1)
		ms := make([]map[string]any, members)
		for j := range ns {
			ns[j] = map[string]any{"x": float64(j), "y": 0, "z": 0}
		}
		for j := range ms {
			ms[j] = map[string]any{"nodeA": j + 1, "nodeB": j + 2, "section": 1, "material": 1}
		}
		e.must(200, "POST", sp+"/nodes/bulk", ns)
		e.must(200, "POST", sp+"/members/bulk", ms)
		for c := 1; c <= 10; c++ {
			e.must(201, "POST", lp+"/load-cases", map[string]any{"title": fmt.Sprint("case ", c)})
		}
		bodies := make([][]byte, total/batch)
		for k := range bodies {
			ls := make([]map[string]any, batch)
			for j := range ls {
				n := k*batch + j
				ls[j] = map[string]any{"loadCase": n/members%10 + 1, "member": n%members + 1, "fyStart": -1.5, "fyFinish": -2.5}
			}
			bodies[k], _ = json.Marshal(ls)
		}
		b.ResetTimer()
		start := time.Now()
		postBulk(b, e, lp+"/member-distributed-loads/bulk", bodies)
		elapsed := time.Since(start)
		b.StopTimer()
		b.ReportMetric(total/elapsed.Seconds(), "rows/s")
		b.Logf("member distributed loads: %.0f rows/s (target > 100000)", total/elapsed.Seconds())
	}
}

// BenchmarkSaveOpen saves and opens a job of 100,000 nodes and 100,000
// members: the open checks every row (editor.CheckSnapshot) before it
// loads them. No target; reported for planning.
func BenchmarkSaveOpen(b *testing.B) {
	const total, batch = 100_000, 10_000
	for i := 0; i < b.N; i++ {
		e := benchJob(b)
		nodeBodies, memberBodies := ringBodies(total, batch)
		postBulk(b, e, sp+"/nodes/bulk", nodeBodies)
		postBulk(b, e, sp+"/members/bulk", memberBodies)
		b.ResetTimer()
		start := time.Now()
		e.must(201, "POST", "/job/save", map[string]any{"filePath": "big"})
		saved := time.Since(start)
		e.must(200, "POST", "/job/close", nil)
		start = time.Now()
		e.must(200, "POST", "/job/open", map[string]any{"filePath": "big.gsj"})
		opened := time.Since(start)
		b.StopTimer()
		b.ReportMetric(saved.Seconds(), "save-s")
		b.ReportMetric(opened.Seconds(), "open-s")
		b.Logf("200,000 rows: save %.2f s, open %.2f s", saved.Seconds(), opened.Seconds())
	}
}

// benchJob opens a new job with one material and one section (id 1 each).
func benchJob(b *testing.B) *env {
	b.Helper()
	e := newEnv(b, envOptions{recoveryDelay: time.Second})
	e.must(200, "POST", "/job/new", nil)
	e.must(201, "POST", sp+"/materials", map[string]any{"name": "s", "youngsModulus": 200000, "poissonsRatio": 0.3})
	e.must(201, "POST", sp+"/sections", map[string]any{"name": "b", "a": 1e4, "j": 2e8, "iy": 1e8, "iz": 1e8, "ay": 5e3, "az": 5e3})
	return e
}

// ringBodies are bulk bodies of total nodes on a 1,000-wide grid and total
// members joining node i to node i+1 (the last back to the first), in
// batches of batch rows.
func ringBodies(total, batch int) (nodes, members [][]byte) {
	for k := 0; k < total/batch; k++ {
		ns := make([]map[string]any, batch)
		ms := make([]map[string]any, batch)
		for j := range ns {
			id := k*batch + j + 1
			ns[j] = map[string]any{"id": id, "x": float64(id % 1000), "y": float64(id / 1000), "z": 0}
			ms[j] = map[string]any{"id": id, "nodeA": id, "nodeB": id%total + 1, "section": 1, "material": 1}
		}
		nb, _ := json.Marshal(ns)
		mb, _ := json.Marshal(ms)
		nodes, members = append(nodes, nb), append(members, mb)
	}
	return nodes, members
}

// postBulk posts each body to a bulk create path; anything but 200 fails.
func postBulk(b *testing.B, e *env, path string, bodies [][]byte) {
	b.Helper()
	for _, body := range bodies {
		if r := e.raw("POST", path, "application/json", body); r.status != 200 {
			b.Fatalf("%s: %d %s", path, r.status, r.body[:min(len(r.body), 300)])
		}
	}
}
