package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
)

// keyRenamer rewrites the object keys of a JSON text as it passes, one
// chunk at a time, and leaves everything else byte for byte: the answers
// of the SDK's base path are our answers with some keys renamed, and
// the streamed ones must not be held whole to rename them. It is a
// scanner, not a parser: text that is not JSON passes through renamed
// where its keys can be told, and the decoder behind it, or the client,
// meets the fault.
//
// Its memory is bounded whatever the input: a key longer than
// maxRenamedKey cannot be one it renames and passes unbuffered, and past
// maxRenameDepth of nesting (where encoding/json stops decoding) it
// renames nothing more.
type keyRenamer struct {
	names map[string]string
	// refuse names the keys that are an error (the other base path's
	// names); the first one met ends the text with a *refusedKeyError.
	refuse map[string]bool
	// values names the keys whose string values are names too (a
	// metadata field's jsonName): those values are renamed as keys are.
	values map[string]bool
	// valueNext: the key just read is one of values, so its string
	// value is renamed; isValue: the string being collected is one.
	valueNext, isValue bool
	// objects is one bit a level: whether that container is an object.
	objects []uint64
	depth   int
	// expectKey: the next string is an object key.
	expectKey, inString, escaped bool
	// key holds the key being read (its raw bytes, quotes left out)
	// while collecting; overflowed keys are passed on as they come.
	collecting bool
	key        []byte
	err        error
}

// maxRenamedKey bounds the key held while it is read; every key the
// rename table holds is far shorter.
const maxRenamedKey = 64

// maxRenameDepth is the nesting past which keys pass unrenamed: the JSON
// decoder refuses such a text in any case (it stops at 10,000 levels).
const maxRenameDepth = 10000

// jsonSpace says whether b is whitespace between JSON tokens.
func jsonSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// refusedKeyError is a key the renamer refuses.
type refusedKeyError struct{ key string }

func (e *refusedKeyError) Error() string { return "refused key " + e.key }

func newKeyRenamer(names map[string]string, refuse map[string]bool) *keyRenamer {
	return &keyRenamer{names: names, refuse: refuse}
}

// write renames the keys of p, a next chunk of the text, into out.
func (k *keyRenamer) write(out *bytes.Buffer, p []byte) error {
	if k.err != nil {
		return k.err
	}
	for i := 0; i < len(p); i++ {
		b := p[i]
		if k.inString {
			k.stringByte(out, b)
			if k.err != nil {
				return k.err
			}
			continue
		}
		if b != ':' && b != '"' && !jsonSpace(b) {
			k.valueNext = false
		}
		switch b {
		case '"':
			k.inString = true
			if (k.expectKey || k.valueNext) && k.depth <= maxRenameDepth {
				k.collecting, k.key, k.isValue, k.valueNext = true, k.key[:0], !k.expectKey, false
				continue
			}
		case '{', '[':
			k.push(b == '{')
		case '}', ']':
			k.pop()
		case ':':
			k.expectKey = false
		case ',':
			k.expectKey = k.inObject()
		}
		out.WriteByte(b)
	}
	return nil
}

// stringByte takes one byte inside a string.
func (k *keyRenamer) stringByte(out *bytes.Buffer, b byte) {
	closing := !k.escaped && b == '"'
	switch {
	case k.escaped:
		k.escaped = false
	case b == '\\':
		k.escaped = true
	}
	if closing {
		k.inString = false
	}
	if !k.collecting {
		out.WriteByte(b)
		return
	}
	if !closing {
		if len(k.key) < maxRenamedKey {
			k.key = append(k.key, b)
			return
		}
		// Too long to be renamed: pass it on as it comes.
		out.WriteByte('"')
		out.Write(k.key)
		out.WriteByte(b)
		k.collecting = false
		return
	}
	k.collecting = false
	name := string(k.key)
	if bytes.IndexByte(k.key, '\\') >= 0 {
		// An escaped key is looked up by what it says.
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, k.key...), '"'), &s) == nil {
			name = s
		}
	}
	if !k.isValue {
		if k.refuse[name] {
			k.err = &refusedKeyError{key: name}
			return
		}
		k.valueNext = k.values[name]
	}
	out.WriteByte('"')
	if to, ok := k.names[name]; ok {
		out.WriteString(to)
	} else {
		out.Write(k.key)
	}
	out.WriteByte('"')
}

func (k *keyRenamer) push(object bool) {
	k.depth++
	k.expectKey = object
	if k.depth > maxRenameDepth {
		return
	}
	w, bit := (k.depth-1)/64, uint(k.depth-1)%64
	for len(k.objects) <= w {
		k.objects = append(k.objects, 0)
	}
	if object {
		k.objects[w] |= 1 << bit
	} else {
		k.objects[w] &^= 1 << bit
	}
}

func (k *keyRenamer) pop() {
	if k.depth > 0 {
		k.depth--
	}
	k.expectKey = false
}

// inObject says whether the innermost container is an object.
func (k *keyRenamer) inObject() bool {
	if k.depth == 0 || k.depth > maxRenameDepth {
		return false
	}
	d := k.depth - 1
	return k.objects[d/64]&(1<<(uint(d)%64)) != 0
}

// renameAll renames the keys of a whole text (and the string values of
// the keys values names).
func renameAll(p []byte, names map[string]string, refuse, values map[string]bool) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(p) + len(p)/2)
	k := newKeyRenamer(names, refuse)
	k.values = values
	if err := k.write(&out, p); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// renamingReader renames the keys of a streamed answer as the connection
// reads it: it holds one chunk of the source and what that chunk became.
type renamingReader struct {
	src io.Reader
	k   *keyRenamer
	buf []byte
	out bytes.Buffer
	eof error
}

// renameChunk is how much of the source a renamingReader reads at once.
const renameChunk = 32 << 10

func newRenamingReader(src io.Reader, names map[string]string, values map[string]bool) *renamingReader {
	k := newKeyRenamer(names, nil)
	k.values = values
	return &renamingReader{src: src, k: k, buf: make([]byte, renameChunk)}
}

func (r *renamingReader) Read(p []byte) (int, error) {
	for r.out.Len() == 0 {
		if r.eof != nil {
			return 0, r.eof
		}
		n, err := r.src.Read(r.buf)
		if werr := r.k.write(&r.out, r.buf[:n]); werr != nil {
			return 0, werr
		}
		if err != nil {
			r.eof = err
		}
	}
	return r.out.Read(p)
}

// Close closes the source, so that a producer writing to a pipe learns
// that the client has gone.
func (r *renamingReader) Close() error {
	if c, ok := r.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
