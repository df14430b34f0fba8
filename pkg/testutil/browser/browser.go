// Package browser drives a real headless Chromium for tests, over the
// Chrome DevTools Protocol on a pipe (--remote-debugging-pipe): Chromium
// reads commands from its file descriptor 3 and writes replies and events
// to descriptor 4, each a JSON message ended by a NUL byte. A pipe needs no
// port and no WebSocket library, and dies with the test.
//
// Chromium is Debian's chromium package (/usr/bin/chromium), which .ci/run
// installs; Start skips the test when it is missing and GUSSET_REQUIRE_BROWSER
// is unset, and fails it when the variable is set. WebGL runs on SwiftShader,
// Chromium's software renderer, so pages draw the same on every machine.
package browser

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Browser is one Chromium process.
type Browser struct {
	t      testing.TB
	cmd    *exec.Cmd
	w      io.WriteCloser
	wmu    sync.Mutex // serialises writes to the pipe
	mu     sync.Mutex // guards the fields below
	nextID int64
	wait   map[int64]chan reply
	subs   map[string][]chan event // by session id
	done   chan struct{}
}

type reply struct {
	Result json.RawMessage
	Err    error
}

type event struct {
	Method string
	Params json.RawMessage
}

// message is any message Chromium writes: a reply has an id, an event a
// method.
type message struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	SessionID string          `json:"sessionId"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Path is where Start looks for Chromium: CHROMIUM, else the first of the
// usual names on PATH.
func Path() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (Debian: apt-get install chromium; or set CHROMIUM)")
}

// Start launches headless Chromium with a window of width × height CSS
// pixels. It is stopped when the test ends.
func Start(t testing.TB, width, height int) *Browser {
	t.Helper()
	path, err := Path()
	if err != nil {
		if os.Getenv("GUSSET_REQUIRE_BROWSER") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path,
		"--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--no-first-run", "--no-default-browser-check",
		"--disable-gpu-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
		"--disable-dev-shm-usage", "--disable-extensions", "--disable-background-networking", "--mute-audio",
		fmt.Sprintf("--window-size=%d,%d", width, height), "--user-data-dir="+t.TempDir(), "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, outW} // descriptors 3 and 4
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	cmdR.Close()
	outW.Close()
	b := &Browser{t: t, cmd: cmd, w: cmdW, wait: map[int64]chan reply{}, subs: map[string][]chan event{}, done: make(chan struct{})}
	go b.read(outR)
	t.Cleanup(func() {
		cmdW.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		outR.Close()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("chromium's stderr (last 2 kB):\n%s", tail(stderr.Bytes(), 2048))
		}
	})
	return b
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// read dispatches Chromium's messages until the pipe closes.
func (b *Browser) read(r io.Reader) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := ReadMessage(br)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.wait[m.ID]; ok {
				delete(b.wait, m.ID)
				rp := reply{Result: m.Result}
				if m.Error != nil {
					rp.Err = fmt.Errorf("devtools error %d: %s", m.Error.Code, m.Error.Message)
				}
				ch <- rp
			}
		} else if m.Method != "" {
			for _, ch := range b.subs[m.SessionID] {
				select {
				case ch <- event{Method: m.Method, Params: m.Params}:
				default: // a slow reader loses events rather than stalling the pipe
				}
			}
		}
		b.mu.Unlock()
	}
}

// ReadMessage reads one NUL-terminated message. A stream that ends inside
// a message is an error.
func ReadMessage(r *bufio.Reader) ([]byte, error) {
	raw, err := r.ReadBytes(0)
	if err != nil {
		if err == io.EOF && len(raw) > 0 {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return raw[:len(raw)-1], nil
}

// call sends a command (on a page's session, or to the browser when
// session is empty) and decodes its result into out, if out is not nil.
func (b *Browser) call(ctx context.Context, session, method string, params, out any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan reply, 1)
	b.wait[id] = ch
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	b.mu.Unlock()
	raw, err := json.Marshal(msg)
	if err == nil {
		b.wmu.Lock()
		_, err = b.w.Write(append(raw, 0))
		b.wmu.Unlock()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case rp := <-ch:
		if rp.Err != nil {
			return fmt.Errorf("%s: %w", method, rp.Err)
		}
		if out != nil {
			return json.Unmarshal(rp.Result, out)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: chromium exited", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Page is one tab.
type Page struct {
	b       *Browser
	session string
	events  chan event
	mu      sync.Mutex
	console []string // console errors, uncaught exceptions and failed loads
	loaded  chan struct{}
}

// NewPage opens a tab of the given size and starts collecting its errors.
func (b *Browser) NewPage(ctx context.Context, width, height int) (*Page, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: att.SessionID, events: make(chan event, 4096), loaded: make(chan struct{}, 16)}
	b.mu.Lock()
	b.subs[p.session] = append(b.subs[p.session], p.events)
	b.mu.Unlock()
	go p.watch()
	for _, m := range []string{"Runtime.enable", "Log.enable", "Page.enable"} {
		if err := b.call(ctx, p.session, m, nil, nil); err != nil {
			return nil, err
		}
	}
	if err := b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// watch records the page's errors and load events.
func (p *Page) watch() {
	for ev := range p.events {
		switch ev.Method {
		case "Runtime.consoleAPICalled":
			var e struct {
				Type string `json:"type"`
				Args []struct {
					Value       any    `json:"value"`
					Description string `json:"description"`
				} `json:"args"`
			}
			if json.Unmarshal(ev.Params, &e) == nil && (e.Type == "error" || e.Type == "assert") {
				var parts []string
				for _, a := range e.Args {
					if a.Description != "" {
						parts = append(parts, a.Description)
					} else {
						parts = append(parts, fmt.Sprint(a.Value))
					}
				}
				p.record("console." + e.Type + ": " + strings.Join(parts, " "))
			}
		case "Runtime.exceptionThrown":
			var e struct {
				Details struct {
					Text      string `json:"text"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			if json.Unmarshal(ev.Params, &e) == nil {
				p.record("exception: " + e.Details.Text + " " + e.Details.Exception.Description)
			}
		case "Log.entryAdded":
			var e struct {
				Entry struct {
					Level, Text, URL string
				} `json:"entry"`
			}
			if json.Unmarshal(ev.Params, &e) == nil && e.Entry.Level == "error" {
				p.record("log: " + e.Entry.Text + " " + e.Entry.URL)
			}
		case "Page.loadEventFired":
			select {
			case p.loaded <- struct{}{}:
			default:
			}
		}
	}
}

func (p *Page) record(s string) {
	p.mu.Lock()
	p.console = append(p.console, s)
	p.mu.Unlock()
}

// Errors returns the console errors, uncaught exceptions and failed
// resource loads seen so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.console...)
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigate to %s: %s", url, nav.ErrorText)
	}
	select {
	case <-p.loaded:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("navigate to %s: no load event: %w", url, ctx.Err())
	}
}

// Eval evaluates a JavaScript expression in the page, awaiting it if it is
// a promise, and decodes its value (by JSON) into out, if out is not nil.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.b.call(ctx, p.session, "Runtime.evaluate",
		map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("evaluate %q: %s %s", expr, res.Exception.Text, res.Exception.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// WaitFor evaluates a boolean expression until it holds, polling.
func (p *Page) WaitFor(ctx context.Context, expr string) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		var ok bool
		err := p.Eval(ctx, "Boolean("+expr+")", &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("wait for %s: %w (last: %v)", expr, ctx.Err(), err)
			}
			return fmt.Errorf("wait for %s: %w", expr, ctx.Err())
		case <-tick.C:
		}
	}
}

// Screenshot captures the viewport as PNG.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var res struct {
		Data string `json:"data"`
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &res); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(res.Data)
}

// Click dispatches a left click at the viewport point (x, y).
func (p *Page) Click(ctx context.Context, x, y float64) error {
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := p.b.call(ctx, p.session, "Input.dispatchMouseEvent",
			map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}, nil); err != nil {
			return err
		}
	}
	return nil
}

// Drag presses the left button at (x0, y0), moves to (x1, y1) in steps
// moves and releases it there: an orbit for a three.js OrbitControls.
func (p *Page) Drag(ctx context.Context, x0, y0, x1, y1 float64, steps int) error {
	ev := func(typ string, x, y float64, buttons int) error {
		return p.b.call(ctx, p.session, "Input.dispatchMouseEvent",
			map[string]any{"type": typ, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}, nil)
	}
	if err := ev("mousePressed", x0, y0, 1); err != nil {
		return err
	}
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		if err := ev("mouseMoved", x0+f*(x1-x0), y0+f*(y1-y0), 1); err != nil {
			return err
		}
	}
	return ev("mouseReleased", x1, y1, 0)
}
