package browser

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReadMessage frames arbitrary messages with NUL bytes and checks that
// ReadMessage gives back exactly the frames, and reports a stream cut
// inside a frame.
func FuzzReadMessage(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{}}`), []byte(`{"method":"Page.loadEventFired","params":{}}`), true)
	f.Add([]byte{}, []byte(`x`), false)
	f.Fuzz(func(t *testing.T, a, b []byte, cut bool) {
		a, b = bytes.ReplaceAll(a, []byte{0}, nil), bytes.ReplaceAll(b, []byte{0}, nil)
		stream := append(append(append([]byte{}, a...), 0), b...)
		if !cut {
			stream = append(stream, 0)
		}
		r := bufio.NewReader(bytes.NewReader(stream))
		got, err := ReadMessage(r)
		if err != nil || !bytes.Equal(got, a) {
			t.Fatalf("first frame: %q, %v; want %q", got, err, a)
		}
		got, err = ReadMessage(r)
		switch {
		case cut && len(b) > 0:
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("cut frame: %q, %v; want io.ErrUnexpectedEOF", got, err)
			}
		case cut:
			if err != io.EOF {
				t.Fatalf("end of stream: %q, %v; want io.EOF", got, err)
			}
		default:
			if err != nil || !bytes.Equal(got, b) {
				t.Fatalf("second frame: %q, %v; want %q", got, err, b)
			}
			if _, err := ReadMessage(r); err != io.EOF {
				t.Fatalf("after the last frame: %v; want io.EOF", err)
			}
		}
	})
}
