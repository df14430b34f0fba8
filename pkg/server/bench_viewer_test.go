package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/browser"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// BenchmarkViewerGrid30 loads grid-30 (29,791 nodes, 86,490 members),
// analysed, into the viewer in headless Chromium and reports the time from
// navigation to the first frame of the model, to the drawn deflected
// shape of its case (86,490 members' intermediate displacements), the
// span of the member-geometry read within the first, and the mean frame
// time while orbiting. Chromium draws with SwiftShader, on the
// CPU: the times are slow but comparable from build to build.
func BenchmarkViewerGrid30(b *testing.B) {
	br := browser.Start(b, 1200, 800)
	s := startStack(b, 1)
	s.upload(gridjob.File(30, 1))
	if run := s.waitUpTo(s.run(nil).RunID, 10*time.Minute); run.Status != model.RunCompleted {
		b.Fatalf("run: %s %s", run.Status, run.ErrorMessage)
	}
	root := strings.TrimSuffix(s.base, "/api/v1")
	var first, deflected, geometry, frame float64
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		page := openViewer(b, ctx, br, root)
		var st struct {
			Timings struct {
				FirstFrameMs float64 `json:"firstFrameMs"`
				Frames       int     `json:"frames"`
			} `json:"timings"`
			Deflected struct {
				DrawnAtMs float64 `json:"drawnAtMs"`
			} `json:"deflected"`
		}
		if err := page.Eval(ctx, "window.gussetViewer.state", &st); err != nil {
			b.Fatal(err)
		}
		first += st.Timings.FirstFrameMs / 1000
		deflected += st.Deflected.DrawnAtMs / 1000
		// The span of the member-geometry pages, first request to last
		// byte: the share of the first frame that is that read.
		var span float64
		const js = `(() => { const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('/query/geometry/members'));
			return e.length ? Math.max(...e.map((r) => r.responseEnd)) - Math.min(...e.map((r) => r.startTime)) : 0; })()`
		if err := page.Eval(ctx, js, &span); err != nil {
			b.Fatal(err)
		}
		geometry += span / 1000
		// Orbit: drag across the canvas for about two seconds.
		t0, f0 := time.Now(), st.Timings.Frames
		for time.Since(t0) < 2*time.Second {
			if err := page.Drag(ctx, 700, 400, 900, 450, 20); err != nil {
				b.Fatal(err)
			}
		}
		var f1 int
		if err := page.Eval(ctx, "window.gussetViewer.state.timings.frames", &f1); err != nil {
			b.Fatal(err)
		}
		frame += time.Since(t0).Seconds() * 1000 / float64(max(1, f1-f0))
		if errs := page.Errors(); len(errs) > 0 {
			b.Errorf("page errors: %q", errs)
		}
		cancel()
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "s-first-frame")
	b.ReportMetric(geometry/n, "s-geometry-read")
	b.ReportMetric(deflected/n, "s-deflected")
	b.ReportMetric(frame/n, "ms/frame-orbit")
}
