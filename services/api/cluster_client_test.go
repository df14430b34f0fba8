//go:build cluster

package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// client is one workspace's client. It alternates its requests between
// the two apis, so that every step of its work crosses replicas (a job
// opened on one, its run started on the other, polled on both). Each
// client is used by one goroutine.
type client struct {
	c    *cluster
	ws   string
	key  string
	next int // the api of the next request
	// failovers are the requests sent again to the other api after a
	// connection error from a killed one.
	failovers []string
	// adopted are retried requests answered 409 because the lost first
	// try had taken effect (the job opened, the run started).
	adopted []string
}

// reply is one answered request.
type reply struct {
	status  int
	body    []byte
	api     int  // index of the api that answered
	retried bool // sent again after a connection error
}

// send sends a request (body may be nil) to the api next in turn. A
// connection error from an api the test has killed is a client's cue to
// retry on the other api, once; any other connection error is returned.
func (cl *client) send(ctx context.Context, method, path, ctype string, body []byte) (reply, error) {
	api := cl.next
	cl.next = 1 - cl.next
	retried := false
	for {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, cl.c.bases[api]+path, rd)
		if err != nil {
			return reply{}, err
		}
		req.Header.Set("Authorization", "Bearer "+cl.key)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		res, err := cl.c.http.Do(req)
		if err == nil {
			b, rerr := io.ReadAll(res.Body)
			res.Body.Close()
			if rerr == nil {
				return reply{status: res.StatusCode, body: b, api: api, retried: retried}, nil
			}
			err = rerr
		}
		if retried || !cl.c.down[api].Load() || ctx.Err() != nil {
			return reply{}, fmt.Errorf("%s %s on api-%d: %w", method, path, api+1, err)
		}
		cl.failovers = append(cl.failovers, fmt.Sprintf("%s %s: %v", method, path, err))
		api, retried = 1-api, true
	}
}

// call sends body (nil: none) as JSON and decodes the answer into out
// (nil: ignored); any status but want is an error. A 409 to a retried
// request is an errRetryConflict, returned with the reply for the caller
// to judge.
func (cl *client) call(ctx context.Context, want int, method, path string, body, out any) (reply, error) {
	var b []byte
	ctype := ""
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return reply{}, err
		}
		ctype = "application/json"
	}
	r, err := cl.send(ctx, method, path, ctype, b)
	if err != nil {
		return r, err
	}
	return r, cl.expect(r, want, method, path, out)
}

// errRetryConflict is a 409 to a request sent again after a connection
// error: the first try may have taken effect before the api died.
var errRetryConflict = errors.New("conflict on a retried request")

// expect checks r's status and decodes its body into out (nil: ignored).
func (cl *client) expect(r reply, want int, method, path string, out any) error {
	if r.status != want {
		if r.retried && r.status == http.StatusConflict {
			return fmt.Errorf("%w: %s %s on api-%d: %.400s", errRetryConflict, method, path, r.api+1, r.body)
		}
		return fmt.Errorf("%s %s on api-%d = %d, want %d: %.400s", method, path, r.api+1, r.status, want, r.body)
	}
	if out != nil {
		if err := json.Unmarshal(r.body, out); err != nil {
			return fmt.Errorf("decode %s %s: %v: %.300s", method, path, err, r.body)
		}
	}
	return nil
}

// upload opens a job file as the workspace's job (POST
// /job/new-from-template). A retried upload answered 409 (a job is
// already open) found the first try's job: nothing else opens jobs in
// this workspace, and the caller closed the previous one first.
func (cl *client) upload(ctx context.Context, file []byte) error {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("template", "grid.gsj")
	if err != nil {
		return err
	}
	_, _ = part.Write(file)
	if err := w.Close(); err != nil {
		return err
	}
	const path = "/job/new-from-template"
	r, err := cl.send(ctx, "POST", path, w.FormDataContentType(), b.Bytes())
	if err != nil {
		return err
	}
	err = cl.expect(r, http.StatusOK, "POST", path, nil)
	if errors.Is(err, errRetryConflict) && bytes.Contains(r.body, []byte("JOB_ALREADY_OPEN")) {
		cl.adopted = append(cl.adopted, "upload: "+string(r.body))
		return nil
	}
	return err
}

// closeJob closes the open job (idempotent: a retry is harmless).
func (cl *client) closeJob(ctx context.Context) error {
	_, err := cl.call(ctx, http.StatusOK, "POST", "/job/close", nil, nil)
	return err
}

// startRun starts a linear static run. A retried start answered 409 (an
// analysis in progress) found the run of the first try, which the client
// takes from the run list.
func (cl *client) startRun(ctx context.Context) (model.Run, error) {
	const path = "/job/analysis/static/run-linear"
	var run model.Run
	r, err := cl.call(ctx, http.StatusAccepted, "POST", path, nil, &run)
	if !errors.Is(err, errRetryConflict) || !bytes.Contains(r.body, []byte("ANALYSIS_IN_PROGRESS")) {
		return run, err
	}
	var runs []model.Run
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs", nil, &runs); err != nil {
		return run, err
	}
	for _, x := range runs {
		if slices.Contains(underWay, x.Status) {
			cl.adopted = append(cl.adopted, fmt.Sprintf("run %s: %s", x.RunID, r.body))
			return x, nil
		}
	}
	return run, fmt.Errorf("POST %s retried: 409 %s, and no run under way in the list", path, r.body)
}

// waitRun polls the run until it finished. Every other poll reads the job
// status instead, as a client's screen would, so that the clients keep
// both apis busy with reads while runs are under way.
func (cl *client) waitRun(ctx context.Context, id string) (model.Run, error) {
	deadline := time.Now().Add(runLimit)
	for i := 0; ; i++ {
		if i%2 == 1 {
			if _, err := cl.status(ctx); err != nil {
				return model.Run{}, err
			}
		} else {
			var run model.Run
			if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs/"+id, nil, &run); err != nil {
				return run, err
			}
			if run.Status.Finished() {
				return run, nil
			}
			if time.Now().After(deadline) {
				return run, fmt.Errorf("run %s not finished after %v: %s attempt %d, %s", id, runLimit, run.Status, run.Attempt,
					run.Progress.StatusText)
			}
		}
		time.Sleep(pollEvery)
	}
}

// jobStatus is the part of GET /job/status the tests read.
type jobStatus struct {
	Structure struct {
		Nodes   int64 `json:"nodes"`
		Members int64 `json:"members"`
	} `json:"structure"`
	Analysis struct {
		HasStaticResults bool `json:"hasStaticResults"`
	} `json:"analysis"`
	AccessMode string `json:"accessMode"`
}

func (cl *client) status(ctx context.Context) (jobStatus, error) {
	var st jobStatus
	_, err := cl.call(ctx, http.StatusOK, "GET", "/job/status", nil, &st)
	return st, err
}

// grid is one workspace's model: grid-n with a floor load nodeFz (N) at
// every node above the base, one load case.
type grid struct {
	n      int
	nodeFz float64
}

func (g grid) file() []byte { return gridjob.FileOf(g.n, 1, gridjob.Options{NodeFz: g.nodeFz}) }

// reactions are the support reactions of load case 1 in the job's force
// unit (kN): gridjob's loads are in equilibrium with them, so they follow
// from the model alone, and differ from one grid to another.
func (g grid) reactions() (fx, fz float64) {
	size := gridjob.Size(g.n)
	weight := gridn.Rho * gridn.Area * gridn.Bay * gridn.Gravity * float64(size.Members)
	free := float64(size.FreeNodes)
	return -gridn.Lateral * free / 1e3, (weight - g.nodeFz*free) / 1e3
}

// checkResults reads the workspace's static results and checks that they
// are those of g: one displacement row per node of grid-n, and the
// reactions g's loads call for.
func (cl *client) checkResults(ctx context.Context, g grid) error {
	var d struct {
		Results []model.NodeDisplacementRow `json:"results"`
	}
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/query/analysis/static/node-displacements?loadCases=1", nil, &d); err != nil {
		return err
	}
	if want := gridjob.Size(g.n).Nodes; len(d.Results) != want {
		return fmt.Errorf("%d node displacement rows, want %d (grid-%d)", len(d.Results), want, g.n)
	}
	var s struct {
		Results []model.ReactionSummaryRow `json:"results"`
	}
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/query/analysis/static/reaction-summary?loadCases=1", nil, &s); err != nil {
		return err
	}
	fx, fz := g.reactions()
	for _, r := range s.Results {
		if r.SummaryType != "Reaction" {
			continue
		}
		if !near(r.Fx, fx) || !near(r.Fz, fz) {
			return fmt.Errorf("reactions fx %.6g fz %.6g kN, want %.6g and %.6g for grid-%d with %g N per node", r.Fx, r.Fz, fx, fz, g.n, g.nodeFz)
		}
		return nil
	}
	return fmt.Errorf("no Reaction row in the reaction summary: %+v", s.Results)
}

// near compares a solved sum of reactions with its exact value: the
// residual of a direct solve is many orders below 1e-6 of it.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want)) }

// analyse is one workspace's round: open g's job, run it to its end and
// check the run and its results; it returns the finished run. underway
// (nil: none) counts the runs started and not yet seen finished.
func (cl *client) analyse(ctx context.Context, g grid, underway *atomic.Int64) (model.Run, error) {
	if err := cl.closeJob(ctx); err != nil {
		return model.Run{}, err
	}
	if err := cl.upload(ctx, g.file()); err != nil {
		return model.Run{}, err
	}
	run, err := cl.startRun(ctx)
	if err != nil {
		return run, err
	}
	if underway != nil {
		underway.Add(1)
	}
	run, err = cl.waitRun(ctx, run.RunID)
	if underway != nil {
		underway.Add(-1)
	}
	if err != nil {
		return run, err
	}
	if run.Status != model.RunCompleted {
		return run, fmt.Errorf("run %s ended %s (attempt %d): %s", run.RunID, run.Status, run.Attempt, run.ErrorMessage)
	}
	st, err := cl.status(ctx)
	if err != nil {
		return run, err
	}
	if !st.Analysis.HasStaticResults || st.AccessMode != "ReadWrite" || st.Structure.Nodes != int64(gridjob.Size(g.n).Nodes) {
		return run, fmt.Errorf("job status after run %s: %+v; want static results, ReadWrite and grid-%d's %d nodes",
			run.RunID, st, g.n, gridjob.Size(g.n).Nodes)
	}
	return run, cl.checkResults(ctx, g)
}
