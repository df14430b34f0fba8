package jobfile

import (
	"archive/zip"
	"encoding/binary"
	"io"
	"math"
)

// Limits of a job file's zip directory. archive/zip builds a File for
// every directory entry before it returns, so without them opening a
// client's file would cost memory and time in proportion to the entries
// its directory holds (empty ones take 46 bytes and a short name each)
// or its ZIP64 end record claims (up to billions), before any check of
// this package runs. openZip holds a file to them, from its end records
// and a walk of its directory that keeps nothing, and only then lets
// archive/zip read it.
const (
	// MaxEntries is the most entries a job file may hold. Encode writes
	// one per job record (five), one per model collection (29 kinds),
	// the signature and, for static results, a meta record, two model
	// columns and four columns per load case (with plates three and
	// five): 38 plus 4 per analysed load case, a few dozen to a few
	// hundred for real jobs.
	// 65,535 holds 16,374 analysed load cases (13,099 with plates);
	// archive/zip reads a directory of that many entries in about
	// 16 MiB and 15 ms. It is also the most a plain end record counts:
	// archive/zip compares only the low 16 bits of the count declared with
	// the headers it finds, so a directory whose headers outnumber its
	// declared count by a multiple of 65,536 is over the limit.
	MaxEntries = 65535
	// MaxDirectoryBytes is the most bytes a job file's zip directory may
	// take: MaxEntries entries of 256 bytes. A header is 46 bytes and the
	// names Encode writes are under 50, so this leaves room for the longer
	// names, extra fields and comments other zip tools write.
	MaxDirectoryBytes = MaxEntries * 256
)

// Zip records, as archive/zip reads them.
const (
	sigDirHeader    = 0x02014b50
	sigEnd          = 0x06054b50
	sigEnd64        = 0x06064b50
	sigEnd64Locator = 0x07064b50
	dirHeaderLen    = 46
	endLen          = 22
	end64Len        = 56
	end64LocatorLen = 20
	zip64ExtraTag   = 0x0001
	// maxHeaderVarLen is the most a directory header's name, extra field
	// and comment take together.
	maxHeaderVarLen = 3 * math.MaxUint16
	// bufferedReadLen is the size of the buffer archive/zip reads the
	// directory through: it reads up to this far past the header it stops
	// at.
	bufferedReadLen = 4096
	// windowLen is how much of a directory countEntries reads at a time
	// past the part it holds: more than the longest header.
	windowLen = 256 << 10
)

// endSearch is where archive/zip looks for the end record: in the last
// 1 KiB, then in the last 65 KiB (a little more than the 65,557 bytes an
// end record with the longest comment takes), taking the last signature
// whose comment fits. readZipEnd looks the same way, so both read the
// same record.
var endSearch = [...]int64{1 << 10, 65 << 10}

// zipEnd is what a zip's end records declare.
type zipEnd struct {
	// entries is the total entry count: the ZIP64 end record's when
	// archive/zip reads one, else the 16-bit one.
	entries uint64
	dirSize uint64
	// dirOffset counts from the start of the archive, which may follow
	// other bytes (a self-extracting program, say).
	dirOffset uint64
	// endOffset is where the end record the directory is measured back
	// from starts: the ZIP64 one when read.
	endOffset int64
}

// openZip opens a job file's zip once its end records declare no more
// than MaxEntries entries and MaxDirectoryBytes bytes of directory, lying
// before them in the file, and its directory, walked as archive/zip will
// walk it, holds no more either. Every refusal, and archive/zip's own, is
// a validation error.
func openZip(r io.ReaderAt, size int64) (*zip.Reader, error) {
	h := &heldReader{r: r, size: size}
	e, err := readZipEnd(h)
	if err != nil {
		return nil, err
	}
	if err := e.check(); err != nil {
		return nil, err
	}
	if _, err := countEntries(h, e, directoryStart(h, e)); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(h, size)
	// The entries are read from the file itself.
	h.held = nil
	if err != nil {
		return nil, invalid("%v", err)
	}
	return zr, nil
}

// notZip is archive/zip's refusal of a file with no end record.
func notZip() error { return invalid("%v", zip.ErrFormat) }

// readZipEnd reads the end records of the zip h reads, as archive/zip
// does.
func readZipEnd(h *heldReader) (zipEnd, error) {
	var e zipEnd
	size := h.size
	if size < 0 {
		return e, notZip()
	}
	var rec []byte
	for i, n := range endSearch {
		n = min(n, size)
		block, err := h.read(size-n, int(n))
		if err != nil {
			return e, invalid("%v", err)
		}
		if p := findEnd(block); p >= 0 {
			rec, e.endOffset = block[p:], size-n+int64(p)
			break
		}
		if i == len(endSearch)-1 || n == size {
			return e, notZip()
		}
	}
	le := binary.LittleEndian
	e.entries = uint64(le.Uint16(rec[10:]))
	e.dirSize = uint64(le.Uint32(rec[12:]))
	e.dirOffset = uint64(le.Uint32(rec[16:]))
	// archive/zip looks for the ZIP64 records when a field is at its
	// maximum, and tests the size against 0xffff, not 0xffffffff: so does
	// this, or a file could be read one way here and another there.
	if e.entries != 0xffff && e.dirSize != 0xffff && e.dirOffset != 0xffffffff {
		return e, nil
	}
	p, ok, err := findEnd64(h, e.endOffset)
	if err != nil || !ok {
		return e, err
	}
	if p > size-end64Len {
		return e, invalid("its ZIP64 end record is declared at offset %d, beyond the end of the %d-byte file", p, size)
	}
	rec, err = h.read(p, end64Len)
	if err != nil {
		return e, invalid("%v", err)
	}
	if le.Uint32(rec) != sigEnd64 {
		return e, notZip()
	}
	e.endOffset = p
	e.entries = le.Uint64(rec[32:])
	e.dirSize = le.Uint64(rec[40:])
	e.dirOffset = le.Uint64(rec[48:])
	return e, nil
}

// findEnd is where the end record archive/zip takes starts in block, the
// end of the file: the last signature, when its comment fits; -1 for
// none.
func findEnd(block []byte) int {
	for i := len(block) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(block[i:]) == sigEnd {
			if int(binary.LittleEndian.Uint16(block[i+endLen-2:]))+endLen+i > len(block) {
				return -1
			}
			return i
		}
	}
	return -1
}

// findEnd64 reads the ZIP64 locator just before the end record at
// endOffset: where the ZIP64 end record is, when the locator is one
// archive/zip follows.
func findEnd64(h *heldReader, endOffset int64) (int64, bool, error) {
	at := endOffset - end64LocatorLen
	if at < 0 {
		return 0, false, nil
	}
	b, err := h.read(at, end64LocatorLen)
	if err != nil {
		return 0, false, invalid("%v", err)
	}
	le := binary.LittleEndian
	p := int64(le.Uint64(b[8:]))
	if le.Uint32(b) != sigEnd64Locator || le.Uint32(b[4:]) != 0 || le.Uint32(b[16:]) != 1 || p < 0 {
		return 0, false, nil
	}
	return p, true, nil
}

// check refuses a declared count or size over the limits, and a
// directory declared to run past its end record: outside the archive.
func (e zipEnd) check() error {
	if e.entries > MaxEntries {
		return invalid("its zip directory declares %d entries; a job file may hold at most %d", e.entries, MaxEntries)
	}
	if e.dirSize > MaxDirectoryBytes {
		return invalid("its zip directory declares %d bytes; a job file's may take at most %d", e.dirSize, MaxDirectoryBytes)
	}
	if end := uint64(e.endOffset); e.dirOffset > end || e.dirSize > end-e.dirOffset {
		return invalid("its zip directory is declared at offset %d and %d bytes long, past its end record at offset %d: outside the file",
			e.dirOffset, e.dirSize, e.endOffset)
	}
	return nil
}

// directoryStart is where archive/zip starts reading the directory of a
// checked end record: at the declared offset past the bytes before the
// archive; or at the declared offset from the start of the file, when
// there are such bytes but a valid header lies there, which archive/zip
// takes for an end record that miscounts them.
func directoryStart(h *heldReader, e zipEnd) int64 {
	base := e.endOffset - int64(e.dirSize) - int64(e.dirOffset)
	if base > 0 && validHeaderAt(h, int64(e.dirOffset)) {
		return int64(e.dirOffset)
	}
	return base + int64(e.dirOffset)
}

// validHeaderAt reports whether archive/zip reads a directory header at
// off, reading it as archive/zip does (the fixed part, then the rest), so
// that archive/zip's reads are served from what is held.
func validHeaderAt(h *heldReader, off int64) bool {
	if off > h.size-dirHeaderLen {
		return false
	}
	hd, err := h.read(off, dirHeaderLen)
	if err != nil {
		return false
	}
	n, ok := headerVarLen(hd)
	if !ok || int64(n) > h.size-off-dirHeaderLen {
		return false
	}
	v, err := h.read(off+dirHeaderLen, n)
	return err == nil && headerOK(hd, v)
}

// countEntries walks the directory from start as archive/zip will,
// header by header up to the first it stops at, keeping none: the number
// of entries archive/zip will make. archive/zip reads headers until one
// fails, whatever count and size the end record declares, so the walk
// holds the headers themselves to MaxEntries and MaxDirectoryBytes.
func countEntries(h *heldReader, e zipEnd, start int64) (int, error) {
	rest := h.size - start
	// The declared directory, the header archive/zip stops at and its
	// buffer past that are held: archive/zip reads them from here.
	first := min(rest, int64(e.dirSize)+dirHeaderLen+maxHeaderVarLen+bufferedReadLen)
	held, err := h.read(start, int(first))
	if err != nil {
		return 0, invalid("%v", err)
	}
	w := window{h: h, off: start, b: held}
	var pos int64 // from start
	n := 0
	for rest-pos >= dirHeaderLen {
		hd, err := w.at(start+pos, dirHeaderLen)
		if err != nil {
			return n, invalid("%v", err)
		}
		vlen, ok := headerVarLen(hd)
		if !ok || int64(vlen) > rest-pos-dirHeaderLen {
			break
		}
		end := pos + dirHeaderLen + int64(vlen)
		if end > MaxDirectoryBytes {
			return n, invalid("its zip directory takes more than the %d bytes a job file's may take", MaxDirectoryBytes)
		}
		all, err := w.at(start+pos, int(end-pos))
		if err != nil {
			return n, invalid("%v", err)
		}
		if !headerOK(all[:dirHeaderLen], all[dirHeaderLen:]) {
			break
		}
		if n++; n > MaxEntries {
			return n, invalid("its zip directory holds more than the %d entries a job file may hold", MaxEntries)
		}
		pos = end
	}
	return n, nil
}

// headerVarLen is how long the name, extra field and comment after the
// fixed part hd of a directory header are, and whether hd starts with a
// header's signature.
func headerVarLen(hd []byte) (int, bool) {
	le := binary.LittleEndian
	return int(le.Uint16(hd[28:])) + int(le.Uint16(hd[30:])) + int(le.Uint16(hd[32:])), le.Uint32(hd) == sigDirHeader
}

// headerOK reports whether archive/zip accepts the directory header of
// fixed part hd and name, extra field and comment v: not when its
// compressed size or offset is at the 32-bit maximum and no ZIP64 extra
// field gives it (each value the extra field gives takes 8 bytes, in
// order: uncompressed size, compressed size, offset).
func headerOK(hd, v []byte) bool {
	le := binary.LittleEndian
	needU := le.Uint32(hd[24:]) == math.MaxUint32
	needC := le.Uint32(hd[20:]) == math.MaxUint32
	needOff := le.Uint32(hd[42:]) == math.MaxUint32
	nameLen := int(le.Uint16(hd[28:]))
	extra := v[nameLen : nameLen+int(le.Uint16(hd[30:]))]
	for len(extra) >= 4 {
		tag, size := le.Uint16(extra), int(le.Uint16(extra[2:]))
		extra = extra[4:]
		if len(extra) < size {
			break
		}
		field := extra[:size]
		extra = extra[size:]
		if tag != zip64ExtraTag {
			continue
		}
		for _, need := range [...]*bool{&needU, &needC, &needOff} {
			if !*need {
				continue
			}
			*need = false
			if len(field) < 8 {
				return false
			}
			field = field[8:]
		}
	}
	return !needC && !needOff
}

// heldReader reads a file for the checks of openZip and holds what they
// read, serving archive/zip's reads of the same bytes from it: the end
// records and the directory are read from the file once.
type heldReader struct {
	r    io.ReaderAt
	size int64
	held []heldBytes
}

// heldBytes are the bytes of a file from off.
type heldBytes struct {
	off int64
	b   []byte
}

// ReadAt serves p from one held part when one holds it all.
func (h *heldReader) ReadAt(p []byte, off int64) (int, error) {
	for _, s := range h.held {
		if off >= s.off && off-s.off <= int64(len(s.b)) && int64(len(p)) <= int64(len(s.b))-(off-s.off) {
			return copy(p, s.b[off-s.off:]), nil
		}
	}
	return h.r.ReadAt(p, off)
}

// read returns the n bytes at off (within the file), reading from the
// file only those not already held, and holds them in place of the held
// parts they cover.
func (h *heldReader) read(off int64, n int) ([]byte, error) {
	b := make([]byte, n)
	end := off + int64(n)
	for at := off; at < end; {
		if s, ok := h.holding(at); ok {
			at += int64(copy(b[at-off:], s.b[at-s.off:]))
			continue
		}
		stop := end
		for _, s := range h.held {
			if s.off > at && s.off < stop {
				stop = s.off
			}
		}
		if m, err := h.r.ReadAt(b[at-off:stop-off], at); int64(m) < stop-at {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		at = stop
	}
	if n == 0 {
		return b, nil
	}
	kept := h.held[:0]
	for _, s := range h.held {
		if s.off < off || s.off+int64(len(s.b)) > end {
			kept = append(kept, s)
		}
	}
	h.held = append(kept, heldBytes{off, b})
	return b, nil
}

// holding is the held part that holds the byte at off.
func (h *heldReader) holding(off int64) (heldBytes, bool) {
	for _, s := range h.held {
		if off >= s.off && off < s.off+int64(len(s.b)) {
			return s, true
		}
	}
	return heldBytes{}, false
}

// window gives countEntries the bytes of a directory: from the held part,
// then, for a directory longer than it declares, in reads of windowLen
// bytes that are not held (such a file is refused or read again).
type window struct {
	h   *heldReader
	off int64
	b   []byte
	own []byte
}

// at returns the k bytes at off, which lie within the file; k is at most
// the length of a header.
func (w *window) at(off int64, k int) ([]byte, error) {
	if off >= w.off && off+int64(k) <= w.off+int64(len(w.b)) {
		return w.b[off-w.off:][:k], nil
	}
	if w.own == nil {
		w.own = make([]byte, windowLen)
	}
	b := w.own[:min(w.h.size-off, windowLen)]
	if m, err := w.h.ReadAt(b, off); m < len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	w.off, w.b = off, b
	return b[:k], nil
}
