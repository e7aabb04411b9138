package ir

import "testing"

func TestRunCommandHolds(t *testing.T) {
	one := DataValue{Type: I32, Bytes: []byte{1, 0, 0, 0}}
	zero := DataValue{Type: I32, Bytes: []byte{0, 0, 0, 0}}
	nan := DataValue{Type: F32, Bytes: []byte{0, 0, 0xc0, 0x7f}}
	nan2 := DataValue{Type: F32, Bytes: []byte{1, 0, 0xc0, 0x7f}}
	for _, c := range []struct {
		cmd  RunCommand
		got  []DataValue
		want bool
	}{
		{RunCommand{}, []DataValue{one}, true},
		{RunCommand{}, []DataValue{zero}, false},
		{RunCommand{}, []DataValue{one, one}, false},
		{RunCommand{Cmp: "==", Want: []DataValue{one}}, []DataValue{one}, true},
		{RunCommand{Cmp: "==", Want: []DataValue{one}}, []DataValue{zero}, false},
		{RunCommand{Cmp: "!=", Want: []DataValue{one}}, []DataValue{zero}, true},
		{RunCommand{Cmp: "==", Want: []DataValue{nan}}, []DataValue{nan2}, false}, // NaN payloads count
		{RunCommand{Cmp: "==", Want: []DataValue{one}}, []DataValue{one, one}, false},
	} {
		if got := c.cmd.Holds(c.got); got != c.want {
			t.Errorf("%+v.Holds(%v) = %v, want %v", c.cmd, c.got, got, c.want)
		}
	}
}
