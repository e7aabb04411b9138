package locaterun

import (
	"context"
	"fmt"
	"strings"

	"cliff/lib/cluster"
	"cliff/lib/engine"
	"cliff/lib/judge"
	"cliff/lib/record"
	"cliff/lib/reduce"
)

// An engineOracle answers reduce's question with the real Cranelift: it
// runs candidates through the engine on their configurations, judges each
// as cliff-diff would and gives the verdict's cluster signature, so that
// the predicate of localisation and reduction is exactly the one that put
// the case in its cluster.
type engineOracle struct {
	eng *engine.Engine
	// runs counts candidate runs, for the location's notes.
	runs int
}

// Signatures implements reduce.Oracle. Candidates that share their
// configurations run as one batch: one object and one executable per
// configuration, whatever the batch's size.
func (o *engineOracle) Signatures(ctx context.Context, cands []*reduce.Candidate) ([]string, error) {
	sigs, err := o.signatures(ctx, cands)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(sigs))
	for i, s := range sigs {
		out[i] = oneLine(s)
	}
	return out, nil
}

// oneLine is a signature's one-line form, what reduce compares; "" for
// none.
func oneLine(s *cluster.Signature) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// signatures is Signatures as the structured values: nil for a candidate
// that shows no Cranelift failure.
func (o *engineOracle) signatures(ctx context.Context, cands []*reduce.Candidate) ([]*cluster.Signature, error) {
	out := make([]*cluster.Signature, len(cands))
	groups := map[string][]int{}
	var order []string
	for i, c := range cands {
		k := configsKey(c.Configs)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		idx := groups[k]
		cases := make([]*record.Case, len(idx))
		for j, i := range idx {
			cases[j] = cands[i].Case(fmt.Sprintf("candidate-%d", o.runs+j))
		}
		o.runs += len(cases)
		if err := o.eng.Run(ctx, cases, cands[idx[0]].Configs); err != nil {
			return nil, err
		}
		for j, i := range idx {
			out[i] = signature(cases[j])
		}
	}
	return out, nil
}

// signature is the cluster signature of a case's verdict, or nil when the
// case shows no Cranelift failure.
func signature(c *record.Case) *cluster.Signature {
	v := judge.Case(c)
	if !cluster.Clustered(v.Verdict) {
		return nil
	}
	sig := cluster.SignatureOf(&v)
	return &sig
}

func configsKey(cs []record.Config) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}
