package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
)

// The API keys and workspaces live outside every workspace, under their
// own hash tag, so that the transactions spanning both stay in one slot:
//
//	{gusset:auth}:workspaces  hash: workspace name → auth.Workspace (JSON)
//	{gusset:auth}:keys        hash: key id → auth.Key (JSON; the key's
//	                          SHA-256, never the key)
const (
	authWorkspaces = "{gusset:auth}:workspaces"
	authKeys       = "{gusset:auth}:keys"
)

// Auth keeps workspaces and API key records in Redis.
type Auth struct{ rdb redis.UniversalClient }

var _ auth.Store = (*Auth)(nil)

// NewAuth returns the key store on rdb.
func NewAuth(rdb redis.UniversalClient) *Auth { return &Auth{rdb: rdb} }

// CreateWorkspace implements auth.Store.
func (a *Auth) CreateWorkspace(ctx context.Context, w auth.Workspace) error {
	b, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("encode workspace: %w", err)
	}
	added, err := a.rdb.HSetNX(ctx, authWorkspaces, w.Name, b).Result()
	if err != nil {
		return fmt.Errorf("create workspace: %w", unreachable(err))
	}
	if !added {
		return model.E(model.KindDuplicate, "workspace %s already exists", w.Name)
	}
	return nil
}

// Workspaces implements auth.Store.
func (a *Auth) Workspaces(ctx context.Context) ([]auth.Workspace, error) {
	return hashValues[auth.Workspace](ctx, a.rdb, authWorkspaces)
}

// addKeyScript adds key record ARGV[2] under id ARGV[1] when workspace
// ARGV[3] exists and the id is free, in one step.
var addKeyScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[3]) == 0 then return 'noworkspace' end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 'exists' end
return 'ok'`)

// AddKey implements auth.Store.
func (a *Auth) AddKey(ctx context.Context, k auth.Key) error {
	b, err := json.Marshal(k)
	if err != nil {
		return fmt.Errorf("encode key: %w", err)
	}
	res, err := addKeyScript.Run(ctx, a.rdb, []string{authWorkspaces, authKeys}, k.ID, b, k.Workspace).Text()
	switch {
	case err != nil:
		return fmt.Errorf("add key: %w", unreachable(err))
	case res == "noworkspace":
		return model.E(model.KindNotFound, "workspace %s does not exist: create it first", k.Workspace)
	case res == "exists":
		return model.E(model.KindDuplicate, "a key with id %s already exists", k.ID)
	}
	return nil
}

// Key implements auth.Store.
func (a *Auth) Key(ctx context.Context, id string) (auth.Key, error) {
	b, err := a.rdb.HGet(ctx, authKeys, id).Bytes()
	if errors.Is(err, redis.Nil) {
		return auth.Key{}, model.NotFound("API key", id)
	}
	if err != nil {
		// Left unclassified: auth.Service.Authenticate answers any
		// failure but a missing key as KindUnavailable, saying the keys
		// cannot be checked.
		return auth.Key{}, fmt.Errorf("read key: %w", err)
	}
	var k auth.Key
	if err := json.Unmarshal(b, &k); err != nil {
		return auth.Key{}, fmt.Errorf("decode key %s: %w", id, err)
	}
	return k, nil
}

// Keys implements auth.Store.
func (a *Auth) Keys(ctx context.Context) ([]auth.Key, error) {
	return hashValues[auth.Key](ctx, a.rdb, authKeys)
}

// RevokeKey implements auth.Store.
func (a *Auth) RevokeKey(ctx context.Context, id string, at time.Time) (auth.Key, error) {
	k, err := updateRecord(ctx, a.rdb, authKeys, id, model.NotFound("API key", id), func(k *auth.Key) bool {
		if k.RevokedAt != nil {
			return false
		}
		k.RevokedAt = &at
		return true
	})
	if err != nil {
		return auth.Key{}, wrap("revoke key", err)
	}
	return k, nil
}

// Workspace implements auth.Store.
func (a *Auth) Workspace(ctx context.Context, name string) (auth.Workspace, error) {
	b, err := a.rdb.HGet(ctx, authWorkspaces, name).Bytes()
	if errors.Is(err, redis.Nil) {
		return auth.Workspace{}, model.NotFound("workspace", name)
	}
	if err != nil {
		return auth.Workspace{}, fmt.Errorf("read workspace: %w", unreachable(err))
	}
	var w auth.Workspace
	if err := json.Unmarshal(b, &w); err != nil {
		return auth.Workspace{}, fmt.Errorf("decode workspace %s: %w", name, err)
	}
	return w, nil
}

// SetWorkspaceLimits implements auth.Store.
func (a *Auth) SetWorkspaceLimits(ctx context.Context, name string, l model.Limits) (auth.Workspace, error) {
	w, err := updateRecord(ctx, a.rdb, authWorkspaces, name, model.NotFound("workspace", name), func(w *auth.Workspace) bool {
		w.Limits = l
		return true
	})
	if err != nil {
		return auth.Workspace{}, wrap("set workspace limits", err)
	}
	return w, nil
}

// updateRecord changes the JSON record in field of hash with change, in
// one transaction, and returns it as changed; change reports whether it
// changed anything to write. A missing record is notFound.
func updateRecord[T any](ctx context.Context, rdb redis.UniversalClient, hash, field string, notFound error, change func(*T) bool) (T, error) {
	var out T
	for range maxTxRetries {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			b, err := tx.HGet(ctx, hash, field).Bytes()
			if errors.Is(err, redis.Nil) {
				return notFound
			}
			if err != nil {
				return err
			}
			out = *new(T)
			if err := json.Unmarshal(b, &out); err != nil {
				return fmt.Errorf("decode %s %s: %w", hash, field, err)
			}
			if !change(&out) {
				return nil
			}
			nb, err := json.Marshal(out)
			if err != nil {
				return err
			}
			err = execTx(ctx, tx, func(p redis.Pipeliner) error {
				p.HSet(ctx, hash, field, nb)
				return nil
			})
			return err
		}, hash)
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		return out, err
	}
	return out, model.E(model.KindUnavailable, "the workspaces and keys are being changed by too many requests at once; retry")
}

// hashValues decodes every value of the hash key.
func hashValues[T any](ctx context.Context, rdb redis.UniversalClient, key string) ([]T, error) {
	m, err := rdb.HGetAll(ctx, key).Result()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, unreachable(err))
	}
	out := make([]T, 0, len(m))
	for f, v := range m {
		var x T
		if err := json.Unmarshal([]byte(v), &x); err != nil {
			return nil, fmt.Errorf("decode %s %s: %w", key, f, err)
		}
		out = append(out, x)
	}
	return out, nil
}
