package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// timeoutError is what a client sees when a reply does not arrive in time.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout (injected)" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// lostReply makes the next commit of a batch (the apply script, or the
// MULTI of a large batch) look to the client as if its reply was lost:
// after Redis ran it (sent) or before it reached Redis (not sent, keeping
// it so that the test can deliver it late).
type lostReply struct {
	armed atomic.Bool
	sent  bool
	late  func() error
	gets  atomic.Int64 // GETs of the write lease: a waiting writer polls it
}

func (h *lostReply) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *lostReply) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		args := cmd.Args()
		if cmd.Name() == "get" && len(args) == 2 && strings.HasSuffix(fmt.Sprint(args[1]), ":lease") {
			h.gets.Add(1)
		}
		if isApplyScript(cmd) {
			return h.commit(func() error { return next(ctx, cmd) }, cmd.SetErr)
		}
		return next(ctx, cmd)
	}
}

func (h *lostReply) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			if c.Name() == "exec" {
				return h.commit(func() error { return next(ctx, cmds) }, func(err error) {
					for _, c := range cmds {
						c.SetErr(err)
					}
				})
			}
		}
		return next(ctx, cmds)
	}
}

func (h *lostReply) commit(run func() error, setErr func(error)) error {
	if !h.armed.CompareAndSwap(true, false) {
		return run()
	}
	if h.sent {
		if err := run(); err != nil {
			// NOSCRIPT: the client loads the script next; lose that reply.
			h.armed.Store(true)
			return err
		}
	} else {
		h.late = run
	}
	setErr(timeoutError{})
	return timeoutError{}
}

// hookedModel is a model store whose client passes through h.
func hookedModel(t *testing.T, srv *redistest.Server, h redis.Hook) *redisstore.Model {
	t.Helper()
	c := srv.Client(t)
	c.AddHook(h)
	if cc, ok := c.(*redis.ClusterClient); ok {
		// A cluster client runs WATCH transactions on its node clients,
		// past its own hooks: their MULTI/EXEC goes through h on the nodes.
		cc.OnNewNode(func(n *redis.Client) { n.AddHook(pipelinesOnly{h}) })
	}
	return redisstore.NewModel(c)
}

// pipelinesOnly passes the pipelines of a cluster's node client through a
// hook, and its single commands straight on: those went through the hook
// on the cluster client already.
type pipelinesOnly struct{ redis.Hook }

func (pipelinesOnly) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

// openHooked opens a job and returns a plain and a hooked model store.
func openHooked(t *testing.T, h redis.Hook) (plain, hooked *redisstore.Model, jobs *redisstore.Jobs, ctx context.Context) {
	t.Helper()
	ctx = context.Background()
	s, srv := newStore(t, "nodes", "members")
	if _, err := s.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
		t.Fatal(err)
	}
	return redisstore.NewModel(srv.Client(t)), hookedModel(t, srv, h), s, ctx
}

// nodeBatch creates nodes first..first+n-1; with rev it is planned at that
// revision, so that from 256 rows it commits by WATCH/MULTI.
func nodeBatch(first, n int, rev int64) *store.Batch {
	b := &store.Batch{ExpectRev: rev}
	for i := first; i < first+n; i++ {
		b.Create("nodes", store.Key(int64(i)), fmt.Appendf(nil, `{"id":%d}`, i))
	}
	return b
}

func countRows(t *testing.T, m *redisstore.Model, ctx context.Context) int64 {
	t.Helper()
	p, err := m.Page(ctx, "w", "nodes", nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p.Total
}

// A committed write answered 500 when the client's read timeout fired
// after Redis ran EXEC: every row was stored, and a client retrying an
// auto-id bulk would have duplicated the model. Apply now settles a lost
// reply through the batch's receipt: committed is a success with its
// revision; not committed is a KindUnavailable error saying nothing was
// applied, and the batch, should it still reach Redis, is refused.
func TestApplySettlesALostReply(t *testing.T) {
	for _, path := range []struct {
		name string
		n    int
	}{{"script", 3}, {"multi", 300}} {
		t.Run(path.name+"/committed", func(t *testing.T) {
			h := &lostReply{sent: true}
			plain, m, jobs, ctx := openHooked(t, h)
			rev0 := currentRev(t, jobs, ctx)
			h.armed.Store(true)
			rev, err := m.Apply(ctx, "w", nodeBatch(1, path.n, rev0))
			if err != nil {
				t.Fatalf("a batch that committed answered %v", err)
			}
			if h.armed.Load() {
				t.Fatal("the reply was never lost: the test did not reach the commit")
			}
			if rev != rev0+1 {
				t.Errorf("revision %d, want %d", rev, rev0+1)
			}
			if got := countRows(t, plain, ctx); got != int64(path.n) {
				t.Errorf("%d rows stored, want %d", got, path.n)
			}
		})
		t.Run(path.name+"/not sent", func(t *testing.T) {
			h := &lostReply{}
			plain, m, jobs, ctx := openHooked(t, h)
			rev0 := currentRev(t, jobs, ctx)
			h.armed.Store(true)
			_, err := m.Apply(ctx, "w", nodeBatch(1, path.n, rev0))
			if model.KindOf(err) != model.KindUnavailable || !strings.Contains(err.Error(), "not applied") {
				t.Fatalf("a batch that never arrived answered %v (kind %v), want KindUnavailable saying it was not applied", err, model.KindOf(err))
			}
			// The batch arrives after all: it must not land now that the
			// client has been told it did not.
			if h.late == nil {
				t.Fatal("the commit was not held back")
			}
			_ = h.late()
			if got := countRows(t, plain, ctx); got != 0 {
				t.Errorf("%d rows stored by a batch reported as not applied", got)
			}
			if rev := currentRev(t, jobs, ctx); rev != rev0 {
				t.Errorf("revision moved from %d to %d", rev0, rev)
			}
			// The client retries as told.
			if _, err := m.Apply(ctx, "w", nodeBatch(1, path.n, rev0)); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if got := countRows(t, plain, ctx); got != int64(path.n) {
				t.Errorf("after the retry %d rows, want %d", got, path.n)
			}
		})
	}
}

func currentRev(t *testing.T, jobs *redisstore.Jobs, ctx context.Context) int64 {
	t.Helper()
	slot, err := jobs.Slot(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	return slot.Rev
}

// While a planned change holds the write lease, other writes wait for it
// instead of moving the revision under it; the holder's own batches pass.
func TestWritesWaitForTheLease(t *testing.T) {
	h := &lostReply{}
	plain, waiter, _, ctx := openHooked(t, h)
	token, err := plain.Lease(ctx, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := waiter.Apply(ctx, "w", nodeBatch(1, 1, 0))
		done <- err
	}()
	// A safety net, generous for a loaded machine: the writer only has
	// to ask for the lease three times.
	for deadline := time.Now().Add(2 * time.Minute); h.gets.Load() < 3; {
		if time.Now().After(deadline) {
			t.Fatal("the writer never waited for the lease")
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("a write went through a lease held by another change: %v", err)
	default:
	}
	held := nodeBatch(2, 1, 0)
	held.Lease = token
	if _, err := plain.Apply(ctx, "w", held); err != nil {
		t.Fatalf("the holder's own batch: %v", err)
	}
	if got := countRows(t, plain, ctx); got != 1 {
		t.Fatalf("%d rows while the lease is held, want only the holder's", got)
	}
	// A second planned change waits for the lease too.
	second := make(chan string, 1)
	go func() {
		tok, err := plain.Lease(ctx, "w", "")
		if err != nil {
			tok = "error: " + err.Error()
		}
		second <- tok
	}()
	if err := plain.Release(ctx, "w", token); err != nil {
		t.Fatal(err)
	}
	tok2 := <-second
	if tok2 == token || strings.HasPrefix(tok2, "error") {
		t.Fatalf("second lease: %q", tok2)
	}
	if err := plain.Release(ctx, "w", tok2); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting write after the release: %v", err)
	}
	if got := countRows(t, plain, ctx); got != 2 {
		t.Errorf("%d rows, want 2", got)
	}
}

// go-redis sends a command again, on a new connection, when its reply
// timed out (MaxRetries), below any error our code sees. The copy of the
// apply script runs after the first committed and must answer as the
// first did: it answered "void" (a 500) while the rows had landed, so a
// client retrying an auto-id bulk would have duplicated them. The hook
// sends every apply script twice, as such a resend does.
func TestApplyAnswersAResentScriptByItsReceipt(t *testing.T) {
	plain, m, jobs, ctx := openHooked(t, resendScripts{})
	rev0 := currentRev(t, jobs, ctx)
	rev, err := m.Apply(ctx, "w", nodeBatch(1, 3, 0))
	if err != nil {
		t.Fatalf("a batch that landed answered %v (kind %v)", err, model.KindOf(err))
	}
	if got := countRows(t, plain, ctx); got != 3 || rev != rev0+1 || currentRev(t, jobs, ctx) != rev0+1 {
		t.Errorf("rows %d (want 3), revision answered %d, stored %d (want %d)", got, rev, currentRev(t, jobs, ctx), rev0+1)
	}
	// A resent batch that was refused is refused again, not applied.
	var ce *store.ConflictError
	if _, err := m.Apply(ctx, "w", nodeBatch(1, 1, 0)); !errors.As(err, &ce) || !ce.Exists {
		t.Errorf("a resent create of an existing node answered %v, want a conflict", err)
	}
}

// isApplyScript reports whether cmd runs the apply script: the one script
// called with six keys.
func isApplyScript(cmd redis.Cmder) bool {
	args := cmd.Args()
	return (cmd.Name() == "evalsha" || cmd.Name() == "eval") && len(args) > 2 && fmt.Sprint(args[2]) == "6"
}

// resendScripts runs the apply script twice and keeps the second reply.
type resendScripts struct{}

func (resendScripts) DialHook(next redis.DialHook) redis.DialHook { return next }
func (resendScripts) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if isApplyScript(cmd) {
			if err := next(ctx, cmd); err != nil {
				return err // NOSCRIPT: the client sends the script itself next
			}
		}
		return next(ctx, cmd)
	}
}
func (resendScripts) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
