package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// KeyWidth is the number of digits of one id inside a collection key.
// Keys are zero-padded so that their byte order is their numeric order:
// paging and id ranges are then plain lexicographic ranges.
const KeyWidth = 10

// Key builds the collection key of one id or of a composite key (a load's
// case and node, say). Every part must be in 0..9999999999.
func Key(parts ...int64) string {
	if len(parts) == 0 {
		return ""
	}
	// One allocation, digits written from the right: bulk requests build
	// tens of thousands of keys.
	b := make([]byte, len(parts)*(KeyWidth+1)-1)
	for i, p := range parts {
		end := (i+1)*(KeyWidth+1) - 1
		if i > 0 {
			b[end-KeyWidth-1] = ':'
		}
		if p < 0 || p >= keyLimit {
			return slowKey(parts)
		}
		for j := end - 1; j >= end-KeyWidth; j-- {
			b[j] = byte('0' + p%10)
			p /= 10
		}
	}
	return string(b)
}

// keyLimit is the first id that needs more than KeyWidth digits.
const keyLimit = 10_000_000_000

// slowKey formats parts outside 0..keyLimit-1 the way Key always has:
// such keys never name a stored row, but callers may still look them up.
func slowKey(parts []int64) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(':')
		}
		s := strconv.FormatInt(p, 10)
		for j := len(s); j < KeyWidth; j++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
	return b.String()
}

// ParseKey splits a collection key into its ids.
func ParseKey(key string) ([]int64, error) {
	parts := strings.Split(key, ":")
	out := make([]int64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad collection key %q: %w", key, err)
		}
		out[i] = n
	}
	return out, nil
}

// KeyRange is an inclusive range of keys, [Lo, Hi] in byte order. A range
// over composite keys by their first id uses Lo = Key(a) and
// Hi = Key(b) + ";" (';' sorts right after ':').
type KeyRange struct {
	Lo, Hi string
}

// IDRange is the KeyRange of single-id keys lo..hi.
func IDRange(lo, hi int64) KeyRange { return KeyRange{Lo: Key(lo), Hi: Key(hi)} }

// PrefixRange is the KeyRange of composite keys whose first ids are lo..hi.
func PrefixRange(lo, hi int64) KeyRange { return KeyRange{Lo: Key(lo), Hi: Key(hi) + ";"} }

// UnderPrefix is the KeyRange of composite keys that start with the given
// leading parts (every subLoad of a case and member, say).
func UnderPrefix(parts ...int64) KeyRange {
	p := Key(parts...)
	return KeyRange{Lo: p + ":", Hi: p + ";"}
}

// CountQuery asks how many keys of a collection lie in a range.
type CountQuery struct {
	Coll  string
	Range KeyRange
}

// Page is one page of a collection in key order.
type Page struct {
	Keys   []string
	Values [][]byte
	// Total counts every row that matched, not just this page.
	Total int64
}

// Op is one change of a Batch.
type Op struct {
	Kind  OpKind
	Coll  string
	Key   string
	Value []byte
	// Expect, when not nil, is the row as the caller read it: an update
	// then applies only if the row is still exactly that, so two
	// read-modify-write updates of one row cannot lose each other's
	// changes. A mismatch fails the batch with ErrStale.
	Expect []byte
}

// OpKind says what an Op does and what it requires.
type OpKind byte

// The kinds of change. Checks see the effect of earlier ops of the same
// batch, so a batch may create a node and then require it.
const (
	// OpCreate writes a new row; the key must not exist.
	OpCreate OpKind = 'C'
	// OpUpdate overwrites a row; the key must exist.
	OpUpdate OpKind = 'U'
	// OpPut writes a row whether or not it exists.
	OpPut OpKind = 'P'
	// OpDelete removes a row; the key must exist.
	OpDelete OpKind = 'D'
	// OpDeleteIfAny removes a row if it exists.
	OpDeleteIfAny OpKind = 'd'
	// OpRequire changes nothing; the key must exist.
	OpRequire OpKind = 'R'
	// OpForbid changes nothing; the key must not exist.
	OpForbid OpKind = 'F'
)

// Batch is a set of changes applied all together or not at all.
type Batch struct {
	Ops []Op
	// ExpectRev, when not zero, makes the batch apply only while the model
	// revision is still ExpectRev. A change planned from a read of the whole
	// model (a cascade) uses it to be sure nothing moved under it.
	ExpectRev int64
	// Verified, together with ExpectRev, says the caller has checked each
	// op's precondition (a created key free, an updated row present and
	// equal to Expect) in reads made while the model was at ExpectRev.
	// While the revision holds those checks still hold, so a store may
	// skip reading the rows again; a bulk create of 10,000 rows saves a
	// read of 10,000 keys.
	Verified bool
	// Lasts, with Verified, are greatest last key parts the caller read
	// with LastParts at ExpectRev: collection → prefix → last part. A
	// store keeping that index need not read these prefixes again to
	// raise them; it reads only prefixes missing here.
	Lasts map[string]map[string]int64
	// Lease is the token of the workspace's write lease when the caller
	// holds it (see Model.Lease); "" when it does not. While another
	// caller holds the lease, Apply waits for it to be released.
	Lease string
	// Caps bound the rows of collections: collection → the most rows it
	// may hold once the batch is applied. A batch that would take a
	// collection past its cap fails whole with a *CapError; a batch that
	// does not grow a collection is never refused by its cap, so a
	// workspace over a lowered limit can still edit and delete.
	Caps map[string]int64
}

// CapError reports a batch refused by one of its Caps.
type CapError struct {
	Coll string
	// Max is the cap; Would is the rows the collection would have held.
	Max, Would int64
}

func (e *CapError) Error() string {
	return fmt.Sprintf("collection %s would hold %d rows, over its cap of %d", e.Coll, e.Would, e.Max)
}

// ErrStale reports a batch whose ExpectRev no longer matched; re-read and
// plan again.
var ErrStale = errors.New("the model changed while the change was being planned")

// Create adds an OpCreate.
func (b *Batch) Create(coll, key string, v []byte) {
	b.Ops = append(b.Ops, Op{Kind: OpCreate, Coll: coll, Key: key, Value: v})
}

// Update adds an OpUpdate.
func (b *Batch) Update(coll, key string, v []byte) {
	b.Ops = append(b.Ops, Op{Kind: OpUpdate, Coll: coll, Key: key, Value: v})
}

// UpdateFrom adds an OpUpdate that applies only while the row is still
// old (see Op.Expect).
func (b *Batch) UpdateFrom(coll, key string, v, old []byte) {
	b.Ops = append(b.Ops, Op{Kind: OpUpdate, Coll: coll, Key: key, Value: v, Expect: old})
}

// Put adds an OpPut.
func (b *Batch) Put(coll, key string, v []byte) {
	b.Ops = append(b.Ops, Op{Kind: OpPut, Coll: coll, Key: key, Value: v})
}

// Delete adds an OpDelete.
func (b *Batch) Delete(coll, key string) {
	b.Ops = append(b.Ops, Op{Kind: OpDelete, Coll: coll, Key: key, Value: nil})
}

// DeleteIfAny adds an OpDeleteIfAny.
func (b *Batch) DeleteIfAny(coll, key string) {
	b.Ops = append(b.Ops, Op{Kind: OpDeleteIfAny, Coll: coll, Key: key, Value: nil})
}

// Require adds an OpRequire.
func (b *Batch) Require(coll, key string) {
	b.Ops = append(b.Ops, Op{Kind: OpRequire, Coll: coll, Key: key, Value: nil})
}

// Forbid adds an OpForbid.
func (b *Batch) Forbid(coll, key string) {
	b.Ops = append(b.Ops, Op{Kind: OpForbid, Coll: coll, Key: key, Value: nil})
}

// ConflictError reports the op of a batch whose precondition failed at
// commit time; nothing of the batch was applied.
type ConflictError struct {
	Index int // index into Batch.Ops
	Op    Op
	// Exists is true when the key existed (a create or forbid failed),
	// false when it was missing (an update, delete or require failed).
	Exists bool
}

// Error implements error.
func (e *ConflictError) Error() string {
	if e.Exists {
		return fmt.Sprintf("%s %s already exists", e.Op.Coll, e.Op.Key)
	}
	return fmt.Sprintf("%s %s does not exist", e.Op.Coll, e.Op.Key)
}

// Model keeps the rows of a job's model collections. Every method needs an
// open job (model.ErrNoJobOpen otherwise).
type Model interface {
	// Get returns the rows of keys, nil for a missing key.
	Get(ctx context.Context, ws, coll string, keys ...string) ([][]byte, error)
	// Page returns rows in key order within the ranges (all rows when
	// ranges is empty), skipping offset rows and returning at most limit
	// (limit < 0: all).
	Page(ctx context.Context, ws, coll string, ranges []KeyRange, offset, limit int64) (Page, error)
	// Count counts the keys in each query's range, in one round trip.
	Count(ctx context.Context, ws string, queries []CountQuery) ([]int64, error)
	// Exists reports which keys of a collection exist.
	Exists(ctx context.Context, ws, coll string, keys ...string) ([]bool, error)
	// LastKey returns the greatest key of a collection, or of the keys in
	// r when r is not nil; "" when there is none.
	LastKey(ctx context.Context, ws, coll string, r *KeyRange) (string, error)
	// LastParts returns, for each prefix of composite keys (Key of the
	// leading parts), the greatest last part ever written under it, 0 for
	// none, in one round trip. Deleting a row does not lower it, so
	// numbers handed out are not handed out again.
	LastParts(ctx context.Context, ws, coll string, prefixes []string) ([]int64, error)
	// FreeIDs returns, in increasing order, the n smallest ids in lo..hi
	// that no row of a collection keyed by single ids holds: fewer when
	// the range runs out. It reads in one atomic step and costs about one
	// ordered-set read per id returned and per run of taken ids crossed
	// (times the log of the run's length), never a scan of the collection.
	FreeIDs(ctx context.Context, ws, coll string, lo, hi int64, n int) ([]int64, error)
	// Apply commits a batch atomically: every check holds and every change
	// lands, or a *ConflictError (wrapped) says which check failed and
	// nothing changes. A non-empty batch bumps the model revision and marks
	// the job modified; while an analysis holds the workspace it is refused.
	//
	// While another caller holds the workspace's write lease, Apply waits
	// for its release (at most LeaseTTL). A reply lost after the store
	// committed is still a success: a store settles the outcome before it
	// answers, and answers an error of kind KindUnavailable only for a
	// batch it knows did not land (or, when the store cannot be reached
	// at all, one that says the outcome is unknown).
	Apply(ctx context.Context, ws string, b *Batch) (rev int64, err error)
	// Lease takes the workspace's write lease, or renews it when token is
	// the lease already held, waiting while another caller holds it. It
	// returns the token to put in Batch.Lease. A lease lapses by itself
	// after LeaseTTL, so a caller that dies cannot block the workspace.
	Lease(ctx context.Context, ws, token string) (string, error)
	// Release gives the lease up if token still holds it.
	Release(ctx context.Context, ws, token string) error
	// Hold takes the workspace's named mark (say, "a moving-load
	// generation runs") for at most ttl, without waiting: ok is false
	// when another caller holds it. Unlike the write lease it does not
	// stop other writes; it only tells a second caller of the same kind
	// to come back later.
	Hold(ctx context.Context, ws, name string, ttl time.Duration) (token string, ok bool, err error)
	// Unhold gives a mark up if token still holds it.
	Unhold(ctx context.Context, ws, name, token string) error
}

// LeaseTTL is how long a write lease lasts unless renewed. It bounds how
// long a single-row write waits behind a planned multi-row change (a
// cascading delete, a bulk create) that retries under the lease.
const LeaseTTL = 5 * time.Second
