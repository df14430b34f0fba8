// Package auth maps API keys to workspaces.
//
// With API keys on, every request carries a key, and the key names the
// workspace the request works in: its job slot, runs, results, error log
// and jobs directory. An administrator creates workspaces and keys (the
// gusset-admin command); a key is shown once, when it is made, and only
// its SHA-256 is kept. A revoked key stops working at the next request:
// nothing is cached between requests.
//
// The package knows no transport and no storage: it reaches the key
// records through Store.
package auth

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gusset/gusset/pkg/model"
)

// Workspace is a named set of one job slot, its runs and results, and its
// jobs directory.
type Workspace struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	// Limits are the workspace's own limits; those it does not set are
	// the service's defaults.
	Limits model.Limits `json:"limits"`
}

// Key is the stored record of an API key; the key itself is not in it.
type Key struct {
	// ID is the public part of the key, which names it.
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	// Label says whose or what the key is, for listings.
	Label string `json:"label,omitempty"`
	// Hash is the SHA-256 of the key, hexadecimal.
	Hash      string     `json:"hash"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
}

// Store keeps workspaces and key records.
type Store interface {
	// CreateWorkspace adds a workspace; one of that name is KindDuplicate.
	CreateWorkspace(ctx context.Context, w Workspace) error
	// Workspaces lists every workspace.
	Workspaces(ctx context.Context) ([]Workspace, error)
	// AddKey adds a key record, in the same transaction as it checks that
	// its workspace exists (KindNotFound otherwise); a record of that id
	// is KindDuplicate.
	AddKey(ctx context.Context, k Key) error
	// Key reads a key record; a missing one is KindNotFound.
	Key(ctx context.Context, id string) (Key, error)
	// Keys lists every key record.
	Keys(ctx context.Context) ([]Key, error)
	// RevokeKey marks a key revoked at at, unless it already is, and
	// returns the record; a missing one is KindNotFound.
	RevokeKey(ctx context.Context, id string, at time.Time) (Key, error)
	// Workspace reads a workspace; a missing one is KindNotFound.
	Workspace(ctx context.Context, name string) (Workspace, error)
	// SetWorkspaceLimits replaces a workspace's own limits and returns
	// the workspace; a missing one is KindNotFound.
	SetWorkspaceLimits(ctx context.Context, name string, l model.Limits) (Workspace, error)
}

// MaxLabelLen bounds a key's label, in bytes.
const MaxLabelLen = 200

// workspaceName is the shape of a workspace name: it becomes a folder name
// and a part of Redis key names, so it keeps to characters that are safe
// in both, in lower case so that two names never differ only in case on
// a case-insensitive file system.
var workspaceName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)

// CheckWorkspace refuses a workspace name that is not 1 to 63 lower-case
// letters, digits, '-' and '_', starting with a letter or digit.
func CheckWorkspace(name string) error {
	if !workspaceName.MatchString(name) {
		return model.Invalid("workspace", "workspace name %q must be 1 to 63 lower-case letters, digits, '-' and '_', "+
			"starting with a letter or digit", name)
	}
	return nil
}

// Service manages workspaces and keys, and authenticates requests.
type Service struct {
	Store Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now().UTC()
	}
	return s.Now().UTC()
}

// CreateWorkspace creates the workspace name.
func (s *Service) CreateWorkspace(ctx context.Context, name string) (Workspace, error) {
	if err := CheckWorkspace(name); err != nil {
		return Workspace{}, err
	}
	w := Workspace{Name: name, CreatedAt: s.now()}
	if err := s.Store.CreateWorkspace(ctx, w); err != nil {
		return Workspace{}, model.Wrap("create workspace", err)
	}
	return w, nil
}

// Workspaces lists the workspaces by name.
func (s *Service) Workspaces(ctx context.Context) ([]Workspace, error) {
	ws, err := s.Store.Workspaces(ctx)
	if err != nil {
		return nil, model.Wrap("list workspaces", err)
	}
	slices.SortFunc(ws, func(a, b Workspace) int { return strings.Compare(a.Name, b.Name) })
	return ws, nil
}

// Workspace reads the workspace name.
func (s *Service) Workspace(ctx context.Context, name string) (Workspace, error) {
	w, err := s.Store.Workspace(ctx, name)
	if err != nil {
		return Workspace{}, model.Wrap("read workspace", err)
	}
	return w, nil
}

// SetLimits replaces the workspace's own limits (a zero field: the
// service's default).
func (s *Service) SetLimits(ctx context.Context, name string, l model.Limits) (Workspace, error) {
	if err := l.Validate(); err != nil {
		return Workspace{}, err
	}
	w, err := s.Store.SetWorkspaceLimits(ctx, name, l)
	if err != nil {
		return Workspace{}, model.Wrap("set workspace limits", err)
	}
	return w, nil
}

// CreateKey makes a key for workspace ws and returns it with its record.
// The key is in no record: it must be handed over now.
func (s *Service) CreateKey(ctx context.Context, ws, label string) (string, Key, error) {
	if err := CheckWorkspace(ws); err != nil {
		return "", Key{}, err
	}
	if len(label) > MaxLabelLen || strings.IndexFunc(label, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return "", Key{}, model.Invalid("label", "a key label is at most %d bytes of printable text", MaxLabelLen)
	}
	key, id, err := newKey()
	if err != nil {
		return "", Key{}, err
	}
	rec := Key{ID: id, Workspace: ws, Label: label, Hash: hashKey(key), CreatedAt: s.now()}
	if err := s.Store.AddKey(ctx, rec); err != nil {
		return "", Key{}, model.Wrap("create key", err)
	}
	return key, rec, nil
}

// Keys lists the key records of workspace ws ("" for every workspace),
// oldest first.
func (s *Service) Keys(ctx context.Context, ws string) ([]Key, error) {
	all, err := s.Store.Keys(ctx)
	if err != nil {
		return nil, model.Wrap("list keys", err)
	}
	out := all[:0]
	for _, k := range all {
		if ws == "" || k.Workspace == ws {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b Key) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Revoke revokes the key of id. Revoking a revoked key changes nothing.
func (s *Service) Revoke(ctx context.Context, id string) (Key, error) {
	k, err := s.Store.RevokeKey(ctx, id, s.now())
	if err != nil {
		return Key{}, model.Wrap("revoke key", err)
	}
	return k, nil
}

// errBadKey is the answer to any key that does not open a workspace; it
// does not say whether the id exists, so that ids cannot be probed.
var errBadKey = &model.Error{Kind: model.KindUnauthorized,
	Msg: "the API key is not valid: check it was copied whole, or ask an administrator for a new one"}

// Authenticate returns the workspace of a presented key. A key that is
// malformed, unknown or revoked is KindUnauthorized; a store that cannot
// be reached is KindUnavailable.
func (s *Service) Authenticate(ctx context.Context, presented string) (string, error) {
	id, ok := keyID(presented)
	if !ok {
		return "", errBadKey
	}
	rec, err := s.Store.Key(ctx, id)
	switch {
	case model.KindOf(err) == model.KindNotFound:
		return "", errBadKey
	case err != nil:
		var me *model.Error
		if errors.As(err, &me) {
			return "", model.Wrap("authenticate", err)
		}
		return "", &model.Error{Kind: model.KindUnavailable, Op: "authenticate", Err: err,
			Msg: "the API keys cannot be checked right now; retry"}
	}
	if !sameHash(hashKey(presented), rec.Hash) {
		return "", errBadKey
	}
	if rec.RevokedAt != nil {
		return "", &model.Error{Kind: model.KindUnauthorized,
			Msg: fmt.Sprintf("the API key %s was revoked on %s: ask an administrator for a new one", rec.ID, rec.RevokedAt.Format(time.DateOnly))}
	}
	return rec.Workspace, nil
}
