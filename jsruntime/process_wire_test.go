package jsruntime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// sampleFrames are one frame of each type, with values that JSON frames used to alter: text
// that is not valid UTF-8, integers at 2^53, key order, fractions.
func sampleFrames() []*frame {
	msg := "boom \xff"
	value := jsonv.MustParse(`{"z":1,"a":[null,true,false,-9007199254740992,9007199254740992,0.1,-1.5e300,"é",{}],"":[]}`)
	value = value.With("bytes", jsonv.StringValue("caf\xe9 \xed\xa0\x80"))
	return []*frame{
		{T: frameReady},
		{T: frameStarted},
		{T: frameRun, Program: "return 2", SameBindings: true},
		{T: frameRun, Program: "return 1 // \xff", Bindings: []wireNamespace{
			{Global: "tools", Functions: []wireFunction{{Name: "a"}, {Name: "__proto__", Group: "memory"}, {Name: "", Group: "\xff"}}, ErrorClass: &ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}, MemberNoun: "tool"},
			{Global: "other"},
		}},
		{T: frameCall, ID: math.MaxUint64, NS: 1, Fn: 300, Value: value},
		{T: frameReply, ID: 7, Value: value},
		{T: frameReply, ID: 8},
		{T: frameReply, ID: 9, Error: &msg},
		{T: frameReply, ID: 10, Error: &msg, ErrorCode: "APPROVAL_DENIED"},
		{T: frameLog, Line: "line \x00 \xff"},
		{T: frameAbort, Reason: "cancelled"},
		{T: frameDone, Result: &Result{Value: value, Logs: []string{"a", "\xff"}, Notes: []string{"Note: result.m is a Map, which JSON turns into {}."}}},
		{T: frameDone, Result: &Result{Error: &Failure{Kind: KindException, Message: "Error: x"}}},
		{T: frameFail, Failure: &Failure{Kind: KindTimeout, Message: "compute budget exhausted"}},
	}
}

// TestFramesRoundTrip: every frame type decodes to what was encoded, byte for byte in its
// strings (JSON frames turned invalid UTF-8 into U+FFFD, so a value changed by crossing the
// pipe).
func TestFramesRoundTrip(t *testing.T) {
	for _, f := range sampleFrames() {
		buf, err := appendFrame(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readFrame(newFrameReader(bytes.NewReader(buf)).r, math.MaxUint32)
		if err != nil {
			t.Fatalf("%s: %v", f.T, err)
		}
		// Encodings are canonical: the same frame encodes to the same bytes.
		if again, _ := appendFrame(nil, got); !bytes.Equal(again, buf) {
			t.Fatalf("%s: got %+v, want %+v", f.T, got, f)
		}
		if f.T == frameCall && got.Value.Lookup("bytes").AsString() != "caf\xe9 \xed\xa0\x80" {
			t.Fatalf("bytes changed: %q", got.Value.Lookup("bytes").AsString())
		}
	}
}

// TestDeepValuesCrossWithoutRecursion: a value nested 300,000 levels deep is encoded and
// decoded without recursion (a recursive codec would need a Go stack deep enough to end the
// process).
func TestDeepValuesCrossWithoutRecursion(t *testing.T) {
	const depth = 300_000
	v := jsonv.Int(1)
	for range depth {
		v = jsonv.ArrayValue(jsonv.ObjectValue(jsonv.Member{Key: "k", Value: v}))
	}
	buf := appendValue(nil, v)
	if n := valueSize(v, math.MaxInt64); n != int64(len(buf)) {
		t.Fatalf("valueSize %d, encoded %d bytes", n, len(buf))
	}
	if n := valueSize(v, 100); n <= 100 {
		t.Fatalf("valueSize with a limit of 100 returned %d", n)
	}
	d := &decoder{b: buf}
	got := d.value()
	if d.err != nil {
		t.Fatal(d.err)
	}
	for i := 0; i < depth; i++ {
		got = got.Index(0).Lookup("k")
	}
	if got.String() != "1" {
		t.Fatalf("innermost value %s", got)
	}
}

// TestMalformedFrames: what is not a frame is an error naming what is wrong, never a panic or
// an allocation the frame's length does not pay for.
func TestMalformedFrames(t *testing.T) {
	cases := []struct {
		t    frameType
		body string
		want string
	}{
		{frameDone, "\x01\x06\xff\xff\xff\xff\x0f", "count larger than the frame"},
		{frameDone, "\x01\x07\x80\x80\x80\x80\x01", "count larger than the frame"},
		{frameDone, "\x01\x04\x7f\xf8\x00\x00\x00\x00\x00\x00", "number that JSON cannot carry"}, // NaN
		{frameDone, "\x01\x04\x80\x00\x00\x00\x00\x00\x00\x00", "number that JSON cannot carry"}, // -0
		{frameDone, "\x01\x03" + string(binary.AppendVarint(nil, maxSafeInt+1)), "bad integer"},
		{frameDone, "\x01\x05\x05ab", "count larger than the frame"},
		{frameDone, "\x00\x00\x00\x00\x00", "trailing bytes"},
		{frameDone, "\x02", "bad result"},
		{frameFail, "\x00", "fail without a failure"},
		{frameReply, "\x00\x00\x00", "truncated"},
		{frameReply, "\x00\x00\x00\x00\x00\x00\x00\x01\x04", "bad reply"},
		{frameRun, "\x00\x00\x01\x00\x02\x00\x00", "bad error class"},
		{frameRun, "\x00\x02", "bad bindings"},
		{frameRun, "\x00\x01\x00", "trailing bytes"},
		{frameType(0), "", "unknown frame type 0"},
		{frameType(200), "", "unknown frame type 200"},
	}
	for _, c := range cases {
		_, err := decodeFrame(c.t, []byte(c.body))
		if !errors.Is(err, errMalformed) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: got %v, want an error saying %q", c.t, c.body, err, c.want)
		}
	}
}

// TestFrameReaderRefusesWithoutReading: a call larger than the flight ledger admits is skipped
// unread and returned refused with its id, and the next frame reads normally; a frame of
// another type over the limit is an error before any of its body is read.
func TestFrameReaderRefusesWithoutReading(t *testing.T) {
	big, _ := appendFrame(nil, &frame{T: frameCall, ID: 42, Fn: 1, Value: jsonv.StringValue(strings.Repeat("x", 200<<10))})
	small, _ := appendFrame(nil, &frame{T: frameCall, ID: 43, Fn: 1, Value: jsonv.Int(1)})
	log, _ := appendFrame(nil, &frame{T: frameLog, Line: strings.Repeat("y", 1000)})
	fr := newFrameReader(io.MultiReader(bytes.NewReader(big), bytes.NewReader(small), bytes.NewReader(log)))
	flight := newFlightLedger(100 << 10)
	f, err := fr.next(flight, 1<<20)
	if err != nil || !f.refused || f.ID != 42 || f.size != int64(len(big)-frameHeaderBytes) {
		t.Fatalf("big call: %+v, %v", f, err)
	}
	f, err = fr.next(flight, 1<<20)
	if err != nil || f.refused || f.ID != 43 || f.Value.String() != "1" || f.size != int64(len(small)-frameHeaderBytes) {
		t.Fatalf("small call: %+v, %v", f, err)
	}
	if now, _ := flight.held(); now != f.size {
		t.Fatalf("ledger holds %d, want %d", now, f.size)
	}
	_, err = fr.next(flight, 100)
	var tooLarge *frameTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.t != frameLog {
		t.Fatalf("large log: got %v", err)
	}
}

// FuzzDecodeFrame: any body of any type decodes or fails cleanly; what decodes encodes back to
// a body that decodes to the same frame.
func FuzzDecodeFrame(f *testing.F) {
	for _, fr := range sampleFrames() {
		buf, err := appendFrame(nil, fr)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byte(fr.T), buf[frameHeaderBytes:])
	}
	f.Add(byte(frameDone), []byte("\x01\x06\xff\xff\xff\xff\x0f"))
	f.Add(byte(frameCall), []byte("\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01\x07\x02\x01a\x06\x01\x00\x00\x01b\x05\x00"))
	f.Fuzz(func(t *testing.T, typ byte, body []byte) {
		fr, err := decodeFrame(frameType(typ), body)
		if err != nil {
			if !errors.Is(err, errMalformed) {
				t.Fatalf("error %v is not errMalformed", err)
			}
			return
		}
		again, err := appendFrame(nil, fr)
		if err != nil {
			t.Fatal(err)
		}
		fr2, err := decodeFrame(frameType(typ), again[frameHeaderBytes:])
		if err != nil {
			t.Fatalf("re-encoded frame does not decode: %v", err)
		}
		if again2, _ := appendFrame(nil, fr2); !bytes.Equal(again, again2) {
			t.Fatalf("round trip changed the frame:\n%+v\n%+v", fr, fr2)
		}
	})
}

// FuzzFrameReader: the parent's reader over any byte stream returns frames or errors, and the
// flight ledger it charges never goes past its limit.
func FuzzFrameReader(f *testing.F) {
	var stream []byte
	for _, fr := range sampleFrames() {
		stream, _ = appendFrame(stream, fr)
	}
	f.Add(stream)
	f.Add([]byte("\x80\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x01"))
	f.Add([]byte("\x00\x00\x00\x03\x04abc"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		const limit = 1 << 10
		fr := newFrameReader(bytes.NewReader(stream))
		flight := newFlightLedger(limit)
		for range 100 {
			got, err := fr.next(flight, limit)
			if err != nil {
				break
			}
			if got.T == frameCall && !got.refused {
				flight.release(got.size)
			}
		}
		if _, peak := flight.held(); peak > limit {
			t.Fatalf("peak %d over the limit %d", peak, limit)
		}
	})
}

// TestStreamedRepliesMatchTheirEncoding: a reply written in pieces (writeReplyValue) is byte for
// byte the frame appendFrame encodes, for values with long strings at the top, inside arrays and
// as keys, and with many short ones that fill several pieces.
func TestStreamedRepliesMatchTheirEncoding(t *testing.T) {
	long := strings.Repeat("é\xff", 3*streamChunk)
	many := make([]jsonv.Value, 40000)
	for i := range many {
		many[i] = jsonv.ObjectValue(jsonv.Member{Key: "name", Value: jsonv.StringValue("n" + strings.Repeat("x", i%7))}, jsonv.Member{Key: "n", Value: jsonv.Int(int64(i))})
	}
	for name, v := range map[string]jsonv.Value{
		"small":          jsonv.Int(1),
		"long string":    jsonv.StringValue(long),
		"chunk boundary": jsonv.StringValue(strings.Repeat("a", streamChunk)),
		"nested":         jsonv.ObjectValue(jsonv.Member{Key: long, Value: jsonv.ArrayValue(jsonv.StringValue(long), jsonv.NullValue(), jsonv.StringValue("x"))}),
		"many short":     jsonv.ArrayOf(many),
	} {
		want, err := appendFrame(nil, &frame{T: frameReply, ID: 42, Value: v})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if _, err := writeReplyValue(&got, nil, 42, v, valueSize(v, math.MaxInt64)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: streamed reply of %d bytes differs from its %d-byte encoding", name, got.Len(), len(want))
		}
	}
}
