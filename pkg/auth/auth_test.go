package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// newService returns the rules over the Redis key store of a fresh
// redis-server, with a clock that a test moves.
func newService(t *testing.T) (*auth.Service, *redistest.Server) {
	t.Helper()
	srv := redistest.Start(t)
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	return &auth.Service{Store: redisstore.NewAuth(srv.Client(t)), Now: func() time.Time { return now }}, srv
}

func TestWorkspaceNames(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	tests := []struct {
		name string
		kind model.Kind // 0 (KindInternal) stands for success
	}{
		{"team-a", 0},
		{"a", 0},
		{"x_1", 0},
		{strings.Repeat("a", 63), 0},
		{strings.Repeat("a", 64), model.KindValidation},
		{"", model.KindValidation},
		{"Team", model.KindValidation},
		{"-lead", model.KindValidation},
		{"a:b", model.KindValidation},
		{"{ws}", model.KindValidation},
		{"..", model.KindValidation},
		{"a/b", model.KindValidation},
		{"team-a", model.KindDuplicate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.CreateWorkspace(ctx, tt.name)
			if tt.kind == 0 && err != nil || tt.kind != 0 && model.KindOf(err) != tt.kind {
				t.Errorf("CreateWorkspace(%q) = %v (kind %v), want kind %v", tt.name, err, model.KindOf(err), tt.kind)
			}
		})
	}
	ws, err := svc.Workspaces(ctx)
	if err != nil || len(ws) != 4 || ws[0].Name != "a" {
		t.Errorf("Workspaces = %+v, %v; want the 4 created, by name", ws, err)
	}
}

func TestKeysOpenTheirWorkspace(t *testing.T) {
	svc, srv := newService(t)
	ctx := context.Background()
	if _, _, err := svc.CreateKey(ctx, "nobody", ""); model.KindOf(err) != model.KindNotFound {
		t.Fatalf("a key for a missing workspace: %v, want KindNotFound", err)
	}
	for _, ws := range []string{"alpha", "beta"} {
		if _, err := svc.CreateWorkspace(ctx, ws); err != nil {
			t.Fatal(err)
		}
	}
	keyA, recA, err := svc.CreateKey(ctx, "alpha", "alice's laptop")
	if err != nil {
		t.Fatal(err)
	}
	keyB, _, err := svc.CreateKey(ctx, "beta", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateKey(ctx, "alpha", "tab\there"); model.KindOf(err) != model.KindValidation {
		t.Errorf("a label with a control character: %v, want KindValidation", err)
	}
	for key, want := range map[string]string{keyA: "alpha", keyB: "beta"} {
		if ws, err := svc.Authenticate(ctx, key); err != nil || ws != want {
			t.Errorf("Authenticate = %q, %v; want %q", ws, err, want)
		}
	}
	// Redis holds the hash, never the key or its secret part.
	raw, err := srv.Client(t).HGetAll(ctx, "{gusset:auth}:keys").Result()
	if err != nil || len(raw) != 2 {
		t.Fatalf("key records: %v, %v", raw, err)
	}
	for _, v := range raw {
		if strings.Contains(v, keyA[17:]) || strings.Contains(v, keyB[17:]) {
			t.Errorf("a stored record holds a key's secret: %s", v)
		}
	}
	// A key of the right shape that was never made, and one whose secret
	// differs from a real key's by one character.
	forged := keyA[:len(keyA)-1] + map[bool]string{true: "B", false: "A"}[keyA[len(keyA)-1] == 'A']
	for _, bad := range []string{forged, "gsk_000000000000_" + keyA[17:], "not a key"} {
		if ws, err := svc.Authenticate(ctx, bad); model.KindOf(err) != model.KindUnauthorized {
			t.Errorf("Authenticate(%q) = %q, %v; want KindUnauthorized", bad, ws, err)
		}
	}
	// Revoking: the next check refuses it, naming it revoked; the other
	// key goes on; revoking twice keeps the first date.
	first, err := svc.Revoke(ctx, recA.ID)
	if err != nil || first.RevokedAt == nil {
		t.Fatalf("revoke: %+v, %v", first, err)
	}
	if _, err := svc.Authenticate(ctx, keyA); model.KindOf(err) != model.KindUnauthorized || !strings.Contains(err.Error(), "revoked") {
		t.Errorf("revoked key: %v, want KindUnauthorized saying revoked", err)
	}
	if ws, err := svc.Authenticate(ctx, keyB); err != nil || ws != "beta" {
		t.Errorf("beta's key after alpha's was revoked: %q, %v", ws, err)
	}
	svc.Now = func() time.Time { return first.RevokedAt.Add(time.Hour) }
	if again, err := svc.Revoke(ctx, recA.ID); err != nil || !again.RevokedAt.Equal(*first.RevokedAt) {
		t.Errorf("second revoke: %+v, %v; want the first date kept", again, err)
	}
	if _, err := svc.Revoke(ctx, "000000000000"); model.KindOf(err) != model.KindNotFound {
		t.Errorf("revoke of a missing id: %v, want KindNotFound", err)
	}
	ks, err := svc.Keys(ctx, "alpha")
	if err != nil || len(ks) != 1 || ks[0].ID != recA.ID || ks[0].Label != "alice's laptop" || ks[0].RevokedAt == nil {
		t.Errorf("alpha's keys = %+v, %v", ks, err)
	}
	if all, err := svc.Keys(ctx, ""); err != nil || len(all) != 2 {
		t.Errorf("all keys = %d, %v; want 2", len(all), err)
	}
	// A store that cannot be reached is a 503-kind error, not a 401, and
	// not a 500 either: the API reads the workspace's record (its limits)
	// on every request after the key, and a Redis restart between the two
	// reads answered 500 in the compose scenario.
	srv.Kill()
	for _, call := range []struct {
		name string
		do   func() error
	}{
		{"Authenticate", func() error { _, err := svc.Authenticate(ctx, keyB); return err }},
		{"Workspace", func() error { _, err := svc.Workspace(ctx, "alpha"); return err }},
		{"Workspaces", func() error { _, err := svc.Workspaces(ctx); return err }},
		{"CreateWorkspace", func() error { _, err := svc.CreateWorkspace(ctx, "gamma"); return err }},
		{"CreateKey", func() error { _, _, err := svc.CreateKey(ctx, "alpha", ""); return err }},
		{"Keys", func() error { _, err := svc.Keys(ctx, "alpha"); return err }},
		{"Revoke", func() error { _, err := svc.Revoke(ctx, recA.ID); return err }},
		{"SetLimits", func() error { _, err := svc.SetLimits(ctx, "alpha", model.Limits{}); return err }},
	} {
		if err := call.do(); model.KindOf(err) != model.KindUnavailable {
			t.Errorf("%s with Redis down: %v (kind %v), want KindUnavailable", call.name, err, model.KindOf(err))
		}
	}
}
