package refine

import (
	"sync"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/parser"
)

// scratch is the working memory of the passes: each pass's state, whose
// slices keep their memory from one function to the next and, through
// scratchPool or caseMemory, from one case to the next. A pass resets what
// it uses before each function; nothing in it outlives the pass on one
// function except the lists edits and the Builder hand out, which become
// part of the function (and are handed out again only by recycle).
type scratch struct {
	analyses []analyses // by function
	live     analysis.Liveness
	decoyer  decoyer
	merger   merger
	selector operandSelector
	sinker   sinker
	edits    edits
	builder  ir.Builder // see builderFor
	rng      rng        // the stream of the pass running
}

// builderFor returns the scratch's Builder, appending to f.
func (s *scratch) builderFor(f *ir.Function) *ir.Builder {
	s.builder.Reset(f)
	return &s.builder
}

// recycle hands out again the memory of the lists the passes gave
// functions (edits' and the Builder's): for Case, done with the module
// that holds them all.
func (s *scratch) recycle() {
	s.edits.recycle()
	s.builder.Recycle()
}

// scratchPool holds the scratch of finished runs, for the next: cases come
// one after another, and most of a pass's allocations were its own
// bookkeeping.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// caseMemory is what Case parses and refines a case in, from one case to
// the next: the parser's tables and lists (parser.Recycler) and the lists
// the passes hand out (scratch.recycle). Nothing of a case's IR outlives
// Case, which prints its CLIF and computes its metrics before it returns,
// so the next case may overwrite all of it; and the tables the passes grew
// come back to the parser with the room. A module passed to Module stays
// its caller's, so Module runs in a scratch of scratchPool, whose lists
// are never handed out twice.
type caseMemory struct {
	parser  parser.Recycler
	scratch scratch
}

var casePool = sync.Pool{New: func() any { return new(caseMemory) }}

// analysesOf returns the analyses of funcs, none computed yet.
func (s *scratch) analysesOf(funcs []*ir.Function) []analyses {
	for len(s.analyses) < len(funcs) {
		s.analyses = append(s.analyses, analyses{})
	}
	as := s.analyses[:len(funcs)]
	for i, f := range funcs {
		as[i].reset(f, s)
	}
	return as
}

// emptied returns s with length n and every list empty, keeping the lists'
// memory.
func emptied[T any](s [][]T, n int) [][]T {
	if cap(s) < n {
		s = append(s[:cap(s)], make([][]T, n-cap(s))...)
	}
	s = s[:n]
	for i := range s {
		s[i] = s[i][:0]
	}
	return s
}
