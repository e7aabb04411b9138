package weights

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/ir"
)

// The range of a weight: beyond it a swarm switch would be on (or off)
// in practically every case, which is no longer swarm testing.
const (
	MinWeight = 0.125
	MaxWeight = 16
)

// Weights are a --weights file: a weight per family and per type, by
// name. Names not in the maps have weight 1.
type Weights struct {
	Families map[string]float64
	Types    map[string]float64
}

// Empty reports whether w names nothing.
func (w Weights) Empty() bool { return len(w.Families) == 0 && len(w.Types) == 0 }

// Family returns the weight of a family, 1 when w does not name it.
func (w Weights) Family(name string) float64 { return or1(w.Families, name) }

// Type returns the weight of a type, 1 when w does not name it.
func (w Weights) Type(t ir.Type) float64 { return or1(w.Types, t.String()) }

func or1(m map[string]float64, name string) float64 {
	if v, ok := m[name]; ok {
		return v
	}
	return 1
}

// File is a weights file as read: its weights, with the path and the
// xxhash of its bytes that a case record states (the same path with other
// contents gives other cases).
type File struct {
	Weights
	Path, Hash string
}

// Load reads the weights file at path.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	return &File{Weights: w, Path: path, Hash: fmt.Sprintf("%016x", xxhash.Sum64(data))}, nil
}

// Families are the family names a file may weight: the opcode table's
// family column, and "target" for the opcodes it puts in none.
func Families() []string {
	seen := map[string]bool{"target": true}
	for _, op := range ir.Opcodes() {
		if f := op.Info().Family; f != "" {
			seen[f] = true
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// TypeOK reports whether t is a type a file may weight: one cliff-gen
// makes values of, a scalar or a 128-bit vector.
func TypeOK(t ir.Type) bool {
	if t.IsVector() {
		return t.Bits() == 128
	}
	return !t.IsDynamic() && t.Lanes() == 1 && (t.IsInt() || t.IsFloat())
}

// Parse reads the text of a weights file; name is what errors call it
// (name:line: message).
func Parse(name string, data []byte) (Weights, error) {
	w := Weights{Families: map[string]float64{}, Types: map[string]float64{}}
	families := Families()
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		if len(fields) != 3 {
			return Weights{}, bad("want 'family NAME WEIGHT' or 'type NAME WEIGHT', got %q", strings.TrimSpace(text))
		}
		kind, key, num := fields[0], fields[1], fields[2]
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || v != v {
			return Weights{}, bad("weight %q is not a number", num)
		}
		if v < MinWeight || v > MaxWeight {
			return Weights{}, bad("weight %s of %s %s: want %g to %g (1 changes nothing; --features ops:NAME=off switches a family off)", num, kind, key, float64(MinWeight), float64(MaxWeight))
		}
		var m map[string]float64
		switch kind {
		case "family":
			if !slices.Contains(families, key) {
				return Weights{}, bad("unknown family %q (known: %s)", key, strings.Join(families, " "))
			}
			m = w.Families
		case "type":
			t, ok := ir.ParseType(key)
			if !ok || !TypeOK(t) {
				return Weights{}, bad("type %q: want a scalar or 128-bit vector CLIF type (i32, f64, i8x16, ...)", key)
			}
			key = t.String()
			m = w.Types
		default:
			return Weights{}, bad("unknown kind %q: want family or type", kind)
		}
		if _, dup := m[key]; dup {
			return Weights{}, bad("%s %s is weighted twice", kind, key)
		}
		m[key] = v
	}
	if err := sc.Err(); err != nil {
		return Weights{}, fmt.Errorf("%s: %w", name, err)
	}
	return w, nil
}

// Write writes w in the form Parse reads, after a comment line per
// element of header; families then types, each sorted by name, weights
// in their shortest form.
func Write(out io.Writer, w Weights, header []string) error {
	var b strings.Builder
	for _, h := range header {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for _, kind := range []struct {
		name string
		m    map[string]float64
	}{{"family", w.Families}, {"type", w.Types}} {
		keys := make([]string, 0, len(kind.m))
		for k := range kind.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s %s\n", kind.name, k, strconv.FormatFloat(kind.m[k], 'g', -1, 64))
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}
