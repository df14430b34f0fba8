package jobfile

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// FuzzDecodeSigned: DecodeContext with a key, of any bytes (seeded with
// signed files, signed samples and files changed after signing), never
// panics and refuses only with a validation or too-large error; it opens
// results only from a file whose signature verifies and whose every
// entry, read here independently of the reader, is what the signature
// lists; and a file it trusts saves, signed, and reads back with the same
// results.
func FuzzDecodeSigned(f *testing.F) {
	keys := keysOf(f, hexKeyA)
	signed := encodeSigned(f, resultsSnapshot(), keys)
	f.Add(signed)
	f.Add(encodeSigned(f, resultsSnapshot(), keysOf(f, hexKeyB)))
	f.Add(encodeSigned(f, resultsSnapshot(), Keys{}))
	f.Add(repack(f, signed, nil, map[string]string{"results/": "", "results/static/2:disp.bin": "12345678"}))
	f.Add(repack(f, signed, func(name string, b []byte) []byte {
		if strings.HasSuffix(name, ".bin") {
			return append(bytes.Clone(b), 1)
		}
		return b
	}, nil))
	for _, b := range sampleFiles(f) {
		var out bytes.Buffer
		if err := Sign(bytes.NewReader(b), int64(len(b)), &out, keys); err != nil {
			f.Fatal(err)
		}
		f.Add(out.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec, err := DecodeContext(context.Background(), bytes.NewReader(data), int64(len(data)), 0, keys)
		if err != nil {
			var me *model.Error
			if k := model.KindOf(err); !errors.As(err, &me) || k != model.KindValidation && k != model.KindTooLarge {
				t.Fatalf("error of kind %d, want a validation or too-large *model.Error: %v", model.KindOf(err), err)
			}
			return
		}
		if !dec.Signed {
			if len(dec.Snapshot.Results) > 0 {
				t.Fatalf("results %v opened from a file that is not signed (%s)", dec.Snapshot.Results, dec.ResultsDropped)
			}
			return
		}
		if dec.ResultsDropped != "" {
			t.Fatalf("a signed file warns %q", dec.ResultsDropped)
		}
		if why := verifiedHere(data, keys); why != "" {
			t.Fatalf("trusted a file whose signature does not hold: %s", why)
		}
		var buf bytes.Buffer
		if err := EncodeSigned(&buf, dec.Snapshot, "fuzz", time.Unix(0, 0), keys); err != nil {
			t.Fatalf("a trusted file does not save: %v", err)
		}
		again, err := DecodeContext(context.Background(), bytes.NewReader(buf.Bytes()), int64(buf.Len()), 0, keys)
		if err != nil || !again.Signed {
			t.Fatalf("a trusted file, saved, does not read back signed: %v %q", err, again.ResultsDropped)
		}
		if a, b := normalized(dec.Snapshot), normalized(again.Snapshot); !reflect.DeepEqual(a.Results, b.Results) {
			t.Fatalf("results change on save:\n%+v\n%+v", a.Results, b.Results)
		}
	})
}

// verifiedHere checks data's signature the long way, with archive/zip
// alone: the MAC verifies with a key, and every entry but the signature
// and folders is listed at its size and SHA-256, and nothing else is;
// it returns what does not hold.
func verifiedHere(data []byte, keys Keys) string {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err.Error()
	}
	var sig signature
	seen := map[string]bool{}
	got := map[string]signedEntry{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err.Error()
		}
		b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
		rc.Close()
		if err != nil {
			return f.Name + ": " + err.Error()
		}
		switch {
		case f.Name == entrySignature:
			if err := json.Unmarshal(b, &sig); err != nil {
				return err.Error()
			}
		case strings.HasSuffix(f.Name, "/"):
		default:
			sum := sha256.Sum256(b)
			got[f.Name] = signedEntry{Name: f.Name, Size: uint64(len(b)), SHA256: hex.EncodeToString(sum[:])}
		}
		seen[f.Name] = true
	}
	ok := false
	for _, k := range keys.keys {
		ok = ok || hex.EncodeToString(mac(k, sig.Entries)) == sig.MAC
	}
	if !ok {
		return "the MAC does not verify"
	}
	if len(sig.Entries) != len(got) {
		return "the signature lists another number of entries than the file holds"
	}
	for _, e := range sig.Entries {
		if got[e.Name] != e {
			return "entry " + e.Name + " differs from its listing"
		}
	}
	return ""
}
