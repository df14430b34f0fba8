// Package logtest gives tests what they need of the service's logs: a
// buffer that several goroutines may write lines into, and a logger that
// hands over one attribute of one message (how a test learns the port of
// a listener started on ":0").
package logtest

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent writers and readers.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Attr returns a logger that sends, once, the value of attribute key of
// the first record whose message is msg, and drops every record.
func Attr(msg, key string) (*slog.Logger, <-chan string) {
	ch := make(chan string, 1)
	return slog.New(&attrHandler{msg: msg, key: key, ch: ch}), ch
}

type attrHandler struct {
	msg, key string
	ch       chan string
	once     sync.Once
}

func (*attrHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *attrHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message != h.msg {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == h.key {
			h.once.Do(func() { h.ch <- a.Value.String() })
			return false
		}
		return true
	})
	return nil
}

func (h *attrHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *attrHandler) WithGroup(string) slog.Handler      { return h }
