package editor

// compact drops the members whose value is 0, false or "" from JSON
// objects, at every depth. Decoding into a zero record restores them, so
// a stored row means the same with less to write, send and parse: most
// fields of a model record are zero. Arrays, null and every other value
// stay as they are, so nil and empty slices keep their difference.
func compact(in []byte) []byte {
	out := make([]byte, 0, len(in))
	i := 0
	for i < len(in) {
		c := in[i]
		switch {
		case c == '"':
			// A string that is a key directly after '{' or ',' may start a
			// zero member; any other string is copied whole.
			end := stringEnd(in, i)
			if prev := lastByte(out); (prev == '{' || prev == ',') && end+1 < len(in) && in[end+1] == ':' {
				if vEnd, ok := zeroValueEnd(in, end+2); ok {
					// Skip the member; drop a comma it no longer needs.
					if prev == ',' {
						out = out[:len(out)-1]
					}
					i = vEnd
					if prev == '{' && i < len(in) && in[i] == ',' {
						i++
					}
					continue
				}
			}
			out = append(out, in[i:end+1]...)
			i = end + 1
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// stringEnd returns the index of the closing quote of the string starting
// at in[i].
func stringEnd(in []byte, i int) int {
	for j := i + 1; j < len(in); j++ {
		switch in[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(in) - 1
}

// zeroValueEnd reports whether the value at in[i] is 0, false or "" and
// ends there (before ',' or '}'), returning the index after it.
func zeroValueEnd(in []byte, i int) (int, bool) {
	for _, lit := range []string{"0", "false", `""`} {
		j := i + len(lit)
		if j < len(in) && string(in[i:j]) == lit && (in[j] == ',' || in[j] == '}') {
			return j, true
		}
	}
	return 0, false
}

func lastByte(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[len(b)-1]
}
