package admin_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/admin"
	"github.com/gusset/gusset/pkg/auth"
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
