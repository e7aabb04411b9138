package record

import (
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
)

// A keyOrder spares writing a map in key order (as encoding/json does) the
// sort of its keys when they are those of the map written before: it
// remembers that map's keys, sorted. Case records have the same features,
// record after record (cliff-gen writes every one, true or false), and
// writing them by the remembered keys, looked up one by one, costs a
// third of sorting them first. (Opcode counts differ from case to case:
// see keyRanks.)
//
// A keyOrder is safe for concurrent use: its list is replaced, never
// changed.
type keyOrder struct{ keys atomic.Pointer[orderedKeys] }

type orderedKeys struct {
	keys    []string // sorted
	members []string // memberJSON of each of keys
}

var featureOrder keyOrder // Case.Features

// appendSortedMap writes m with its keys in order; order, if not nil,
// remembers them for the next map.
func appendSortedMap[V any](b []byte, m map[string]V, order *keyOrder, value func([]byte, V) []byte) []byte {
	if order != nil {
		if keys := order.keys.Load(); keys != nil && len(keys.keys) == len(m) {
			start := len(b)
			if b, ok := appendWithKeys(b, m, keys, value); ok {
				return b
			}
			b = b[:start]
		}
	}
	// The members are sorted, not the keys, so that writing them takes no
	// lookups.
	var buf [64]mapMember[V]
	members := buf[:0]
	for k, v := range m {
		members = append(members, mapMember[V]{k, v})
	}
	slices.SortFunc(members, func(a, b mapMember[V]) int { return strings.Compare(a.key, b.key) })
	if order != nil {
		keys := &orderedKeys{keys: make([]string, len(members)), members: make([]string, len(members))}
		for i, mb := range members {
			keys.keys[i] = mb.key
			keys.members[i] = memberJSON(mb.key)
		}
		order.keys.Store(keys)
	}
	b = append(b, '{')
	for i, mb := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, mb.key)
		b = append(b, ':')
		b = value(b, mb.value)
	}
	return append(b, '}')
}

type mapMember[V any] struct {
	key   string
	value V
}

// appendWithKeys writes m, which has as many members as keys has distinct
// keys, in the order of keys; ok is false if some key is not in m (and so
// m has keys that are not in keys).
func appendWithKeys[V any](b []byte, m map[string]V, keys *orderedKeys, value func([]byte, V) []byte) (_ []byte, ok bool) {
	b = append(b, '{')
	for i, k := range keys.keys {
		v, ok := m[k]
		if !ok {
			return b, false
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, keys.members[i]...)
		b = value(b, v)
	}
	return append(b, '}'), true
}

// memberJSON returns the JSON of key as a member's name: "key":.
func memberJSON(key string) string { return string(append(appendJSONString(nil, key), ':')) }

// A keyRanks writes maps whose keys come from a small set without
// sorting them: it keeps the keys of the maps written before, sorted,
// with the rank and the JSON ("key":) of each, and writes a map by
// marking the ranks of its keys and walking the marks in order. Opcode
// counts differ from case to case, but their keys are opcode names, and
// after the first cases a new one is rare: sorting them cost more than
// the rest of writing a case's metrics.
//
// A keyRanks is safe for concurrent use: its set is replaced, never
// changed. It learns at most maxRankedKeys keys; a map with a key it does
// not know then is sorted.
type keyRanks struct{ set atomic.Pointer[rankedKeys] }

type rankedKeys struct {
	keys    []string       // sorted
	members []string       // memberJSON of each of keys
	rank    map[string]int // the index of each key in keys
}

const maxRankedKeys = 256

var opcodeRanks = newKeyRanks() // Metrics.Opcodes

func newKeyRanks() *keyRanks {
	ranks := &keyRanks{}
	ranks.set.Store(&rankedKeys{})
	return ranks
}

// appendRankedMap writes m with its keys in order, as appendSortedMap
// does, learning the keys it does not know.
func appendRankedMap[V any](b []byte, m map[string]V, ranks *keyRanks, value func([]byte, V) []byte) []byte {
	for range 2 { // once more after learning m's keys
		set := ranks.set.Load()
		var marks [maxRankedKeys / 64]uint64
		var values [maxRankedKeys]V
		known := true
		for k, v := range m {
			r, ok := set.rank[k]
			if !ok {
				known = false
				break
			}
			marks[r/64] |= 1 << (r % 64)
			values[r] = v
		}
		if known {
			b = append(b, '{')
			start := len(b)
			for w, word := range marks {
				for ; word != 0; word &= word - 1 {
					if len(b) > start {
						b = append(b, ',')
					}
					r := w*64 + bits.TrailingZeros64(word)
					b = append(b, set.members[r]...)
					b = value(b, values[r])
				}
			}
			return append(b, '}')
		}
		if !learnKeys(ranks, set, m) {
			break
		}
	}
	return appendSortedMap(b, m, nil, value)
}

// learnKeys replaces set, the set of ranks, by one with the keys of m
// too, unless that would be more than maxRankedKeys keys (false).
func learnKeys[V any](ranks *keyRanks, set *rankedKeys, m map[string]V) bool {
	keys := slices.Clone(set.keys)
	for k := range m {
		if _, ok := set.rank[k]; !ok {
			keys = append(keys, k)
		}
	}
	if len(keys) > maxRankedKeys {
		return false
	}
	slices.Sort(keys)
	next := &rankedKeys{keys: keys, members: make([]string, len(keys)), rank: make(map[string]int, len(keys))}
	for i, k := range keys {
		next.members[i] = memberJSON(k)
		next.rank[k] = i
	}
	// Another writer may have replaced set meanwhile: then its set is
	// kept, and m is tried with that.
	ranks.set.CompareAndSwap(set, next)
	return true
}
