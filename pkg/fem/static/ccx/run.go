//go:build ccx

package ccx

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ReadDat reads the node displacements that *NODE PRINT wrote to a .dat
// file: a header line containing "displacements", then one line per node
// with the node number and 3 (translations) or 6 (with rotations)
// values. Later blocks overwrite earlier ones, so the last step wins.
func ReadDat(r io.Reader) (map[int][6]float64, error) {
	out := map[int][6]float64{}
	in := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.Contains(line, "displacements"):
			in = true
			continue
		case len(f) == 0:
			continue
		case !in:
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || (len(f) != 4 && len(f) != 7) {
			in = false // another kind of block
			continue
		}
		var v [6]float64
		for i, s := range f[1:] {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("dat line %q: %w", line, err)
			}
		}
		out[n] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no displacements in the .dat file")
	}
	return out, nil
}

// Run writes d into dir as job.inp, runs the ccx binary there and
// returns the displacements of the model nodes by model node id. The
// solver's output is returned in the error when it fails.
func Run(ctx context.Context, ccx, dir string, d *Deck) (map[int64][6]float64, error) {
	f, err := execute(ctx, ccx, dir, d)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	byNum, err := ReadDat(f)
	if err != nil {
		return nil, err
	}
	res := make(map[int64][6]float64, len(d.Nodes))
	for id, n := range d.Nodes {
		v, ok := byNum[n]
		if !ok {
			return nil, fmt.Errorf("node %d (ccx %d) missing from the .dat file", id, n)
		}
		res[id] = v
	}
	return res, nil
}

// RunEigen runs the Frequency or Buckle deck d like Run and returns what
// ReadEigen reads from the .dat file: natural frequencies in Hz (ccx's
// cycles/time, the model being in SI) or buckling factors, lowest first.
func RunEigen(ctx context.Context, ccx, dir string, d *Deck) ([]float64, error) {
	f, err := execute(ctx, ccx, dir, d)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadEigen(f, d.Step)
}

// execute writes d into dir as job.inp, runs ccx there and opens the
// .dat file it wrote.
func execute(ctx context.Context, ccx, dir string, d *Deck) (*os.File, error) {
	if err := os.WriteFile(filepath.Join(dir, "job.inp"), []byte(d.Text), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, ccx, "-i", "job")
	cmd.Dir = dir
	// One thread: the models are small, and a fixed thread count keeps
	// runs reproducible.
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "CCX_NPROC_STIFFNESS=1", "CCX_NPROC_EQUATION_SOLVER=1")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "*ERROR") {
		return nil, fmt.Errorf("ccx failed (%v):\n%s", err, tail(string(out), 40))
	}
	return os.Open(filepath.Join(dir, "job.dat"))
}

// ReadEigen reads the eigenvalue table of a .dat file. For a Frequency
// step that is "E I G E N V A L U E   O U T P U T", rows of mode number,
// eigenvalue ω², ω (rad/time), frequency (cycles/time) and imaginary
// part, of which it returns the frequencies; for a Buckle step it is
// "B U C K L I N G   F A C T O R   O U T P U T", rows of mode number and
// factor. Rows must number the modes 1, 2, …; a later table replaces an
// earlier one, so the last step wins.
func ReadEigen(r io.Reader, step Step) ([]float64, error) {
	var title string
	var cols, col int
	switch step {
	case Frequency:
		title, cols, col = "E I G E N V A L U E   O U T P U T", 5, 3
	case Buckle:
		title, cols, col = "B U C K L I N G   F A C T O R   O U T P U T", 2, 1
	default:
		return nil, fmt.Errorf("step %v has no eigenvalue table", step)
	}
	var vals, cur []float64
	in := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.Contains(line, title):
			in, cur = true, nil
			continue
		case !in || len(f) == 0:
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || len(f) != cols {
			if cur != nil { // the first line after the rows
				in, vals = false, cur
			}
			continue // or a header line
		}
		if n != len(cur)+1 {
			return nil, fmt.Errorf("eigenvalue table: mode %d after %d modes", n, len(cur))
		}
		v, err := strconv.ParseFloat(f[col], 64)
		if err != nil {
			return nil, fmt.Errorf("dat line %q: %w", line, err)
		}
		cur = append(cur, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if in && cur != nil {
		vals = cur
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("no %q table in the .dat file", title)
	}
	return vals, nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
