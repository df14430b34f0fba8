package server

import (
	"bytes"
	"math"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// uploadText posts a text file to POST /job/import/txt.
func (s *stack) uploadText(text string) reply {
	s.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("file", "job.txt")
	if err != nil {
		s.t.Fatal(err)
	}
	_, _ = part.Write([]byte(text))
	_ = w.Close()
	req, _ := http.NewRequest("POST", s.base+"/job/import/txt", &b)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return s.send(req)
}

// determinatePortal is a portal written by hand: pinned at node 1, on a
// roller at node 4 (free along X), so that its reactions follow from
// statics alone, whatever the sections. Out of plane the bases hold Z,
// RX and RY. Node 1 (0,0), 2 (0,4), 3 (6,4), 4 (6,0), in m.
//
// Load case 1: H = 10 kN along +X at node 2, P = 20 kN down at node 3,
// and w = 5 kN/m down along the beam 2-3 (W = 30 kN at x = 3 m).
//
//	ΣFx = 0:      Rx1 + 10 = 0                       → Rx1 = -10 kN
//	ΣMz(1) = 0:   6·Ry4 - 4·10 - 6·20 - 3·30 = 0      → Ry4 = 250/6 = 41.6667 kN
//	ΣFy = 0:      Ry1 + Ry4 - 20 - 30 = 0             → Ry1 = 50/6 = 8.3333 kN
//
// (moments about node 1 counter-clockwise positive: a force (Fx, Fy) at
// (x, y) gives x·Fy - y·Fx).
//
// Case 2 is the combination 1.5 × case 1.
const determinatePortal = `SPACE GASS Text File - Version 1420
# Statically determinate portal: the reactions are checked by hand.
UNITS LENGTH:m, SECTION:mm, STRENGTH:MPa, DENSITY:T/m^3, TEMP:Celsius, FORCE:kN, MOMENT:kNm, MASS:T, ACC:g's, TRANS:mm, STRESS:MPa

HEADINGS
"Text import"
"Determinate portal"
NODES
1,0,0,0
2,0,4,0
3,6,4,0
4,6,0,0
MEMBERS
1,0,0,,N,1,2,1,1,FFFFFF,FFFFFF
2,0,0,,N,2,3,2,1,FFFFFF,FFFFFF
3,0,0,,N,4,3,1,1,FFFFFF,FFFFFF
RESTRAINTS
1,FFFFFR
4,RFFFFR
SECTIONS
1,"360UB44.7","Aust300"
2,"Beam",,,5720,161000,8100000,121000000,2430,2760,0,1,1,1,1,0
MATERIALS
1,"STEEL","Aust"
TITLES
1,"Wind and roof"
2,"1.5 x case 1"
NODELOADS
1,2,10,0,0,0,0,0
1,3,0,-20,0,0,0,0
MEMBFORCES
1,2,1,G,%,0,100,0,0,-5,-5,0,0
COMBINATIONS
2,1,1.5
END
`

func TestTextFileImportAnalysesToHandReactions(t *testing.T) {
	s := startStack(t, 1)
	r := s.uploadText(determinatePortal)
	if r.status != 200 {
		t.Fatalf("import: %d %s", r.status, r.body)
	}
	var st struct {
		model.Job
		State model.State `json:"state"`
	}
	r.decode(t, &st)
	if !st.State.IsOpen || !st.State.IsNew || st.State.File.Path != "" || st.Headings.Heading != "Determinate portal" || st.Units.Force != "kN" {
		t.Fatalf("imported job %+v", st)
	}
	// A second import while the job is open is refused.
	if r := s.uploadText(determinatePortal); r.status != 409 {
		t.Errorf("import over an open job: %d %s", r.status, r.body)
	}

	done := s.wait(s.run(nil).RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run %+v", done)
	}
	// Statics (above) fix the reactions; the solve's round-off on this
	// small model is far below 1e-9 of them.
	want := map[int64][2]float64{1: {-10, 50.0 / 6}, 4: {0, 250.0 / 6}}
	for lc, f := range map[int64]float64{1: 1, 2: 1.5} {
		reacts := query[model.NodeReactionRow](s, fmtPath("node-reactions?loadCases=%d", lc))
		if len(reacts.Results) != 2 {
			t.Fatalf("case %d reactions %+v", lc, reacts)
		}
		for _, rr := range reacts.Results {
			w := want[rr.Node]
			if math.Abs(rr.Fx-f*w[0]) > 1e-9*50 || math.Abs(rr.Fy-f*w[1]) > 1e-9*50 {
				t.Errorf("case %d node %d: Fx %g Fy %g, want %g %g", lc, rr.Node, rr.Fx, rr.Fy, f*w[0], f*w[1])
			}
		}
	}

	// The export reads back to the same file.
	text := string(s.must(200, "GET", "/job/export/txt", nil).body)
	s.must(200, "POST", "/job/close", nil)
	if r := s.uploadText(text); r.status != 200 {
		t.Fatalf("re-import of the export: %d %s\n%s", r.status, r.body, text)
	}
	if again := string(s.must(200, "GET", "/job/export/txt", nil).body); again != text {
		t.Errorf("export after re-import differs:\n%s\nwant\n%s", again, text)
	}
	if !strings.HasPrefix(text, "SPACE GASS Text File - Version ") || !strings.Contains(text, "FORCE:kN") {
		t.Errorf("export header and units:\n%s", text)
	}
}
