package sgtext

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/model"
)

// The limits of the format's lines, in characters.
const (
	// MaxLineChars is the longest physical line.
	MaxLineChars = 1024
	// MaxContinuedChars is the longest set of lines joined by a trailing &.
	MaxContinuedChars = 4096
)

// lineError is a 400 that names the line, the way every refusal of a
// file's content does: the person fixing the file needs the line first.
func lineError(line int, format string, args ...any) error {
	return model.E(model.KindValidation, "line %d: %s", line, fmt.Sprintf(format, args...))
}

// lineReader yields the logical lines of a file: continuations joined,
// blank and comment lines skipped. It never holds more than one physical
// line past the limit, so a 10 MB line is refused after its first
// kilobytes.
type lineReader struct {
	br   *bufio.Reader
	line int // the number of the last physical line read
}

func newLineReader(r io.Reader) *lineReader {
	// A physical line of MaxLineChars characters takes at most four
	// bytes each, and its line end two more.
	return &lineReader{br: bufio.NewReaderSize(r, 4*MaxLineChars+2)}
}

// physical reads one physical line without its line end; io.EOF when
// the file has no more.
func (lr *lineReader) physical() (string, error) {
	b, err := lr.br.ReadSlice('\n')
	if len(b) == 0 && errors.Is(err, io.EOF) {
		return "", io.EOF
	}
	lr.line++
	if errors.Is(err, bufio.ErrBufferFull) {
		return "", lineError(lr.line, "the line is longer than %d characters, the format's limit", MaxLineChars)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read line %d: %w", lr.line, err)
	}
	s := strings.TrimRight(string(b), "\r\n")
	if !utf8.ValidString(s) {
		return "", lineError(lr.line, "the line is not UTF-8 text")
	}
	if n := utf8.RuneCountInString(s); n > MaxLineChars {
		return "", lineError(lr.line, "the line is %d characters long, longer than the format's limit of %d", n, MaxLineChars)
	}
	return s, nil
}

// next returns the next logical line and the number of its first
// physical line; io.EOF at the end of the file.
func (lr *lineReader) next() (string, int, error) {
	for {
		s, err := lr.physical()
		if err != nil {
			return "", 0, err
		}
		t := strings.TrimSpace(s)
		if t == "" || t[0] == '#' {
			continue
		}
		first := lr.line
		for strings.HasSuffix(t, "&") {
			t = strings.TrimSuffix(t, "&")
			more, err := lr.physical()
			if errors.Is(err, io.EOF) {
				return "", 0, lineError(first, "the line ends with & (continued) but the file ends after it: the file is cut short")
			}
			if err != nil {
				return "", 0, err
			}
			t += strings.TrimSpace(more)
			if n := utf8.RuneCountInString(t); n > MaxContinuedChars {
				return "", 0, lineError(first, "the lines continued with & from here to line %d are %d characters together, longer than the format's limit of %d",
					lr.line, n, MaxContinuedChars)
			}
		}
		return t, first, nil
	}
}

// splitItems splits a data line into its comma-separated items. An item
// in double quotes may hold commas, and "" inside it stands for one ".
func splitItems(s string, line int) ([]string, error) {
	var items []string
	for i := 0; ; {
		for i < len(s) && s[i] == ' ' || i < len(s) && s[i] == '\t' {
			i++
		}
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '"')
				if k < 0 {
					return nil, lineError(line, "item %d opens a quote that the line does not close", len(items)+1)
				}
				b.WriteString(s[j : j+k])
				j += k + 1
				if j < len(s) && s[j] == '"' {
					b.WriteByte('"')
					j++
					continue
				}
				break
			}
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			items = append(items, b.String())
			if j == len(s) {
				return items, nil
			}
			if s[j] != ',' {
				return nil, lineError(line, "item %d has text after its closing quote; separate items with commas", len(items))
			}
			i = j + 1
			continue
		}
		k := strings.IndexByte(s[i:], ',')
		if k < 0 {
			items = append(items, strings.TrimSpace(s[i:]))
			return items, nil
		}
		items = append(items, strings.TrimSpace(s[i:i+k]))
		i += k + 1
	}
}
