package editor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// A job file is written by us, but it passes through people's hands: a
// file edited or cut short must not load rows the API would have refused,
// for they would surface later as wrong numbers or failures far from their
// cause. CheckSnapshot holds the rows of a job file to the rules API input
// meets on its own: each row decodes into its record (unknown properties
// are an error), carries its own key, meets the field rules of the struct
// tags (model.CheckFields: enum values, bounds, magnitudes), passes the
// kind's Validate, refers only to rows the file holds, and has
// no number beyond model.MaxMagnitude. Rules that need the rest of the
// model in the store (a load case's type, positions along a member) are
// not re-run.

// rowCheck checks one stored row and lists the rows it refers to.
type rowCheck func(key string, raw []byte) ([]Ref, error)

// register makes the editor check rows of k's collection in job files.
// The first kind registered for a store collection decides (load cases
// and combination cases share one).
func register[T any](e *Editor, c *Collection[T]) {
	if e.rowChecks == nil {
		e.rowChecks = map[string]rowCheck{}
	}
	if _, ok := e.rowChecks[c.k.Coll]; !ok {
		e.rowChecks[c.k.Coll] = c.checkRow
	}
}

func (c *Collection[T]) checkRow(key string, raw []byte) ([]Ref, error) {
	rec, err := c.decodeStrict(raw)
	if err != nil {
		return nil, err
	}
	own := c.k.Key(&rec)
	if ks := store.Key(own...); ks != key {
		return nil, fmt.Errorf("its own key fields say %s", keyText(ks))
	}
	// The field rules of the struct tags, as the HTTP edge applies them
	// to bodies and bulk items: enum values (in their canonical spelling),
	// bounds and magnitudes.
	if err := model.FieldsError(model.CheckFields(&rec)); err != nil {
		return nil, err
	}
	validate := c.k.Validate
	if c.k.ValidateStored != nil {
		validate = c.k.ValidateStored
	}
	if validate != nil {
		if err := validate(&rec); err != nil {
			return nil, err
		}
	}
	var refs []Ref
	if c.k.Refs != nil {
		refs = c.k.Refs(&rec)
	}
	if c.k.Parent != "" {
		refs = append(refs, Ref{Coll: c.k.Parent, Noun: c.k.ParentNoun, Field: c.k.KeyFields[0], ID: own[0]})
	}
	return refs, nil
}

// decodeStrict decodes a job file's row: unknown properties and data
// after the record are errors, as in a request body.
func (c *Collection[T]) decodeStrict(b []byte) (T, error) {
	var rec T
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
			return rec, fmt.Errorf("unknown property %s", strings.TrimPrefix(msg, "json: unknown field "))
		}
		return rec, fmt.Errorf("decode stored %s: %w", c.k.Noun, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return rec, fmt.Errorf("decode stored %s: data after the record", c.k.Noun)
	}
	return rec, nil
}

// CheckSnapshot checks the rows of a job file (see above); the error, a
// validation error, names the collection, the row and what is wrong. The
// checks of a large file take seconds, so they stop when ctx ends, with a
// model.KindUnavailable error as the file's decoding does.
func (e *Editor) CheckSnapshot(ctx context.Context, snap store.Snapshot) error {
	held := map[string]map[string]bool{}
	names := make([]string, 0, len(snap.Collections))
	for coll, rows := range snap.Collections {
		names = append(names, coll)
		keys := make(map[string]bool, len(rows))
		for _, r := range rows {
			keys[r.Key] = true
		}
		held[coll] = keys
	}
	sort.Strings(names) // the same file always names the same row
	for _, coll := range names {
		rows := snap.Collections[coll]
		// Checked in blocks, so that an ended request stops the checks
		// within one block rather than after every row of the file.
		for lo := 0; lo < len(rows); lo += checkBlock {
			if err := ctx.Err(); err != nil {
				return &model.Error{Kind: model.KindUnavailable, Err: err,
					Msg: fmt.Sprintf("the job file's rows were still being checked (%s, row %d of %d) when the request's time ran out; retry when the service is less busy", coll, lo, len(rows))}
			}
			block := rows[lo:min(lo+checkBlock, len(rows))]
			errs := make([]error, len(block))
			Parallel(len(block), func(i int) { errs[i] = e.checkFileRow(coll, block[i], held) })
			for _, err := range errs {
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkBlock is how many rows are checked between looks at the context.
const checkBlock = 16384

// checkFileRow checks one row of a job file against the rows it holds.
func (e *Editor) checkFileRow(coll string, r store.Row, held map[string]map[string]bool) error {
	bad := func(format string, args ...any) error {
		re := &model.RowError{Coll: coll, Key: r.Key, Problem: fmt.Sprintf(format, args...)}
		return &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("the job file's %s row %s: %s", coll, keyText(r.Key), re.Problem), Err: re}
	}
	if err := boundedNumbers(r.Value); err != nil {
		return bad("%v", err)
	}
	check := e.rowChecks[coll]
	if check == nil {
		return nil
	}
	refs, err := check(r.Key, r.Value)
	if err != nil {
		if me, ok := err.(*model.Error); ok {
			return bad("%s", me.Msg)
		}
		return bad("%v", err)
	}
	for _, ref := range refs {
		if !held[ref.Coll][store.Key(ref.ID)] {
			return bad("%s refers to %s %d, which the file does not hold", ref.Field, ref.Noun, ref.ID)
		}
	}
	return nil
}

// keyText shows a stored key as its ids, "3" or "1:4:2".
func keyText(key string) string {
	ids, err := store.ParseKey(key)
	if err != nil {
		return fmt.Sprintf("%q", key)
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ":")
}

// boundedNumbers reports a number in the JSON raw beyond MaxMagnitude. It
// scans the text rather than decoding it: a number token of at most 20
// characters without an exponent is below 1e20, so only the others are
// parsed.
func boundedNumbers(raw []byte) error {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		case c == '-' || c >= '0' && c <= '9':
			j, long := i, false
			for ; j < len(raw) && strings.IndexByte("+-.0123456789eE", raw[j]) >= 0; j++ {
				long = long || raw[j] == 'e' || raw[j] == 'E'
			}
			if long || j-i > 20 {
				x, err := strconv.ParseFloat(string(raw[i:j]), 64)
				if err != nil || math.Abs(x) > model.MaxMagnitude {
					return fmt.Errorf("the number %s is beyond %g", raw[i:j], model.MaxMagnitude)
				}
			}
			i = j - 1
		}
	}
	return nil
}
