// The example scripts, run with python3 against the whole service started
// in this process: a real redis-server, the API on a free loopback port and
// one asynq worker. python3 is required (bash .ci/run installs it).
package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model/library"
	"github.com/gusset/gusset/pkg/server"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// service is the running stack.
type service struct {
	base    string // http://127.0.0.1:port/api/v1
	jobsDir string
}

// startService starts redis-server, the API and one worker, all stopped
// when the test ends (the pattern of pkg/server/harness_test.go).
func startService(t *testing.T) service {
	t.Helper()
	rdb := redistest.Start(t).Client(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	cfg := server.Config{Port: "0", Host: "127.0.0.1", JobsDir: t.TempDir()}
	baseURL := make(chan string, 1)
	done := make(chan error, 2)
	go func() { done <- server.ServeAPI(ctx, cfg, rdb, log, nil, func(b string) { baseURL <- b }) }()
	go func() { done <- server.RunWorker(ctx, server.Config{}, rdb, log, nil) }()
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
	})
	select {
	case b := <-baseURL:
		return service{base: b, jobsDir: cfg.JobsDir}
	case err := <-done:
		t.Fatalf("service stopped: %v", err)
	case <-time.After(patience):
		t.Fatalf("service did not start within %v", patience)
	}
	return service{}
}

// patience is how long the test waits for the service or a script before
// it fails as hung: a safety net, not a speed target, so generous for a
// loaded machine.
const patience = 2 * time.Minute

// python3 returns the interpreter's path; the test cannot do without it.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 not found on PATH: the examples test runs examples/*.py with it; " +
			"install python3 (apt-get install python3; bash .ci/run does this)")
	}
	return p
}

// scriptRun is one finished run of a script.
type scriptRun struct {
	code           int
	stdout, stderr string
}

// runPython runs python3 with args in this directory (examples/).
func runPython(t *testing.T, args ...string) scriptRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, python3(t), args...)
	cmd.Env = append(os.Environ(), "GUSSET_URL=", "PYTHONIOENCODING=utf-8", "PYTHONDONTWRITEBYTECODE=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("python3 %s: timed out after %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), patience, out.String(), errb.String())
	}
	r := scriptRun{stdout: out.String(), stderr: errb.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("python3 %s: %v", strings.Join(args, " "), err)
		}
		r.code = ee.ExitCode()
	}
	return r
}

// runScript runs script against base, requires exit status 0 and decodes
// the JSON object on the last line of its output into v.
func runScript(t *testing.T, script, base string, v any) string {
	t.Helper()
	r := runPython(t, script, base)
	if r.code != 0 {
		t.Fatalf("python3 %s %s: exit status %d\nstdout:\n%s\nstderr:\n%s", script, base, r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	last := lines[len(lines)-1]
	if err := json.Unmarshal([]byte(last), v); err != nil {
		t.Fatalf("%s: last line is not the JSON result: %v\n%s", script, err, last)
	}
	return r.stdout
}

// httpStatus sends a request without a body and returns the status.
func httpStatus(t *testing.T, method, url string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res.StatusCode
}

// near fails unless got is within rel·|want| of want (abs when want is 0).
func near(t *testing.T, what string, got, want, rel, abs float64) {
	t.Helper()
	tol := math.Max(rel*math.Abs(want), abs)
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.12g, want %.12g (±%.3g; off by %.3g)", what, got, want, tol, got-want)
	}
}

// beamResult is the last line of simple_beam.py.
type beamResult struct {
	Units     map[string]string                        `json:"units"`
	Span      float64                                  `json:"span"`
	LoadCases map[string]string                        `json:"loadCases"`
	Reactions map[string]map[string]map[string]float64 `json:"reactions"`
	MaxMoment map[string]struct {
		Mz       float64 `json:"mz"`
		Location float64 `json:"location"`
	} `json:"maxMoment"`
	MidspanDeflection map[string]struct {
		TyGlobal float64 `json:"tyGlobal"`
		Location float64 `json:"location"`
	} `json:"midspanDeflection"`
	SelfWeight float64 `json:"selfWeight"`
	Section    struct {
		A  float64 `json:"a"`
		Iz float64 `json:"iz"`
		Ay float64 `json:"ay"`
	} `json:"section"`
}

// portalResult is the last line of portal_frame.py.
type portalResult struct {
	LoadCases       map[string]string                        `json:"loadCases"`
	Nodes           map[string]struct{ X, Y, Z float64 }     `json:"nodes"`
	Reactions       map[string]map[string]map[string]float64 `json:"reactions"`
	ReactionSummary map[string]map[string]map[string]float64 `json:"reactionSummary"`
}

func TestExamples(t *testing.T) {
	python3(t) // fail at once, with the reason, when python3 is missing
	svc := startService(t)

	t.Run("simple_beam.py", func(t *testing.T) {
		// Twice in a row: the first run must close its job (and its save
		// must not stand in the way of the second).
		var first beamResult
		for i := range 2 {
			var got beamResult
			out := runScript(t, "simple_beam.py", svc.base, &got)
			if i == 0 {
				t.Logf("simple_beam.py output:\n%s", out)
				checkBeam(t, got)
				first = got
			} else if !sameJSON(t, first, got) {
				t.Errorf("second run differs from the first:\nfirst  %+v\nsecond %+v", first, got)
			}
			if _, err := os.Stat(filepath.Join(svc.jobsDir, "examples", "simple-beam.gsj")); err != nil {
				t.Errorf("run %d: job file not saved: %v", i+1, err)
			}
			if s := httpStatus(t, "GET", svc.base+"/job"); s != http.StatusConflict {
				t.Errorf("run %d: GET /job = %d after the script, want 409 (job closed)", i+1, s)
			}
		}
	})

	t.Run("portal_frame.py", func(t *testing.T) {
		var first portalResult
		for i := range 2 {
			var got portalResult
			out := runScript(t, "portal_frame.py", svc.base, &got)
			if i == 0 {
				t.Logf("portal_frame.py output:\n%s", out)
				checkPortal(t, got)
				first = got
			} else if !sameJSON(t, first, got) {
				t.Errorf("second run differs from the first:\nfirst  %+v\nsecond %+v", first, got)
			}
			if s := httpStatus(t, "GET", svc.base+"/job"); s != http.StatusConflict {
				t.Errorf("run %d: GET /job = %d after the script, want 409 (job closed)", i+1, s)
			}
		}
	})

	t.Run("column_modes.py", func(t *testing.T) {
		var got columnResult
		out := runScript(t, "column_modes.py", svc.base, &got)
		t.Logf("column_modes.py output:\n%s", out)
		checkColumn(t, got)
		if s := httpStatus(t, "GET", svc.base+"/job"); s != http.StatusConflict {
			t.Errorf("GET /job = %d after the script, want 409 (job closed)", s)
		}
	})

	t.Run("failures", func(t *testing.T) { checkFailures(t, svc) })
}

// sameJSON compares two results as the scripts printed them.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return bytes.Equal(ja, jb)
}

// checkBeam compares simple_beam.py's numbers with hand calculations for
// a propped cantilever: fixed at A (node 1, x = 0), simply supported at B
// (node 2, x = L), span L = 6 m, uniform load w down.
//
// The engine's frame element is the exact prismatic Timoshenko beam
// (pkg/fem/element/doc.go: Przemieniecki, Theory of Matrix Structural
// Analysis, 1968, §5.6) with exact fixed-end actions of member loads, and
// the station values are exact integrals of the member's differential
// relations (pkg/fem/element/stations.go). One element therefore gives the
// exact Timoshenko solution, and the closed forms below (which include
// shear deformation) must hold to rounding: 1e-6 relative leaves ample
// room (they agree to better than 1e-13). Shear deformation is far from
// negligible at that level: Roark's Euler–Bernoulli values (Φ = 0 below)
// differ from the Timoshenko ones by 0.2 % (R_A), 0.35 % (R_B), 1 % (M_A)
// and 9 % (midspan deflection) for this 360 UB over 6 m, as the log of
// this test shows; so the expected values are the Timoshenko ones.
func checkBeam(t *testing.T, got beamResult) {
	t.Helper()
	for k, want := range map[string]string{"length": "m", "force": "kN", "moment": "kNm", "translation": "mm", "sectionProperties": "mm"} {
		if got.Units[k] != want {
			t.Fatalf("unit %s = %q, want the default %q", k, got.Units[k], want)
		}
	}
	const L = 6.0     // m: the span the script builds
	const g = 9.80665 // m/s²: standard gravity, the unit "gs" (pkg/model/units.go)
	near(t, "span", got.Span, L, 0, 0)

	// Section and material from the libraries the service copies them from.
	sec, err := library.LookupSection("Aust300", "360 UB 44.7")
	if err != nil {
		t.Fatal(err)
	}
	mat, err := library.LookupMaterial("Aust", "STEEL")
	if err != nil {
		t.Fatal(err)
	}
	// The library computes A from the nominal dimensions with the root
	// fillets (5724 mm²); the OneSteel catalogue tabulates 5720 mm².
	near(t, "library A of 360UB44.7 (mm², vs the catalogue)", sec.A*1e6, 5720, 2e-3, 0)
	// The script reads the section back in the job units (mm).
	near(t, "section a (mm²)", got.Section.A, sec.A*1e6, 1e-9, 0)
	near(t, "section iz (mm⁴)", got.Section.Iz, sec.Iz*1e12, 1e-9, 0)
	near(t, "section ay (mm²)", got.Section.Ay, sec.Ay*1e6, 1e-9, 0)

	E, G := mat.YoungsModulus, mat.ShearModulus() // Pa; G = E/(2(1+ν)) as the engine takes it
	EI := E * sec.Iz                              // N·m², bending about local z (the strong axis)
	GAy := G * sec.Ay                             // N, shear along local y
	// Self-weight per length = ρ·A·g (N/m), in kN/m: 7850 × 5.724e-3 × 9.80665.
	wSW := mat.MassDensity * sec.A * g / 1e3
	near(t, "selfWeight (kN/m)", got.SelfWeight, wSW, 1e-9, 0)

	wG := 2 + wSW // case 1 G: self-weight + 2 kN/m dead load
	wQ := 5.0     // case 2 Q: 5 kN/m live load
	// Φ = 12·E·Iz/(G·Ay·L²), the shear parameter of the element
	// (Przemieniecki §5.6; pkg/fem/element.ShearParams).
	phi := 12 * EI / (GAy * L * L)
	t.Logf("w_SW = %.6f kN/m, Φ = %.6f", wSW, phi)

	cases := []struct {
		id, title string
		w         float64 // kN/m, down
	}{
		{"1", "G", wG},
		{"2", "Q", wQ},
		{"3", "1.2G + 1.5Q", 1.2*wG + 1.5*wQ}, // combination 3
		{"4", "G + 0.7Q", wG + 0.7*wQ},        // combination 4
	}
	if len(got.Reactions) != len(cases) || len(got.MaxMoment) != len(cases) || len(got.MidspanDeflection) != len(cases) {
		t.Fatalf("results for %d/%d/%d load cases, want %d", len(got.Reactions), len(got.MaxMoment), len(got.MidspanDeflection), len(cases))
	}
	for _, c := range cases {
		t.Run("case "+c.id, func(t *testing.T) {
			if got.LoadCases[c.id] != c.title {
				t.Errorf("title %q, want %q", got.LoadCases[c.id], c.title)
			}
			w := c.w
			// Reactions by compatibility at B of the Timoshenko cantilever:
			// tip deflection under w, wL⁴/(8EI) + wL²/(2GAy), equals that
			// under R_B, R_B·(L³/(3EI) + L/(GAy)) (Roark, 7th ed., Table 8.1
			// cases 1a and 2a for the bending terms; the shear terms are
			// ∫V/(G·Ay)dx, Roark §8.10). With Φ as above:
			//   R_B = wL(3+Φ)/(2(4+Φ)),  R_A = wL(5+Φ)/(2(4+Φ)),
			//   M_A = wL²/2 − R_B·L = wL²/(2(4+Φ)),
			// which for Φ = 0 are Roark's 3wL/8, 5wL/8 and wL²/8
			// (Table 8.1 case 2e, uniform load over the whole span).
			rA := w * L * (5 + phi) / (2 * (4 + phi))
			rB := w * L * (3 + phi) / (2 * (4 + phi))
			mA := w * L * L / (2 * (4 + phi))
			t.Logf("Roark (Φ = 0) vs Timoshenko: R_A %.4f / %.4f kN, R_B %.4f / %.4f kN, M_A %.4f / %.4f kNm",
				5*w*L/8, rA, 3*w*L/8, rB, w*L*L/8, mA)

			r := got.Reactions[c.id]
			if len(r) != 2 {
				t.Fatalf("reactions at %d nodes, want 2", len(r))
			}
			zero := 1e-9 * w * L // kN or kNm: components statics makes zero
			near(t, "R_A fy (kN)", r["1"]["fy"], rA, 1e-6, 0)
			near(t, "R_B fy (kN)", r["2"]["fy"], rB, 1e-6, 0)
			// The wall at A turns the beam back anticlockwise (+Z).
			near(t, "M_A mz (kNm)", r["1"]["mz"], mA, 1e-6, 0)
			for _, k := range []string{"fx", "fz", "mx", "my"} {
				near(t, "node 1 "+k, r["1"][k], 0, 0, zero)
				near(t, "node 2 "+k, r["2"][k], 0, 0, zero)
			}
			near(t, "node 2 mz (pinned: RZ free)", r["2"]["mz"], 0, 0, zero)

			// The largest |M| is the fixed-end moment M_A: the largest
			// sagging moment, R_B²/(2w) ≈ 9wL²/128, is smaller. It hogs,
			// and mz is positive for tension at local −y (the OpenAPI
			// description of member-intermediate-forces), so it is −M_A.
			mm := got.MaxMoment[c.id]
			near(t, "max moment mz (kNm)", mm.Mz, -mA, 1e-6, 0)
			near(t, "max moment location (m)", mm.Location, 0, 0, 1e-12)

			// Midspan deflection, x = L/2, down positive, from the fixed end
			// (v = 0 and section rotation 0 at A): bending part by double
			// integration of M(x) = −M_A + R_A·x − w·x²/2 (kN, m) and shear
			// part ∫₀ˣ V/(G·Ay) with V = R_A − w·x (Timoshenko & Gere,
			// Mechanics of Materials, §9.11 shear deformation):
			//   δ_b = (M_A·a²/2 − R_A·a³/6 + w·a⁴/24)/EI,  a = L/2
			//   δ_s = (R_A·a − w·a²/2)/(G·Ay)
			// For Φ = 0, δ_b = wL⁴/(192EI) (Roark Table 8.1 case 2e).
			a := L / 2
			dB := (mA*a*a/2 - rA*a*a*a/6 + w*a*a*a*a/24) * 1e3 / EI // kN→N; m
			dS := (rA*a - w*a*a/2) * 1e3 / GAy
			want := -(dB + dS) * 1e3 // mm, tyGlobal is up positive
			d := got.MidspanDeflection[c.id]
			t.Logf("midspan: Roark wL⁴/(192EI) = %.5f mm, bending %.5f + shear %.5f = %.5f mm; service %.5f mm",
				w*1e3*math.Pow(L, 4)/(192*EI)*1e3, dB*1e3, dS*1e3, -want, -d.TyGlobal)
			near(t, "midspan location (m)", d.Location, a, 0, 1e-12)
			near(t, "midspan tyGlobal (mm)", d.TyGlobal, want, 1e-6, 0)
		})
	}
}

// checkPortal checks statics on every case of portal_frame.py: the
// reactions must balance the applied loads.
func checkPortal(t *testing.T, got portalResult) {
	t.Helper()
	if len(got.LoadCases) == 0 || len(got.Nodes) == 0 {
		t.Fatalf("no load cases (%d) or supports (%d)", len(got.LoadCases), len(got.Nodes))
	}
	comps := []string{"fx", "fy", "fz", "mx", "my", "mz"}
	for lc, title := range got.LoadCases {
		t.Run("case "+lc+" "+title, func(t *testing.T) {
			sum := got.ReactionSummary[lc]
			load, reaction, residual := sum["Load"], sum["Reaction"], sum["Residual"]
			if load == nil || reaction == nil || residual == nil {
				t.Fatalf("reaction summary rows %v, want Load, Reaction and Residual", sum)
			}
			rows := got.Reactions[lc]
			if len(rows) != len(got.Nodes) {
				t.Fatalf("reactions at %d nodes, want %d (every support)", len(rows), len(got.Nodes))
			}
			// Resultant of the reactions about the global origin:
			// ΣF and Σ(M + r × F), r the support node's position.
			res := map[string]float64{}
			for node, r := range rows {
				p, ok := got.Nodes[node]
				if !ok {
					t.Fatalf("reaction at node %s, which is not a support", node)
				}
				res["fx"] += r["fx"]
				res["fy"] += r["fy"]
				res["fz"] += r["fz"]
				res["mx"] += r["mx"] + p.Y*r["fz"] - p.Z*r["fy"]
				res["my"] += r["my"] + p.Z*r["fx"] - p.X*r["fz"]
				res["mz"] += r["mz"] + p.X*r["fy"] - p.Y*r["fx"]
			}
			// Tolerance: 1e-9 of the largest applied load component (kN
			// or kNm, which are of one size for a frame of a few metres);
			// the solver's rounding is about 1e-14 of it.
			scale := 0.0
			for _, k := range comps {
				scale = math.Max(scale, math.Abs(load[k]))
			}
			if scale == 0 {
				t.Fatal("the case applies no load")
			}
			tol := 1e-9 * scale
			for _, k := range comps {
				// Statics: applied loads + reactions = 0.
				near(t, "Load + ΣReactions "+k, load[k]+res[k], 0, 0, tol)
				// The summary's own Reaction and Residual rows agree.
				near(t, "summary Reaction "+k, reaction[k], res[k], 0, tol)
				near(t, "summary Residual "+k, residual[k], load[k]+reaction[k], 0, tol)
			}
		})
	}
}

// checkFailures makes requests fail and checks that the scripts stop
// with the service's message, a non-zero status and no job left open.
func checkFailures(t *testing.T, svc service) {
	t.Helper()
	// A job someone else opened is refused by POST /job/new, and the
	// script must leave it open.
	t.Run("job already open", func(t *testing.T) {
		if s := httpStatus(t, "POST", svc.base+"/job/new"); s != http.StatusOK {
			t.Fatalf("POST /job/new = %d", s)
		}
		defer httpStatus(t, "POST", svc.base+"/job/close")
		r := runPython(t, "simple_beam.py", svc.base)
		if r.code == 0 || !strings.Contains(r.stderr, "JOB_ALREADY_OPEN") || !strings.Contains(r.stderr, "already open") {
			t.Errorf("exit %d, stderr %q: want non-zero and the service's JOB_ALREADY_OPEN detail", r.code, r.stderr)
		}
		// GET /job answers 409 once no job is open; the status answers 200
		// in both states.
		if s := httpStatus(t, "GET", svc.base+"/job"); s != http.StatusOK {
			t.Errorf("GET /job = %d: the script closed a job it had not opened", s)
		}
	})

	// Failures after the job is open: the request bodies of
	// simple_beam.py are altered in flight (Client.post patched), and the
	// job must still be closed.
	const patch = `import json, sys
base, overrides = sys.argv[1], json.loads(sys.argv[2])
sys.argv = ["simple_beam.py", base]
import simple_beam
post = simple_beam.Client.post
def patched(self, path, body=None):
    for o in overrides:
        if o["path"] == path and all(body.get(k) == v for k, v in o["match"].items()):
            body = dict(body, **o["set"])
    return post(self, path, body)
simple_beam.Client.post = patched
sys.exit(simple_beam.main())
`
	cases := []struct {
		name, overrides string
		want            []string // in stderr
	}{
		{"unknown section", `[{"path": "/job/structure/sections/library", "match": {}, "set": {"name": "999 UB 1"}}]`,
			[]string{"VALIDATION_FAILED", "999 UB 1"}},
		{"mechanism", // both ends pinned with RX free: nothing stops the beam spinning about its axis
			`[{"path": "/job/structure/node-restraints", "match": {}, "set": {"restraintCode": "FFFRRR"}}]`,
			[]string{"analysis Failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runPython(t, "-c", patch, svc.base, c.overrides)
			if r.code == 0 {
				t.Fatalf("exit status 0, want non-zero\nstdout:\n%s", r.stdout)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q lacks %q", r.stderr, w)
				}
			}
			if !strings.Contains(r.stdout, "job closed") {
				t.Errorf("stdout does not report closing the job:\n%s", r.stdout)
			}
			if s := httpStatus(t, "GET", svc.base+"/job"); s != http.StatusConflict {
				t.Errorf("GET /job = %d after the failed script, want 409 (job closed)", s)
			}
			t.Logf("stderr: %s", strings.TrimSpace(r.stderr))
		})
	}
}
