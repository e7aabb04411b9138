package record

import (
	"cmp"
	"encoding/binary"
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
// they are sorted.)
//
// A keyOrder is safe for concurrent use: its list is replaced, never
// changed.
type keyOrder struct{ keys atomic.Pointer[[]string] }

var featureOrder keyOrder // Case.Features

// appendSortedMap writes m with its keys in order; order, if not nil,
// remembers them for the next map.
func appendSortedMap[V any](b []byte, m map[string]V, order *keyOrder, value func([]byte, V) []byte) []byte {
	if order != nil {
		if keys := order.keys.Load(); keys != nil && len(*keys) == len(m) {
			start := len(b)
			if b, ok := appendWithKeys(b, m, *keys, value); ok {
				return b
			}
			b = b[:start]
		}
	}
	// The members are sorted, not the keys, so that writing them takes no
	// lookups; by the first eight bytes of their keys as a number first,
	// which orders most pairs of keys (opcode names) without comparing
	// the strings.
	var buf [64]mapMember[V]
	members := buf[:0]
	for k, v := range m {
		members = append(members, mapMember[V]{k, keyPrefix(k), v})
	}
	slices.SortFunc(members, func(a, b mapMember[V]) int {
		if a.prefix != b.prefix {
			return cmp.Compare(a.prefix, b.prefix)
		}
		return strings.Compare(a.key, b.key)
	})
	if order != nil {
		keys := make([]string, len(members))
		for i, mb := range members {
			keys[i] = mb.key
		}
		order.keys.Store(&keys)
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
	key    string
	prefix uint64 // keyPrefix(key)
	value  V
}

// keyPrefix returns the first eight bytes of key (padded with zeros) as a
// big-endian number: keys whose prefixes differ are in the order of their
// prefixes.
func keyPrefix(key string) uint64 {
	if len(key) >= 8 {
		return binary.BigEndian.Uint64([]byte(key[:8]))
	}
	var p uint64
	for i := range 8 {
		p <<= 8
		if i < len(key) {
			p |= uint64(key[i])
		}
	}
	return p
}

// appendWithKeys writes m, which has as many members as keys has distinct
// keys, in the order of keys; ok is false if some key is not in m (and so
// m has keys that are not in keys).
func appendWithKeys[V any](b []byte, m map[string]V, keys []string, value func([]byte, V) []byte) (_ []byte, ok bool) {
	b = append(b, '{')
	for i, k := range keys {
		v, ok := m[k]
		if !ok {
			return b, false
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = value(b, v)
	}
	return append(b, '}'), true
}
