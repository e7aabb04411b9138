package refine

import (
	"sync"

	"cliff/lib/analysis"
	"cliff/lib/ir"
)

// scratch is the working memory of the passes: each pass's state, whose
// slices keep their memory from one function to the next and, through
// scratchPool, from one case to the next. A pass resets what it uses
// before each function; nothing in it outlives the pass on one function
// except what edits hands out, which becomes part of the function.
type scratch struct {
	analyses []analyses // by function
	live     analysis.Liveness
	decoyer  decoyer
	merger   merger
	selector operandSelector
	sinker   sinker
	edits    edits
}

// scratchPool holds the scratch of finished runs, for the next: cases come
// one after another, and most of a pass's allocations were its own
// bookkeeping.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

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
