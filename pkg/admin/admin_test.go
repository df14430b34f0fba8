package admin_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/admin"
	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// The command against the Redis key store: what an operator types, what
// it prints, and that the key it prints opens the workspace.
func TestAdminCommands(t *testing.T) {
	svc := &auth.Service{Store: redisstore.NewAuth(redistest.Start(t).Client(t))}
	ctx := context.Background()
	run := func(args ...string) (string, string, error) {
		t.Helper()
		var out, errOut bytes.Buffer
		err := admin.Run(ctx, args, svc, &out, &errOut)
		return out.String(), errOut.String(), err
	}
	if _, _, err := run("workspace", "create", "team-a"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run("workspace", "create", "team-a"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second create: %v, want it to say the workspace exists", err)
	}
	out, _, err := run("workspace", "list")
	if err != nil || !strings.Contains(out, "team-a") {
		t.Errorf("workspace list = %q, %v", out, err)
	}
	out, note, err := run("key", "create", "--workspace", "team-a", "--label", "ci")
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(out)
	if ws, err := svc.Authenticate(ctx, key); err != nil || ws != "team-a" {
		t.Fatalf("the printed key %q opens %q, %v", key, ws, err)
	}
	if !strings.Contains(note, "cannot be shown again") || strings.Contains(note, key) {
		t.Errorf("the note on stderr: %q", note)
	}
	list, _, err := run("key", "list", "--workspace", "team-a")
	id := key[4:16]
	if err != nil || !strings.Contains(list, id) || !strings.Contains(list, "ci") || strings.Contains(list, key[17:]) {
		t.Errorf("key list = %q, %v; want the id and label, never the secret", list, err)
	}
	if _, _, err := run("key", "revoke", id); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Authenticate(ctx, key); err == nil {
		t.Error("the revoked key still opens its workspace")
	}

	usage := []struct {
		name string
		args []string
	}{
		{"nothing", nil},
		{"unknown", []string{"key", "rotate"}},
		{"create without workspace", []string{"key", "create"}},
		{"unknown flag", []string{"key", "create", "--ws", "a"}},
		{"extra argument", []string{"workspace", "list", "x"}},
		{"revoke without id", []string{"key", "revoke"}},
		{"limits without workspace", []string{"workspace", "limits"}},
		{"limits with a flag for a workspace", []string{"workspace", "limits", "--nodes", "5"}},
		{"limit not a number", []string{"workspace", "limits", "team-a", "--nodes", "many"}},
		{"limit zero", []string{"workspace", "limits", "team-a", "--nodes", "0"}},
		{"unknown limit", []string{"workspace", "limits", "team-a", "--beams", "5"}},
	}
	for _, tt := range usage {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := run(tt.args...); !errors.Is(err, admin.ErrUsage) {
				t.Errorf("Run(%q) = %v, want a usage error", tt.args, err)
			}
		})
	}
	if _, _, err := run("key", "create", "--workspace", "missing"); err == nil || !strings.Contains(err.Error(), "create it first") {
		t.Errorf("a key for a missing workspace: %v", err)
	}
}

// workspace limits sets a workspace's own limits, gives one back to the
// service's default, and shows them; the store keeps them on the
// workspace's record, where the API reads them.
func TestAdminWorkspaceLimits(t *testing.T) {
	svc := &auth.Service{Store: redisstore.NewAuth(redistest.Start(t).Client(t))}
	ctx := context.Background()
	run := func(args ...string) (string, error) {
		t.Helper()
		var out, errOut bytes.Buffer
		err := admin.Run(ctx, args, svc, &out, &errOut)
		return out.String(), err
	}
	if _, err := run("workspace", "create", "team-a"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("workspace", "limits", "team-a", "--nodes", "1000", "--loadCases", "50"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("workspace", "limits", "team-a", "--loadCases", "default", "--jobFileBytes", "1048576"); err != nil {
		t.Fatal(err)
	}
	w, err := svc.Workspace(ctx, "team-a")
	if want := (model.Limits{Nodes: 1000, JobFileBytes: 1 << 20}); err != nil || w.Limits != want {
		t.Errorf("stored limits %+v, %v; want %+v", w.Limits, err, want)
	}
	out, err := run("workspace", "limits", "team-a")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nodes  1000  MAX_NODES", "loadCases  -  MAX_LOAD_CASES", "jobFileBytes  1048576  MAX_JOB_BYTES"} {
		if !strings.Contains(strings.Join(strings.Fields(out), "  "), want) {
			t.Errorf("workspace limits printed\n%s\nwithout %q", out, want)
		}
	}
	if _, err := run("workspace", "limits", "missing", "--nodes", "5"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("limits of a missing workspace: %v", err)
	}
}
