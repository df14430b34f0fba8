//go:build capacity

// Helpers of the job-file capacity scenarios (capacity_jobfile_*_test.go).
package main_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"mime/multipart"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/testutil/peak"
)

// jobfileEntry is an entry of a crafted job file: its content, or (raw
// set) its deflated data as given and the size its directory declares.
type jobfileEntry struct {
	name     string
	data     []byte
	raw      []byte
	declared uint64
	crc      uint32
}

// jobfileZip writes a job file of entries.
func jobfileZip(t *testing.T, entries []jobfileEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, e := range entries {
		var w io.Writer
		var err error
		if e.raw != nil {
			w, err = zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: e.crc,
				CompressedSize64: uint64(len(e.raw)), UncompressedSize64: e.declared})
			if err == nil {
				_, err = w.Write(e.raw)
			}
		} else if w, err = zw.Create(e.name); err == nil {
			_, err = w.Write(e.data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// jobfileManifest is a manifest listing collections.
func jobfileManifest(collections ...string) jobfileEntry {
	b, _ := json.Marshal(map[string]any{"format": "gusset-job", "version": 1, "generator": "capacity", "collections": collections})
	return jobfileEntry{name: "manifest.json", data: b}
}

// jobfileZeros is the entry name holding n MiB of zeros, deflated to
// about a thousandth of that.
func jobfileZeros(t *testing.T, name string, mib int) jobfileEntry {
	t.Helper()
	crc := crc32.NewIEEE()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zero := make([]byte, 1<<20)
	for range mib {
		if _, err := w.Write(zero); err != nil {
			t.Fatal(err)
		}
		crc.Write(zero)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return jobfileEntry{name: name, raw: buf.Bytes(), declared: uint64(mib) << 20, crc: crc.Sum32()}
}

// jobfileUpload sends file to POST /job/new-from-template as workspace ws.
func (s *capStack) jobfileUpload(ws string, file []byte) (int, []byte) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("template", "upload.gsj")
	if err != nil {
		s.t.Fatal(err)
	}
	part.Write(file)
	mw.Close()
	return s.do(ws, "POST", "/job/new-from-template", &body, mw.FormDataContentType())
}

// jobfileRSS is the resident memory of process pid in bytes; false when
// it cannot be read (the process is gone). Unlike rss it does not fail
// the test, so a sampling goroutine may call it.
func jobfileRSS(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
			return kb << 10, true
		}
	}
	return 0, false
}

// jobfilePeak samples a process's resident memory every 50 ms until
// stop is called, which returns the largest seen. Past kill bytes it
// calls over once: the scenario stops the process there, so that a
// build that fails does not take the machine's memory with it.
func jobfilePeak(pid int, kill int64, over func()) (stop func() int64) {
	return peak.Start(50*time.Millisecond, func() (int64, bool) { return jobfileRSS(pid) }, kill, over).Stop
}

// jobfileMiB writes bytes in MiB.
func jobfileMiB(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
