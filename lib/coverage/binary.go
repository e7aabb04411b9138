package coverage

import (
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
)

// AnchorSymbol is the driver's function whose run-time address each PC file
// records (driver/src/coverage.rs), so that its link-time address in the
// binary gives the process's load offset.
const AnchorSymbol = "__sanitizer_cov_pcs_init"

// Binary is what the mapping needs from the instrumented driver: its
// functions' extents and the line-table rows of the source files kept.
type Binary struct {
	Anchor uint64   // link-time address of AnchorSymbol; 0 if it has none
	Files  []string // the kept source files, as the line table names them
	funcs  []extent // sorted by start
	rows   []row    // line-table rows in kept files, sorted by start
	// calls are the lines of kept files that make inlined calls, over
	// disjoint segments of code, sorted by start.
	calls []row
}

type extent struct{ start, end uint64 }

// row is one line-table row: the code in [start, end) is file:line.
type row struct {
	extent
	file int32 // index in Binary.Files
	line int32
}

// OpenBinary reads an ELF binary's symbols and the line-table rows of the
// source files for which keep is true.
func OpenBinary(path string, keep func(file string) bool) (*Binary, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := &Binary{}
	syms, err := f.Symbols()
	if err != nil {
		return nil, fmt.Errorf("%s: symbols: %w", path, err)
	}
	for _, s := range syms {
		if s.Name == AnchorSymbol {
			b.Anchor = s.Value
		}
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 && s.Value != 0 {
			b.funcs = append(b.funcs, extent{s.Value, s.Value + s.Size})
		}
	}
	slices.SortFunc(b.funcs, func(x, y extent) int { return cmpU64(x.start, y.start) })
	d, err := f.DWARF()
	if err != nil {
		return nil, fmt.Errorf("%s: no debug information: %w", path, err)
	}
	if err := b.readLines(d, keep); err != nil {
		return nil, fmt.Errorf("%s: line table: %w", path, err)
	}
	return b, nil
}

func (b *Binary) readLines(d *dwarf.Data, keep func(string) bool) error {
	fileIndex := map[string]int32{}
	kept := func(name string) (int32, bool) {
		if i, ok := fileIndex[name]; ok {
			return i, i >= 0
		}
		if !keep(name) {
			fileIndex[name] = -1
			return -1, false
		}
		i := int32(len(b.Files))
		b.Files = append(b.Files, name)
		fileIndex[name] = i
		return i, true
	}
	var calls []row               // inlined calls made from kept files
	var cuFiles []*dwarf.LineFile // the current compile unit's file table
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return err
		}
		if e == nil {
			break
		}
		switch e.Tag {
		case dwarf.TagCompileUnit:
			lr, err := d.LineReader(e)
			if err != nil {
				return err
			}
			cuFiles = nil
			if lr == nil {
				continue
			}
			if err := b.readRows(lr, kept); err != nil {
				return err
			}
			cuFiles = lr.Files()
		case dwarf.TagInlinedSubroutine:
			// The line table gives only the innermost source line, the
			// inlined callee's; the call itself, a line of the generated
			// file that has no code of its own, is here.
			fileNo, ok1 := e.Val(dwarf.AttrCallFile).(int64)
			line, ok2 := e.Val(dwarf.AttrCallLine).(int64)
			if !ok1 || !ok2 || line <= 0 || fileNo < 0 || int(fileNo) >= len(cuFiles) || cuFiles[fileNo] == nil {
				continue
			}
			i, ok := kept(cuFiles[fileNo].Name)
			if !ok {
				continue
			}
			ranges, err := d.Ranges(e)
			if err != nil {
				return err
			}
			for _, rg := range ranges {
				if _, inFunc := b.function(rg[0]); inFunc && rg[1] > rg[0] {
					calls = append(calls, row{extent{rg[0], rg[1]}, i, int32(line)})
				}
			}
		}
	}
	slices.SortFunc(b.rows, func(x, y row) int { return cmpU64(x.start, y.start) })
	b.calls = flatten(calls)
	return nil
}

// readRows adds the rows of one compile unit's line table in kept files.
func (b *Binary) readRows(lr *dwarf.LineReader, kept func(string) (int32, bool)) error {
	// A row covers the code up to the next row's address; a sequence ends
	// with an end_sequence row.
	var prev dwarf.LineEntry
	havePrev := false
	for {
		var e dwarf.LineEntry
		if err := lr.Next(&e); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if havePrev && prev.File != nil && prev.Line > 0 && e.Address > prev.Address {
			// Code the linker dropped keeps rows at a placeholder
			// address, outside every function: skip them.
			if _, inFunc := b.function(prev.Address); inFunc {
				if i, ok := kept(prev.File.Name); ok {
					b.rows = append(b.rows, row{extent{prev.Address, e.Address}, i, int32(prev.Line)})
				}
			}
		}
		prev, havePrev = e, !e.EndSequence
	}
}

// flatten turns inlined-call ranges, which nest and overlap, into rows over
// disjoint address segments (one row per call active on a segment, rows of
// a segment sharing its extent), so that they can be searched like the
// line table's rows.
func flatten(calls []row) []row {
	type event struct {
		at    uint64
		open  bool
		index int
	}
	events := make([]event, 0, 2*len(calls))
	for i, c := range calls {
		events = append(events, event{c.start, true, i}, event{c.end, false, i})
	}
	slices.SortFunc(events, func(x, y event) int { return cmpU64(x.at, y.at) })
	active := map[int]bool{}
	var out []row
	for k := 0; k < len(events); {
		at := events[k].at
		for ; k < len(events) && events[k].at == at; k++ {
			if events[k].open {
				active[events[k].index] = true
			} else {
				delete(active, events[k].index)
			}
		}
		if k == len(events) || len(active) == 0 {
			continue
		}
		next := events[k].at
		var seg []FileLine
		for i := range active {
			fl := FileLine{calls[i].file, calls[i].line}
			if !slices.Contains(seg, fl) {
				seg = append(seg, fl)
			}
		}
		slices.SortFunc(seg, func(x, y FileLine) int {
			if x.File != y.File {
				return int(x.File - y.File)
			}
			return int(x.Line - y.Line)
		})
		for _, fl := range seg {
			out = append(out, row{extent{at, next}, fl.File, fl.Line})
		}
	}
	return out
}

func cmpU64(x, y uint64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// FileLine is a line of one of the binary's kept files.
type FileLine struct {
	File int32 // index in Binary.Files
	Line int32
}

// LineMap maps instrumented blocks to the kept source lines of their code.
type LineMap struct {
	bin    *Binary
	blocks map[uint64][]FileLine // link-time block address → its lines
}

// Map computes each block's lines from the addresses of all instrumented
// blocks (link-time, as AddTo gives them). A block's code is taken to run
// from its address to the next block's or to the end of its function,
// whichever comes first.
func (b *Binary) Map(all map[uint64]bool) *LineMap {
	pcs := make([]uint64, 0, len(all))
	for pc := range all {
		pcs = append(pcs, pc)
	}
	slices.Sort(pcs)
	m := &LineMap{bin: b, blocks: map[uint64][]FileLine{}}
	for i, pc := range pcs {
		end := pc + 1
		if i+1 < len(pcs) {
			end = pcs[i+1]
		}
		if fn, ok := b.function(pc); ok && (fn.end < end || i+1 == len(pcs)) {
			end = fn.end
		}
		if lines := b.lines(pc, end); len(lines) > 0 {
			m.blocks[pc] = lines
		}
	}
	return m
}

// function is the function whose code holds pc.
func (b *Binary) function(pc uint64) (extent, bool) {
	i := sort.Search(len(b.funcs), func(i int) bool { return b.funcs[i].start > pc }) - 1
	if i >= 0 && pc < b.funcs[i].end {
		return b.funcs[i], true
	}
	return extent{}, false
}

// lines are the kept lines of the code in [start, end), without repeats:
// its line-table rows and the calls inlined into it.
func (b *Binary) lines(start, end uint64) []FileLine {
	var out []FileLine
	for _, rows := range [][]row{b.rows, b.calls} {
		// Rows do not overlap within a sequence; sequences do not
		// overlap either, so rows sorted by start are sorted by end too
		// (and the calls' segments are disjoint).
		i := sort.Search(len(rows), func(i int) bool { return rows[i].end > start })
		for ; i < len(rows) && rows[i].start < end; i++ {
			fl := FileLine{rows[i].file, rows[i].line}
			if !slices.Contains(out, fl) {
				out = append(out, fl)
			}
		}
	}
	return out
}

// LineSet is a set of line numbers of one file.
type LineSet map[int]bool

// Lines adds the lines of the given blocks (link-time addresses) to sets,
// per file path (Binary.Files); a block that is not instrumented, or has
// no code in a kept file, adds nothing.
func (m *LineMap) Lines(pcs map[uint64]bool, sets map[string]LineSet) {
	for pc := range pcs {
		for _, fl := range m.blocks[pc] {
			name := m.bin.Files[fl.File]
			if sets[name] == nil {
				sets[name] = LineSet{}
			}
			sets[name][int(fl.Line)] = true
		}
	}
}
