package jobfile

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Signed job files: only a file whose signature verifies with one of the
// keys, and whose every entry matches it, opens with its results.

const (
	hexKeyA = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	hexKeyB = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
)

func keysOf(tb testing.TB, value string) Keys {
	tb.Helper()
	k, err := ParseKeys(value)
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// resultsSnapshot is a small job with a model and static results.
func resultsSnapshot() store.Snapshot {
	return store.Snapshot{Job: model.NewJob(),
		Collections: map[string][]store.Row{"nodes": {{Key: "1", Score: 1, Value: json.RawMessage(`{"id":1,"x":0}`)}}},
		Results: map[model.AnalysisFamily]store.ResultSet{"static": {Meta: []byte(`{"nodes":1}`),
			Columns: map[string][]byte{"nodes": {1, 0, 0, 0, 0, 0, 0, 0}, "1:disp": bytes.Repeat([]byte{7}, 48)}}}}
}

func encodeSigned(tb testing.TB, snap store.Snapshot, keys Keys) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := EncodeSigned(&b, snap, "test", time.Unix(0, 0), keys); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

func decodeWith(tb testing.TB, file []byte, keys Keys) Decoded {
	tb.Helper()
	dec, err := DecodeContext(context.Background(), bytes.NewReader(file), int64(len(file)), 0, keys)
	if err != nil {
		tb.Fatalf("decode: %v", err)
	}
	return dec
}

// repack rewrites file's entries: edit returns an entry's new content,
// or nil to leave it out; extra entries are added at the end.
func repack(tb testing.TB, file []byte, edit func(name string, b []byte) []byte, extra map[string]string) []byte {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if edit != nil {
			if b = edit(f.Name, b); b == nil {
				continue
			}
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	for name, data := range extra {
		w, _ := zw.Create(name)
		io.WriteString(w, data)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

func TestSignedFileKeepsItsResults(t *testing.T) {
	snap := resultsSnapshot()
	file := encodeSigned(t, snap, keysOf(t, hexKeyA))
	for _, tc := range []struct {
		name string
		keys string
	}{{"the key that signed", hexKeyA}, {"a new key first, the old one kept", hexKeyB + "," + hexKeyA}} {
		t.Run(tc.name, func(t *testing.T) {
			dec := decodeWith(t, file, keysOf(t, tc.keys))
			if !dec.Signed || dec.ResultsDropped != "" {
				t.Fatalf("signed %v, dropped %q", dec.Signed, dec.ResultsDropped)
			}
			if !reflect.DeepEqual(dec.Snapshot.Results, snap.Results) {
				t.Errorf("results %v, want %v", dec.Snapshot.Results, snap.Results)
			}
		})
	}
	// Re-packed with folder entries and another compression: the same
	// content, the same signature.
	repacked := repack(t, file, nil, map[string]string{"results/": "", "model/": ""})
	if dec := decodeWith(t, repacked, keysOf(t, hexKeyA)); !dec.Signed || len(dec.Snapshot.Results) != 1 {
		t.Errorf("re-packed: signed %v, results %v, dropped %q", dec.Signed, dec.Snapshot.Results, dec.ResultsDropped)
	}
}

// Every way a file can fail its signature opens its model only, with a
// warning naming the reason; a file without results warns of nothing.
func TestUnsignedFileOpensWithoutResults(t *testing.T) {
	keyA := keysOf(t, hexKeyA)
	signed := encodeSigned(t, resultsSnapshot(), keyA)
	// flip changes one character of an entry, keeping it valid.
	flip := func(entry, old, new string) func(string, []byte) []byte {
		return func(name string, b []byte) []byte {
			if name == entry {
				if !bytes.Contains(b, []byte(old)) {
					t.Fatalf("%q not in %s", old, name)
				}
				b = bytes.Replace(b, []byte(old), []byte(new), 1)
			}
			return b
		}
	}
	drop := func(entry string) func(string, []byte) []byte {
		return func(name string, b []byte) []byte {
			if name == entry {
				return nil
			}
			return b
		}
	}
	for _, tc := range []struct {
		name string
		file []byte
		keys Keys
		says string
	}{
		{"no key", signed, Keys{}, KeysSetting},
		{"another key", signed, keysOf(t, hexKeyB), "does not verify"},
		{"never signed", encodeSigned(t, resultsSnapshot(), Keys{}), keyA, "not signed"},
		{"a result value changed", repack(t, signed, flip("results/static/1:disp.bin", "\x07", "\x08"), nil), keyA, "results/static/1:disp.bin differs"},
		{"a model row changed", repack(t, signed, flip("model/nodes.jsonl", `"x":0`, `"x":1`), nil), keyA, "model/nodes.jsonl differs"},
		{"the manifest changed", repack(t, signed, flip(entryManifest, `"test"`, `"tesu"`), nil), keyA, "manifest.json differs"},
		{"an entry added", repack(t, signed, nil, map[string]string{"results/static/2:disp.bin": "xxxxxxxx"}), keyA, "not in its signature"},
		{"an entry removed", repack(t, signed, drop("results/static/nodes.bin"), nil), keyA, "is missing"},
		{"a result grown", repack(t, signed, func(name string, b []byte) []byte {
			if name == "results/static/1:disp.bin" {
				return append(bytes.Clone(b), 0, 0, 0, 0, 0, 0, 0, 0)
			}
			return b
		}, nil), keyA, "not the 48 its signature lists"},
		{"the signature's list changed", repack(t, signed, func(name string, b []byte) []byte {
			if name == entrySignature {
				return bytes.Replace(b, []byte(`"size": 48`), []byte(`"size": 56`), 1)
			}
			return b
		}, nil), keyA, "does not verify"},
		{"the signature not JSON", repack(t, signed, func(name string, b []byte) []byte {
			if name == entrySignature {
				return []byte("{")
			}
			return b
		}, nil), keyA, "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec := decodeWith(t, tc.file, tc.keys)
			if dec.Signed || len(dec.Snapshot.Results) != 0 {
				t.Fatalf("signed %v with results %v", dec.Signed, dec.Snapshot.Results)
			}
			if !strings.Contains(dec.ResultsDropped, "results were not opened") || !strings.Contains(dec.ResultsDropped, tc.says) {
				t.Errorf("warning %q, want one about results not opened saying %q", dec.ResultsDropped, tc.says)
			}
			if len(dec.Snapshot.Collections["nodes"]) != 1 {
				t.Errorf("model %v, want its one node", dec.Snapshot.Collections)
			}
		})
	}
	t.Run("no results, no warning", func(t *testing.T) {
		snap := resultsSnapshot()
		snap.Results = nil
		if dec := decodeWith(t, encodeSigned(t, snap, Keys{}), keyA); dec.ResultsDropped != "" {
			t.Errorf("warning %q for a file without results", dec.ResultsDropped)
		}
	})
}

// Sign vouches for a file as it is; the result opens with its results.
func TestSignOpensUnsignedResults(t *testing.T) {
	unsigned := encodeSigned(t, resultsSnapshot(), Keys{})
	var out bytes.Buffer
	if err := Sign(bytes.NewReader(unsigned), int64(len(unsigned)), &out, keysOf(t, hexKeyB)); err != nil {
		t.Fatal(err)
	}
	if dec := decodeWith(t, out.Bytes(), keysOf(t, hexKeyB)); !dec.Signed || len(dec.Snapshot.Results) != 1 {
		t.Errorf("signed %v, results %v, dropped %q", dec.Signed, dec.Snapshot.Results, dec.ResultsDropped)
	}
}

func TestParseKeys(t *testing.T) {
	for _, tc := range []struct {
		value string
		n     int
		err   string
	}{
		{"", 0, ""},
		{" , ", 0, ""},
		{hexKeyA, 1, ""},
		{hexKeyA + ", " + hexKeyB, 2, ""},
		{"not hex", 0, "key 1 is not hex"},
		{hexKeyA + ",abcd", 0, "key 2 is 2 bytes, fewer than the 32 bytes (64 hex digits)"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			k, err := ParseKeys(tc.value)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), KeysSetting) {
					t.Fatalf("ParseKeys = %v, want an error naming %s and saying %q", err, KeysSetting, tc.err)
				}
				return
			}
			if err != nil || k.Len() != tc.n {
				t.Fatalf("ParseKeys = %d keys, %v; want %d", k.Len(), err, tc.n)
			}
		})
	}
}
