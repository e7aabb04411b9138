package ir

// Resolve follows value aliases (`v2 -> v0` in the source) to the value
// they stand for: a block param or an instruction result. A value that is
// not an alias resolves to itself. An alias cycle resolves to NoValue.
func (f *Function) Resolve(v Value) Value {
	for steps := 0; int(v) < len(f.Values) && f.Values[v].Kind == DefAlias; steps++ {
		if steps > len(f.Values) {
			return NoValue
		}
		v = f.Values[v].AliasOf
	}
	return v
}
