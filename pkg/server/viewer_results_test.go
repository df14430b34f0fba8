package server

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/browser"
)

// overlayState is the part of window.gussetViewer.state about result
// overlays and drawn marks.
type overlayState struct {
	Releases int `json:"releases"`
	Offsets  int `json:"offsets"`
	Diagram  *struct {
		Component string  `json:"component"`
		Segments  int     `json:"segments"`
		Max       float64 `json:"max"`
	} `json:"diagram"`
	MemberColour *struct {
		Component string  `json:"component"`
		Max       float64 `json:"max"`
		Unit      string  `json:"unit"`
	} `json:"memberColour"`
	PlateColour *struct {
		Component string  `json:"component"`
		Min       float64 `json:"min"`
		Max       float64 `json:"max"`
		Plates    int     `json:"plates"`
		Unit      string  `json:"unit"`
	} `json:"plateColour"`
	Mode *struct {
		Kind     string `json:"kind"`
		LoadCase int    `json:"loadCase"`
		Mode     int    `json:"mode"`
	} `json:"mode"`
}

// choose sets one of the viewer's selects, as a person would, and waits
// until the page is idle again.
func choose(t *testing.T, ctx context.Context, page *browser.Page, id, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event('change')); return s.value; })()`, id, value)
	var got string
	if err := page.Eval(ctx, js, &got); err != nil || got != value {
		t.Fatalf("select %s = %q: got %q, %v", id, value, got, err)
	}
}

// waitState polls until the JavaScript condition on s (the viewer state)
// holds, then reads the overlay state.
func waitState(t *testing.T, ctx context.Context, page *browser.Page, cond string) overlayState {
	t.Helper()
	if err := page.WaitFor(ctx, "(s => !s.busy && ("+cond+"))(window.gussetViewer.state)"); err != nil {
		t.Fatalf("waiting for %s: %v; page errors: %q", cond, err, page.Errors())
	}
	var s overlayState
	if err := page.Eval(ctx, "window.gussetViewer.state", &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestViewerDrawsOverlaysAndBucklingInChromium gives the portal-frame
// sample a released rafter end and a rigid offset, runs it static and
// buckling, and checks in headless Chromium that the viewer marks the
// release and the offset, draws a moment diagram and colours the members
// with the service's own extremes, and animates the first buckling mode.
func TestViewerDrawsOverlaysAndBucklingInChromium(t *testing.T) {
	br := browser.Start(t, 1200, 800)
	st := startStack(t, 1)
	st.must(200, "POST", "/job/open-sample", map[string]string{"fileName": "Portal frame"})
	// The rafter (member 2, node 2 → node 3) pinned about z at node 3, and
	// started 0.2 m along x from node 2 by a rigid offset.
	st.must(200, "PATCH", "/job/structure/members/2/releases", map[string]any{"fixityCodeAtB": "FFFFFR"})
	st.must(201, "POST", "/job/structure/member-offsets", map[string]any{"member": 2, "axes": "Global", "xOffsetAtA": 0.2})
	if run := st.wait(st.run(nil).RunID); run.Status != model.RunCompleted {
		t.Fatalf("static run: %s %s", run.Status, run.ErrorMessage)
	}
	var buck model.Run
	st.must(202, "POST", "/job/analysis/buckling/run", map[string]any{"loadCases": "2"}).decode(t, &buck)
	if run := st.wait(buck.RunID); run.Status != model.RunCompleted {
		t.Fatalf("buckling run: %s %s", run.Status, run.ErrorMessage)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	page := openViewer(t, ctx, br, strings.TrimSuffix(st.base, "/api/v1"))

	// One released end, one offset end (the member records arrive after
	// the first frame).
	s := waitState(t, ctx, page, "s.membersLoaded")
	if s.Releases != 1 || s.Offsets != 1 {
		t.Errorf("drawn %d release marks and %d offset segments, want 1 and 1", s.Releases, s.Offsets)
	}

	// A job without plates shows no plate colouring control: it is marked
	// hidden, and it takes no room in the results panel, which is shown.
	var shown struct{ Hidden, Laid, Panel bool }
	if err := page.Eval(ctx, `(() => { const l = document.getElementById('plate-colour-label');
		return { hidden: l.hidden, laid: l.offsetParent !== null, panel: document.getElementById('static-results').offsetParent !== null }; })()`, &shown); err != nil ||
		!shown.Hidden || shown.Laid || !shown.Panel {
		t.Errorf("plate colouring control %+v (%v); want hidden and not laid out, in a shown results panel", shown, err)
	}

	// Case 2 (live load on the rafter): the Mz diagram and colouring.
	choose(t, ctx, page, "case", "2")
	waitState(t, ctx, page, "s.deflected && s.deflected.loadCase === 2")
	rows := query[model.MemberForcesRow](st, fmtPath("member-intermediate-forces?loadCases=%d", 2)).Results
	want, stations := 0.0, 0
	for _, r := range rows {
		stations += len(r.Mz)
		for _, v := range r.Mz {
			want = math.Max(want, math.Abs(v))
		}
	}
	if len(rows) != 3 || !(want > 0) {
		t.Fatalf("service: %d member rows, largest |Mz| %g", len(rows), want)
	}
	choose(t, ctx, page, "diagram", "Mz")
	s = waitState(t, ctx, page, "s.diagram && s.diagram.component === 'Mz'")
	// Each station draws a hatch, and each pair of stations an outline
	// segment. The largest |Mz| is the service's (float64 in both: 1e-12).
	if s.Diagram.Segments != stations+stations-len(rows) {
		t.Errorf("Mz diagram has %d segments, want %d (hatches and outlines of %d stations)", s.Diagram.Segments, 2*stations-len(rows), stations)
	}
	if math.Abs(s.Diagram.Max-want) > 1e-12*want {
		t.Errorf("Mz diagram's largest value %g, service's %g", s.Diagram.Max, want)
	}
	choose(t, ctx, page, "colour", "Mz")
	s = waitState(t, ctx, page, "s.memberColour && s.memberColour.component === 'Mz'")
	// The sample's units: moments in kNm.
	if math.Abs(s.MemberColour.Max-want) > 1e-12*want || s.MemberColour.Unit != "kNm" {
		t.Errorf("colour legend top %g %s, want the service's largest |Mz| %g kNm", s.MemberColour.Max, s.MemberColour.Unit, want)
	}
	var legend string
	if err := page.Eval(ctx, "document.getElementById('legend').hidden ? '' : document.getElementById('legend').innerText", &legend); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(legend, "kNm") || !strings.Contains(legend, fmt.Sprintf("%.4g", want)) {
		t.Errorf("legend %q should name kNm and the top %.4g", legend, want)
	}
	saveShot(t, ctx, page, "viewer-portal-frame-mz.png")

	// The buckling modes of case 2 are offered; mode 1 animates.
	var offered string
	if err := page.Eval(ctx, "Array.from(document.getElementById('mode').options).map(o => o.value).join(' ')", &offered); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(offered, "buckling:2:1") || strings.Contains(offered, "dynamic:") {
		t.Fatalf("modes offered %q, want buckling modes of case 2 and no vibration modes", offered)
	}
	choose(t, ctx, page, "mode", "buckling:2:1")
	s = waitState(t, ctx, page, "s.mode && s.mode.kind === 'buckling' && s.mode.mode === 1")
	var first float64
	if err := page.Eval(ctx, "window.gussetViewer.shapeChecksum()", &first); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, fmt.Sprintf("Math.abs(window.gussetViewer.shapeChecksum() - %v) > 1e-6 * Math.abs(%v)", first, first)); err != nil {
		t.Errorf("buckling mode 1 is not animated: %v", err)
	}
	saveShot(t, ctx, page, "viewer-portal-frame-buckling1.png")
	if errs := page.Errors(); len(errs) > 0 {
		t.Errorf("viewer page errors: %q", errs)
	}
}
