package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/browser"
)

// viewerState is the part of window.gussetViewer.state the tests read.
type viewerState struct {
	Ready  bool     `json:"ready"`
	Busy   bool     `json:"busy"`
	Errors []string `json:"errors"`
	Counts struct {
		Nodes, Members, Plates, Supports int
	} `json:"counts"`
	Available struct {
		Static, Buckling, Dynamic bool
	} `json:"available"`
	LoadCase  *int `json:"loadCase"`
	Deflected *struct {
		LoadCase        int     `json:"loadCase"`
		HasResults      bool    `json:"hasResults"`
		Checksum        float64 `json:"checksum"`
		Segments        int     `json:"segments"`
		MaxDisplacement float64 `json:"maxDisplacement"`
	} `json:"deflected"`
	LoadArrows int `json:"loadArrows"`
	Picked     *struct {
		Kind string `json:"kind"`
		ID   int    `json:"id"`
		Text string `json:"text"`
	} `json:"picked"`
}

// artefactDir is where browser tests leave their screenshots:
// GUSSET_ARTEFACTS, else a directory under the system's temporary one.
func artefactDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GUSSET_ARTEFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "gusset-artefacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// saveShot writes a screenshot as an artefact and returns it decoded.
func saveShot(t *testing.T, ctx context.Context, p *browser.Page, name string) image.Image {
	t.Helper()
	raw, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artefactDir(t), name)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return img
}

// drawnPixels counts the pixels of rect in img that differ from the empty
// canvas, which is filled with the background colour #f4f5f7 (the
// viewer's colours.background) and nothing else.
func drawnPixels(img image.Image, rect image.Rectangle) int {
	bg := color.RGBA{0xf4, 0xf5, 0xf7, 0xff}
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if absDiff(r>>8, uint32(bg.R)) > 8 || absDiff(g>>8, uint32(bg.G)) > 8 || absDiff(b>>8, uint32(bg.B)) > 8 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// readState reads window.gussetViewer.state.
func readState(t *testing.T, ctx context.Context, p *browser.Page) viewerState {
	t.Helper()
	var s viewerState
	if err := p.Eval(ctx, "window.gussetViewer.state", &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestViewerDrawsPortalFrameInChromium opens the portal-frame sample, runs
// it, and checks in a real headless Chromium that /viewer draws the model
// and its deflections without errors, that choosing a case redraws the
// deflected shape with the service's own numbers, and that a click picks
// a member; then that /docs shows every tag of the API.
func TestViewerDrawsPortalFrameInChromium(t *testing.T) {
	br := browser.Start(t, 1200, 800)
	st := startStack(t, 1)
	st.must(200, "POST", "/job/open-sample", map[string]string{"fileName": "Portal frame"})
	if run := st.wait(st.run(nil).RunID); run.Status != model.RunCompleted {
		t.Fatalf("run: %s %s", run.Status, run.ErrorMessage)
	}
	root := strings.TrimSuffix(st.base, "/api/v1")
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	page := openViewer(t, ctx, br, root)

	// The scene against the sample: a fixed-base portal of two columns and
	// a rafter (4 nodes, 3 members, both column bases fully fixed).
	s := readState(t, ctx, page)
	if s.Counts.Nodes != 4 || s.Counts.Members != 3 || s.Counts.Plates != 0 || s.Counts.Supports != 2 {
		t.Errorf("scene counts %+v, want 4 nodes, 3 members, 0 plates, 2 supports", s.Counts)
	}
	if !s.Available.Static || s.Available.Buckling || s.Available.Dynamic {
		t.Errorf("available results %+v, want static only", s.Available)
	}

	// Case 1 (dead load), then case 3 (wind), chosen through the page's
	// own case selector.
	choose := func(id int) viewerState {
		t.Helper()
		js := fmt.Sprintf(`(() => { const s = document.getElementById('case'); s.value = '%d'; s.dispatchEvent(new Event('change')); return true; })()`, id)
		if err := page.Eval(ctx, js, nil); err != nil {
			t.Fatal(err)
		}
		cond := fmt.Sprintf("window.gussetViewer.state.deflected && window.gussetViewer.state.deflected.loadCase === %d && !window.gussetViewer.state.busy", id)
		if err := page.WaitFor(ctx, cond); err != nil {
			t.Fatalf("case %d: %v; page errors: %q", id, err, page.Errors())
		}
		return readState(t, ctx, page)
	}
	dead := choose(1)
	wind := choose(3)
	for _, c := range []struct {
		id int
		s  viewerState
	}{{1, dead}, {3, wind}} {
		d := c.s.Deflected
		if !d.HasResults {
			t.Fatalf("case %d: no results drawn", c.id)
		}
		// Curved members: 11 stations per member, so 10 segments each.
		if d.Segments != 3*10 {
			t.Errorf("case %d: %d deflected segments, want 30 (3 members × 10)", c.id, d.Segments)
		}
		// The largest drawn displacement is the service's own: the largest
		// |t| over every station of the member intermediate displacements
		// (float32 drawing buffers: 1e-6 relative).
		rows := query[model.MemberDisplacementsRow](st, fmtPath("member-intermediate-displacements?loadCases=%d", c.id)).Results
		want := 0.0
		for _, r := range rows {
			for k := range r.TxGlobal {
				want = math.Max(want, math.Hypot(r.TxGlobal[k], math.Hypot(r.TyGlobal[k], r.TzGlobal[k])))
			}
		}
		if !(want > 0) || math.Abs(d.MaxDisplacement-want) > 1e-6*want {
			t.Errorf("case %d: drawn largest displacement %g, service's %g", c.id, d.MaxDisplacement, want)
		}
		if c.id != 3 {
			continue
		}
		// The shape drawn is the service's, station by station, in global
		// axes (the page holds case 3 now).
		for _, r := range rows {
			for _, k := range []int{0, 5, len(r.TxGlobal) - 1} {
				var got []float64
				if err := page.Eval(ctx, fmt.Sprintf("window.gussetViewer.displacementAt(%d, %d)", r.Member, k+1), &got); err != nil {
					t.Fatal(err)
				}
				exp := []float64{r.TxGlobal[k], r.TyGlobal[k], r.TzGlobal[k]}
				for i := range exp {
					if len(got) != 3 || math.Abs(got[i]-exp[i]) > 1e-6*want {
						t.Errorf("case 3 member %d station %d: drawn displacement %v, service's %v", r.Member, k+1, got, exp)
						break
					}
				}
			}
		}
	}
	if dead.Deflected.Checksum == wind.Deflected.Checksum {
		t.Errorf("choosing case 3 after case 1 left the deflected geometry unchanged (checksum %g)", wind.Deflected.Checksum)
	}
	// The wind case's one node load, drawn as an arrow.
	if wind.LoadArrows != 1 {
		t.Errorf("case 3 draws %d load arrows, want 1 (its node load)", wind.LoadArrows)
	}

	// The screenshot differs from an empty canvas: the model and its
	// deflections are drawn.
	var canvasRect struct{ X, Y, W, H float64 }
	if err := page.Eval(ctx, `(() => { const r = document.getElementById('scene').getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })()`, &canvasRect); err != nil {
		t.Fatal(err)
	}
	// The front view, as the README shows it, once a few frames have drawn it.
	var frames int
	if err := page.Eval(ctx, "(window.gussetViewer.view('front'), window.gussetViewer.state.timings.frames)", &frames); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, fmt.Sprintf("window.gussetViewer.state.timings.frames > %d", frames+2)); err != nil {
		t.Fatal(err)
	}
	img := saveShot(t, ctx, page, "viewer-portal-frame.png")
	rect := image.Rect(int(canvasRect.X), int(canvasRect.Y), int(canvasRect.X+canvasRect.W), int(canvasRect.Y+canvasRect.H))
	// The portal's members, deflected shape and two support cubes cover a
	// few thousand pixels of the 920 × 764 canvas; an empty or undrawn
	// canvas has none, so 500 tells the two apart with room for
	// antialiasing and view changes.
	if n := drawnPixels(img, rect); n < 500 {
		t.Errorf("the canvas differs from an empty one in %d pixels, want at least 500", n)
	}

	// Members as sections: the 360UB44.7 I-section's 12-sided outline
	// swept along each of the 3 members, two triangles per side.
	var faces int
	if err := page.Eval(ctx, `document.getElementById('sections').click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, "window.gussetViewer.state.sections === true"); err != nil {
		t.Fatalf("sections: %v; page errors: %q", err, page.Errors())
	}
	if err := page.Eval(ctx, "window.gussetViewer.state.sectionFaces", &faces); err != nil || faces != 3*12*2 {
		t.Errorf("section faces %d (%v), want 72 (3 members × 12 sides × 2)", faces, err)
	}
	saveShot(t, ctx, page, "viewer-portal-frame-sections.png")
	if err := page.Eval(ctx, `document.getElementById('sections').click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, "window.gussetViewer.state.sections === false"); err != nil {
		t.Fatal(err)
	}

	// A click on the rafter's middle picks member 3 and shows its values.
	var at struct{ X, Y float64 }
	if err := page.Eval(ctx, "window.gussetViewer.screenOf('member', 3)", &at); err != nil {
		t.Fatal(err)
	}
	if err := page.Click(ctx, at.X, at.Y); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, "window.gussetViewer.state.picked && window.gussetViewer.state.picked.text.includes('end B')"); err != nil {
		t.Fatalf("pick: %v", err)
	}
	if p := readState(t, ctx, page).Picked; p.Kind != "member" || p.ID != 3 {
		t.Errorf("picked %s %d, want member 3", p.Kind, p.ID)
	}
	if errs := page.Errors(); len(errs) > 0 {
		t.Errorf("viewer page errors: %q", errs)
	}
	if s := readState(t, ctx, page); len(s.Errors) > 0 {
		t.Errorf("viewer reported: %q", s.Errors)
	}

	// The API reference shows every tag of the document.
	var doc struct {
		Tags []struct{ Name string } `json:"tags"`
	}
	if err := json.Unmarshal(st.must(200, "GET", "/openapi.json", nil).body, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Tags) < 5 {
		t.Fatalf("openapi.json names %d tags", len(doc.Tags))
	}
	if err := page.Navigate(ctx, root+"/docs"); err != nil {
		t.Fatal(err)
	}
	last := doc.Tags[len(doc.Tags)-1].Name
	if err := page.WaitFor(ctx, fmt.Sprintf("document.body.innerText.includes(%q)", last)); err != nil {
		t.Fatalf("docs: %v; page errors: %q", err, page.Errors())
	}
	var text string
	if err := page.Eval(ctx, "document.body.innerText", &text); err != nil {
		t.Fatal(err)
	}
	for _, tag := range doc.Tags {
		if !strings.Contains(text, tag.Name) {
			t.Errorf("/docs does not show the tag %q", tag.Name)
		}
	}
	// Placeholders in angle brackets survive the Markdown rendering.
	if !strings.Contains(text, "X-API-Key: <key>") {
		t.Errorf("/docs does not show the key header as X-API-Key: <key>")
	}
	// The pages' Content-Security-Policy refused nothing the viewer or
	// Redoc needs. It does keep out Redoc's footer logo, which Redoc
	// loads from cdn.redoc.ly: the pages load nothing from other servers.
	for _, e := range page.Errors() {
		if strings.Contains(e, "Content Security Policy") && !strings.Contains(e, "'https://cdn.redoc.ly/") {
			t.Errorf("the page security policy refused: %s", e)
		}
	}
	saveShot(t, ctx, page, "docs.png")
}

// openViewer opens /viewer in a new page of br and waits until it has
// loaded the job and drawn the first case.
func openViewer(t testing.TB, ctx context.Context, br *browser.Browser, root string) *browser.Page {
	t.Helper()
	page, err := br.NewPage(ctx, 1200, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(ctx, root+"/viewer"); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, "window.gussetViewer && window.gussetViewer.state.ready && !window.gussetViewer.state.busy && "+
		"window.gussetViewer.state.deflected && window.gussetViewer.state.timings.firstFrameMs !== null"); err != nil {
		t.Fatalf("%v; page errors: %q", err, page.Errors())
	}
	return page
}

// TestViewerShowsPlatesAndModesInChromium draws the flat-slab sample with
// its plates, then offers and animates the vibration modes once the
// frequency analysis has run, and offers no buckling modes.
func TestViewerShowsPlatesAndModesInChromium(t *testing.T) {
	br := browser.Start(t, 1200, 800)
	st := startStack(t, 1)
	st.must(200, "POST", "/job/open-sample", map[string]string{"fileName": "Flat slab on columns"})
	if run := st.wait(st.run(map[string]any{"loadCases": "1"}).RunID); run.Status != model.RunCompleted {
		t.Fatalf("static run: %s %s", run.Status, run.ErrorMessage)
	}
	var dyn model.Run
	st.must(202, "POST", "/job/analysis/dynamic-frequency/run", map[string]any{"loadCases": "1"}).decode(t, &dyn)
	if run := st.wait(dyn.RunID); run.Status != model.RunCompleted {
		t.Fatalf("frequency run: %s %s", run.Status, run.ErrorMessage)
	}
	var info struct {
		LoadCases []struct {
			LoadCase, Modes int
			HasResults      bool
		} `json:"loadCases"`
	}
	st.must(200, "GET", "/job/analysis/dynamic-frequency/info", nil).decode(t, &info)
	modes := 0
	for _, c := range info.LoadCases {
		modes += c.Modes
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	page := openViewer(t, ctx, br, strings.TrimSuffix(st.base, "/api/v1"))

	// The sample: a 24 × 24 mesh of plates on nine columns with fixed
	// bases (the job's own counts, which the scene must match).
	var status struct {
		Structure struct{ Nodes, Members, Plates, NodeRestraints int } `json:"structure"`
	}
	st.must(200, "GET", "/job/status", nil).decode(t, &status)
	var s struct {
		viewerState
		ModesOffered int `json:"modesOffered"`
	}
	if err := page.Eval(ctx, "window.gussetViewer.state", &s); err != nil {
		t.Fatal(err)
	}
	if s.Counts.Plates != 576 || s.Counts.Plates != status.Structure.Plates || s.Counts.Members != status.Structure.Members ||
		s.Counts.Nodes != status.Structure.Nodes || s.Counts.Supports != status.Structure.NodeRestraints {
		t.Errorf("scene counts %+v, job %+v (576 plates expected)", s.Counts, status.Structure)
	}
	// Plates deflect too: their edges join the members' segments.
	if d := s.Deflected; d == nil || !d.HasResults || d.Segments <= 9*10 {
		t.Errorf("deflected shape %+v: want the members' 90 segments and the plates' edges", d)
	}
	if !s.Available.Dynamic || s.Available.Buckling || s.ModesOffered != modes || modes == 0 {
		t.Errorf("available %+v, %d modes offered; want dynamic only, the %d modes the info lists", s.Available, s.ModesOffered, modes)
	}
	var hidden bool
	if err := page.Eval(ctx, "document.getElementById('modes').hidden", &hidden); err != nil || hidden {
		t.Errorf("the mode shapes control is hidden (%v) with %d modes to show", err, modes)
	}

	// Plates coloured by mx of case 1: every plate has a colour, and the
	// legend spans the service's smallest and largest mx (float64 on both
	// sides: 1e-12 relative) in kNm/m, the sample's moment per length.
	choose(t, ctx, page, "plate-colour", "mx")
	o := waitState(t, ctx, page, "s.plateColour && s.plateColour.component === 'mx'")
	lo, hi := math.Inf(1), math.Inf(-1)
	var odd model.PlateForcesRow // the plate whose mx and my differ most
	for _, r := range query[model.PlateForcesRow](st, fmtPath("plate-element-forces?loadCases=%d", 1)).Results {
		lo, hi = math.Min(lo, r.Mx), math.Max(hi, r.Mx)
		if math.Abs(r.Mx-r.My) > math.Abs(odd.Mx-odd.My) {
			odd = r
		}
	}
	pc := o.PlateColour
	if pc.Plates != 576 || pc.Unit != "kNm/m" || !(hi > lo) ||
		math.Abs(pc.Min-lo) > 1e-12*(hi-lo) || math.Abs(pc.Max-hi) > 1e-12*(hi-lo) {
		t.Errorf("plate colouring %+v; want 576 plates, kNm/m, mx from %g to %g", *pc, lo, hi)
	}
	// Each plate took its own mx. The slab's symmetry gives my the same
	// range, so the plate where mx and my differ most tells them apart
	// (exactly: the same float64 crosses JSON both ways unchanged).
	var got float64
	if err := page.Eval(ctx, fmt.Sprintf("window.gussetViewer.plateValue(%d)", odd.Plate), &got); err != nil {
		t.Fatal(err)
	}
	if math.Abs(odd.Mx-odd.My) < 1e-3*(hi-lo) || got != odd.Mx {
		t.Errorf("plate %d coloured by %g; its mx is %g (my %g)", odd.Plate, got, odd.Mx, odd.My)
	}
	var legend string
	if err := page.Eval(ctx, "document.getElementById('plate-legend').hidden ? '' : document.getElementById('plate-legend').innerText", &legend); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(legend, "mx (kNm/m)") {
		t.Errorf("plate legend %q, want it shown with mx (kNm/m)", legend)
	}
	saveShot(t, ctx, page, "viewer-flat-slab-mx.png")
	// Case 2 has no results: its plates are not left in case 1's
	// colours. Back on case 1 they return; choosing none takes them away.
	uncoloured := fmt.Sprintf("s.plateColour === null && window.gussetViewer.plateValue(%d) === null && document.getElementById('plate-legend').hidden", odd.Plate)
	choose(t, ctx, page, "case", "2")
	waitState(t, ctx, page, "s.deflected && s.deflected.loadCase === 2 && "+uncoloured)
	choose(t, ctx, page, "case", "1")
	waitState(t, ctx, page, "s.deflected && s.deflected.loadCase === 1 && s.plateColour && s.plateColour.component === 'mx'")
	choose(t, ctx, page, "plate-colour", "")
	waitState(t, ctx, page, uncoloured)

	// Mode 1, chosen in the page, moves: the drawn shape changes between
	// frames.
	if err := page.Eval(ctx, `(() => { const s = document.getElementById('mode'); s.value = 'dynamic:1:1'; s.dispatchEvent(new Event('change')); return true; })()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, "window.gussetViewer.state.mode && window.gussetViewer.state.mode.mode === 1"); err != nil {
		t.Fatalf("%v; page errors: %q", err, page.Errors())
	}
	var first float64
	if err := page.Eval(ctx, "window.gussetViewer.shapeChecksum()", &first); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, fmt.Sprintf("Math.abs(window.gussetViewer.shapeChecksum() - %v) > 1e-6 * Math.abs(%v)", first, first)); err != nil {
		t.Errorf("mode 1 is not animated: %v", err)
	}
	saveShot(t, ctx, page, "viewer-flat-slab-mode1.png")
	if errs := page.Errors(); len(errs) > 0 {
		t.Errorf("viewer page errors: %q", errs)
	}
}

// TestViewerAsksForTheKeyOnce checks keys mode: the viewer asks for a
// key, keeps it in the tab's session storage, and a reload needs no
// second asking.
func TestViewerAsksForTheKeyOnce(t *testing.T) {
	br := browser.Start(t, 1200, 800)
	k := startKeyed(t)
	k.alpha.must(200, "POST", "/job/open-sample", map[string]string{"fileName": "Portal frame"})
	root := strings.TrimSuffix(k.base, "/api/v1")
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	page, err := br.NewPage(ctx, 1200, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(ctx, root+"/viewer"); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, "!document.getElementById('keyform').hidden"); err != nil {
		t.Fatalf("no key form: %v", err)
	}
	submit := fmt.Sprintf(`(() => { document.getElementById('key').value = %q; document.getElementById('keyform').requestSubmit(); return true; })()`, k.keyA)
	if err := page.Eval(ctx, submit, nil); err != nil {
		t.Fatal(err)
	}
	ready := "window.gussetViewer.state.ready && window.gussetViewer.state.counts.members === 3"
	if err := page.WaitFor(ctx, ready); err != nil {
		t.Fatalf("with alpha's key: %v; page errors: %q", err, page.Errors())
	}
	var stored string
	if err := page.Eval(ctx, "sessionStorage.getItem('gusset.apiKey')", &stored); err != nil || stored != k.keyA {
		t.Errorf("session storage holds %q (%v), want alpha's key", stored, err)
	}
	if err := page.Navigate(ctx, root+"/viewer"); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(ctx, ready); err != nil {
		t.Fatalf("after a reload: %v", err)
	}
	var hidden bool
	if err := page.Eval(ctx, "document.getElementById('keyform').hidden", &hidden); err != nil || !hidden {
		t.Errorf("the key form shows again after a reload (%v)", err)
	}
}
