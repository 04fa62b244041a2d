package jsruntime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/runcode-dev/runcode/jsonv"
)

// The pipe protocol between a ProcessPool and its workers. A frame is
//
//	[4 bytes: body length n, big-endian][1 byte: frame type][n bytes: body]
//
// Bodies are binary: integers are uvarints, strings are a uvarint length and the bytes as they
// are (so text that is not valid UTF-8 crosses unchanged, as it does in-process), values are
// encoded by appendValue. "call" and "reply" bodies start with the call's 8-byte big-endian id,
// so that the parent can refuse a call it will not read (see ProcessConfig.MaxInFlightBytes)
// and still answer it.
//
// Parent to worker: run (program, bindings or "the same bindings as the previous run"), reply
// (id, value or error), abort (reason).
// Worker to parent: ready (first, once), started (a run was received: first for each run,
// before any of it runs), call (id, namespace index, function index, argument), log (line),
// done (result: value, failure, logs, notes), fail (failure; the worker exits next).

// frameType is the type byte of a frame.
type frameType byte

// The frame types.
const (
	frameReady frameType = iota + 1
	frameStarted
	frameRun
	frameCall
	frameReply
	frameLog
	frameDone
	frameFail
	frameAbort
)

var frameTypeNames = [...]string{"", "ready", "started", "run", "call", "reply", "log", "done", "fail", "abort"}

// String returns the frame type's name, as error messages show it.
func (t frameType) String() string {
	if int(t) < len(frameTypeNames) && t != 0 {
		return frameTypeNames[t]
	}
	return fmt.Sprintf("frame type %d", byte(t))
}

// frameHeaderBytes is the length prefix and the type byte.
const frameHeaderBytes = 5

// callIDBytes is the id that starts the body of call and reply frames.
const callIDBytes = 8

// maxFrameBody bounds any frame body: the length prefix is 32 bits.
const maxFrameBody = math.MaxUint32

// frame is one decoded message. Which fields are set depends on T.
type frame struct {
	T        frameType
	Program  string          // run
	Bindings []wireNamespace // run, unless SameBindings
	// SameBindings (run) says the run is bound like the worker's previous run (the latest run
	// frame with Bindings), so that a run does not carry every function's name.
	SameBindings bool
	ID           uint64      // call, reply
	NS           int         // call
	Fn           int         // call: the function's index in the namespace
	Value        jsonv.Value // call (the argument), reply (Undefined: the call returned nothing)
	Error        *string     // reply
	ErrorCode    string      // reply, with Error: the rejection's code (CodedError); "" for none
	Line         string      // log
	Reason       string      // abort
	Result       *Result     // done
	Failure      *Failure    // fail

	// Set by the parent's frameReader on call frames: the body's length, and whether the
	// call was refused (its body skipped unread: only ID is set).
	size    int64
	refused bool
}

// wireNamespace is a Namespace as it travels: the names (and groups) of its functions.
type wireNamespace struct {
	Global     string
	Functions  []wireFunction
	ErrorClass *ErrorClass
	MemberNoun string
	// Positional and ResolveUndefined are the Namespace's.
	Positional, ResolveUndefined bool
}

// wireFunction is a Function as it travels.
type wireFunction struct{ Name, Group string }

// wireNamespaces returns bound as it travels.
func wireNamespaces(bound []boundNamespace) []wireNamespace {
	wire := make([]wireNamespace, len(bound))
	for i, ns := range bound {
		wire[i] = wireNamespace{Global: ns.global, ErrorClass: ns.errorClass, MemberNoun: ns.noun, Positional: ns.positional, ResolveUndefined: ns.undefinedOK, Functions: make([]wireFunction, ns.members.Len())}
		for j, m := range ns.members.list {
			wire[i].Functions[j] = wireFunction(m)
		}
	}
	return wire
}

// errFrameTooLarge reports a frame whose body does not fit the 32-bit length prefix.
var errFrameTooLarge = errors.New("jsruntime: frame larger than 4 GiB")

// appendFrame appends f as it travels.
func appendFrame(dst []byte, f *frame) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, byte(f.T))
	switch f.T {
	case frameRun:
		dst = appendString(dst, f.Program)
		if f.SameBindings {
			dst = append(dst, 1)
			break
		}
		dst = append(dst, 0)
		dst = binary.AppendUvarint(dst, uint64(len(f.Bindings)))
		for _, ns := range f.Bindings {
			dst = appendString(dst, ns.Global)
			if ns.ErrorClass == nil {
				dst = append(dst, 0)
			} else {
				dst = append(dst, 1)
				dst = appendString(dst, ns.ErrorClass.Name)
				dst = appendString(dst, ns.ErrorClass.MemberNameProperty)
			}
			dst = appendString(dst, ns.MemberNoun)
			var flags byte
			if ns.Positional {
				flags |= 1
			}
			if ns.ResolveUndefined {
				flags |= 2
			}
			dst = append(dst, flags)
			dst = binary.AppendUvarint(dst, uint64(len(ns.Functions)))
			for _, fn := range ns.Functions {
				dst = appendString(dst, fn.Name)
				dst = appendString(dst, fn.Group)
			}
		}
	case frameCall:
		dst = binary.BigEndian.AppendUint64(dst, f.ID)
		dst = binary.AppendUvarint(dst, uint64(f.NS))
		dst = binary.AppendUvarint(dst, uint64(f.Fn))
		dst = appendValue(dst, f.Value)
	case frameReply:
		dst = binary.BigEndian.AppendUint64(dst, f.ID)
		switch {
		case f.Error != nil && f.ErrorCode != "":
			dst = append(dst, 3)
			dst = appendString(dst, *f.Error)
			dst = appendString(dst, f.ErrorCode)
		case f.Error != nil:
			dst = append(dst, 2)
			dst = appendString(dst, *f.Error)
		case f.Value.IsDefined():
			dst = append(dst, 1)
			dst = appendValue(dst, f.Value)
		default:
			dst = append(dst, 0)
		}
	case frameLog:
		dst = appendString(dst, f.Line)
	case frameAbort:
		dst = appendString(dst, f.Reason)
	case frameDone:
		res := f.Result
		if res.Value.IsDefined() {
			dst = append(dst, 1)
			dst = appendValue(dst, res.Value)
		} else {
			dst = append(dst, 0)
		}
		dst = appendFailure(dst, res.Error)
		dst = binary.AppendUvarint(dst, uint64(len(res.Logs)))
		for _, line := range res.Logs {
			dst = appendString(dst, line)
		}
		dst = binary.AppendUvarint(dst, uint64(len(res.Notes)))
		for _, line := range res.Notes {
			dst = appendString(dst, line)
		}
	case frameFail:
		dst = appendFailure(dst, f.Failure)
	case frameReady, frameStarted:
	default:
		return dst[:start], fmt.Errorf("jsruntime: cannot encode a frame of %s", f.T)
	}
	n := len(dst) - start - frameHeaderBytes
	if uint64(n) > maxFrameBody {
		return dst[:start], errFrameTooLarge
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(n))
	return dst, nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendFailure(dst []byte, f *Failure) []byte {
	if f == nil {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	dst = appendString(dst, string(f.Kind))
	return appendString(dst, f.Message)
}

// Value tags.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagInt    // an integral number of magnitude at most 2^53: zigzag varint
	tagFloat  // any other number: 8 bytes, IEEE 754, big-endian
	tagString // uvarint length, bytes
	tagArray  // uvarint count, items
	tagObject // uvarint count, then each key (uvarint length, bytes) and value
)

// maxSafeInt is 2^53: integers up to it are exact in a float64.
const maxSafeInt = 1 << 53

// walkItem is one container being walked, and the next position in it.
type walkItem struct {
	object bool
	v      jsonv.Value
	next   int
}

// walkStackItems is how deep a walk nests before its stack leaves the caller's frame: most
// values crossing the pipe are shallow, and walk without allocating.
const walkStackItems = 8

// nextInWalk returns the next value to visit, with the key before it when it is an object
// member, popping finished containers; ok is false when the walk is over.
func nextInWalk(stack *[]walkItem) (key string, isMember bool, v jsonv.Value, ok bool) {
	for len(*stack) > 0 {
		top := &(*stack)[len(*stack)-1]
		if top.next < top.v.Len() {
			top.next++
			if top.object {
				m := top.v.Member(top.next - 1)
				return m.Key, true, m.Value, true
			}
			return "", false, top.v.Index(top.next - 1), true
		}
		*stack = (*stack)[:len(*stack)-1]
	}
	return "", false, jsonv.Value{}, false
}

// appendValue appends v's encoding. It does not recurse, so any depth is fine. An Undefined
// value (never valid inside a value) is encoded as null.
func appendValue(dst []byte, v jsonv.Value) []byte { return encodeValue(dst, v, nil) }

// streamChunk is how much encoding a streamed value (see streamer) gathers before it is written,
// and the length from which a string is written as it is rather than copied into the encoding.
const streamChunk = 64 << 10

// streamer writes an encoding in pieces, so that a large value is never encoded whole: the
// process pool's copy of a 50 MB result would otherwise be a third 50 MB copy in the parent,
// beside the tool's text and its rendering. It counts what it wrote and keeps the first error.
type streamer struct {
	w   io.Writer
	n   int64
	err error
}

// flush writes b and returns it emptied.
func (s *streamer) flush(b []byte) []byte {
	if s.err == nil && len(b) > 0 {
		m, err := s.w.Write(b)
		s.n += int64(m)
		s.err = err
	}
	return b[:0]
}

// writeString writes str without copying it when w has a WriteString that does not (*os.File).
func (s *streamer) writeString(str string) {
	if s.err == nil {
		m, err := io.WriteString(s.w, str)
		s.n += int64(m)
		s.err = err
	}
}

// encodeValue appends v's encoding to dst; with a streamer, it writes dst whenever it holds
// streamChunk bytes, and long strings directly, and returns what is left to write.
func encodeValue(dst []byte, v jsonv.Value, s *streamer) []byte {
	var buf [walkStackItems]walkItem
	stack := buf[:0]
	for {
		switch v.Kind() {
		case jsonv.Array:
			dst = append(dst, tagArray)
			dst = binary.AppendUvarint(dst, uint64(v.Len()))
			stack = append(stack, walkItem{v: v})
		case jsonv.Object:
			dst = append(dst, tagObject)
			dst = binary.AppendUvarint(dst, uint64(v.Len()))
			stack = append(stack, walkItem{object: true, v: v})
		case jsonv.String:
			if str := v.AsString(); s != nil && len(str) >= streamChunk {
				dst = append(dst, tagString)
				dst = binary.AppendUvarint(dst, uint64(len(str)))
				dst = s.flush(dst)
				s.writeString(str)
				break
			}
			dst = appendScalar(dst, v)
		default:
			dst = appendScalar(dst, v)
		}
		if s != nil && len(dst) >= streamChunk {
			dst = s.flush(dst)
		}
		key, isMember, next, ok := nextInWalk(&stack)
		if !ok {
			return dst
		}
		if isMember {
			dst = appendString(dst, key)
		}
		v = next
	}
}

// writeReplyValue writes a reply frame carrying the value v whose encoding is size bytes
// (valueSize), in pieces: the parent never holds a large result's encoding whole. buf is
// scratch space for the pieces.
func writeReplyValue(w io.Writer, buf []byte, id uint64, v jsonv.Value, size int64) ([]byte, error) {
	body := replyOverhead + size
	if size < 0 || body > maxFrameBody {
		return buf, errFrameTooLarge
	}
	buf = binary.BigEndian.AppendUint32(buf[:0], uint32(body))
	buf = append(buf, byte(frameReply))
	buf = binary.BigEndian.AppendUint64(buf, id)
	buf = append(buf, 1)
	s := &streamer{w: w}
	buf = s.flush(encodeValue(buf, v, s))
	if s.err == nil && s.n != frameHeaderBytes+body {
		// Not reached while valueSize and encodeValue agree; the frame is broken if it is.
		return buf, fmt.Errorf("jsruntime: a reply's value encoded to %d bytes, not the %d announced", s.n-frameHeaderBytes-replyOverhead, size)
	}
	return buf, s.err
}

func appendScalar(dst []byte, v jsonv.Value) []byte {
	switch v.Kind() {
	case jsonv.Bool:
		if v.AsBool() {
			return append(dst, tagTrue)
		}
		return append(dst, tagFalse)
	case jsonv.Number:
		f := v.AsNumber()
		if f == math.Trunc(f) && math.Abs(f) <= maxSafeInt && !(f == 0 && math.Signbit(f)) {
			dst = append(dst, tagInt)
			return binary.AppendVarint(dst, int64(f))
		}
		dst = append(dst, tagFloat)
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(f))
	case jsonv.String:
		dst = append(dst, tagString)
		return appendString(dst, v.AsString())
	}
	return append(dst, tagNull)
}

// valueSize returns the length of v's encoding, or a number above limit as soon as it is known
// to exceed limit. Like appendValue, it does not recurse.
func valueSize(v jsonv.Value, limit int64) int64 {
	var n int64
	var buf [walkStackItems]walkItem
	stack := buf[:0]
	for n <= limit {
		switch v.Kind() {
		case jsonv.Array:
			n += 1 + uvarintLen(uint64(v.Len()))
			stack = append(stack, walkItem{v: v})
		case jsonv.Object:
			n += 1 + uvarintLen(uint64(v.Len()))
			stack = append(stack, walkItem{object: true, v: v})
		case jsonv.String:
			n += 1 + stringSize(v.AsString())
		case jsonv.Number:
			var buf [16]byte
			n += int64(len(appendScalar(buf[:0], v)))
		default:
			n++
		}
		key, isMember, next, ok := nextInWalk(&stack)
		if !ok {
			return n
		}
		if isMember {
			n += stringSize(key)
		}
		v = next
	}
	return n
}

func stringSize(s string) int64 { return uvarintLen(uint64(len(s))) + int64(len(s)) }

func uvarintLen(x uint64) int64 {
	n := int64(1)
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// errMalformed reports a frame body that does not decode.
var errMalformed = errors.New("malformed frame")

// decoder reads a frame body. Every count it reads is checked against the bytes left, so a
// body never makes it allocate much more than its own length.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errMalformed, what)
	}
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.fail("truncated")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad integer")
		return 0
	}
	d.b = d.b[n:]
	return x
}

// count reads a number of elements, each at least minBytes long.
func (d *decoder) count(minBytes int) int {
	x := d.uvarint()
	if d.err == nil && x > uint64(len(d.b)/minBytes) {
		d.fail("count larger than the frame")
		return 0
	}
	return int(x)
}

func (d *decoder) string() string {
	n := d.count(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) uint64() uint64 {
	if d.err != nil || len(d.b) < 8 {
		d.fail("truncated")
		return 0
	}
	x := binary.BigEndian.Uint64(d.b)
	d.b = d.b[8:]
	return x
}

func (d *decoder) failure() *Failure {
	switch d.byte() {
	case 0:
		return nil
	case 1:
		kind := d.string()
		return &Failure{Kind: FailureKind(kind), Message: d.string()}
	}
	d.fail("bad failure")
	return nil
}

// buildItem is one container being decoded.
type buildItem struct {
	object  bool
	n       int // declared count
	items   []jsonv.Value
	members []jsonv.Member
	key     string
}

// value decodes one value without recursing.
func (d *decoder) value() jsonv.Value {
	var stack []*buildItem
	for {
		var v jsonv.Value
		switch tag := d.byte(); tag {
		case tagNull:
			v = jsonv.NullValue()
		case tagFalse, tagTrue:
			v = jsonv.BoolValue(tag == tagTrue)
		case tagInt:
			x, n := binary.Varint(d.b)
			if n <= 0 || x > maxSafeInt || x < -maxSafeInt {
				d.fail("bad integer")
				break
			}
			d.b = d.b[n:]
			v = jsonv.Int(x)
		case tagFloat:
			f, err := jsonv.NumberValue(math.Float64frombits(d.uint64()))
			if err != nil {
				d.fail("number that JSON cannot carry")
			}
			v = f
		case tagString:
			v = jsonv.StringValue(d.string())
		case tagArray:
			n := d.count(1)
			if d.err == nil && n > 0 {
				stack = append(stack, &buildItem{n: n, items: make([]jsonv.Value, 0, min(n, 1024))})
				continue
			}
			v = jsonv.ArrayValue()
		case tagObject:
			n := d.count(2)
			if d.err == nil && n > 0 {
				top := &buildItem{object: true, n: n, members: make([]jsonv.Member, 0, min(n, 1024))}
				top.key = d.string()
				stack = append(stack, top)
				continue
			}
			v = jsonv.ObjectValue()
		default:
			d.fail("bad value tag")
		}
		if d.err != nil {
			return jsonv.Value{}
		}
		// Attach v to the innermost container; a container that is complete is attached in
		// turn to its parent.
		for {
			if len(stack) == 0 {
				return v
			}
			top := stack[len(stack)-1]
			if top.object {
				top.members = append(top.members, jsonv.Member{Key: top.key, Value: v})
				if len(top.members) < top.n {
					top.key = d.string()
					break
				}
				v = jsonv.ObjectOf(top.members)
			} else {
				top.items = append(top.items, v)
				if len(top.items) < top.n {
					break
				}
				v = jsonv.ArrayOf(top.items)
			}
			stack = stack[:len(stack)-1]
		}
		if d.err != nil {
			return jsonv.Value{}
		}
	}
}

// decodeFrame decodes the body of a frame of type t. The strings it returns do not share
// memory with body.
func decodeFrame(t frameType, body []byte) (*frame, error) {
	d := &decoder{b: body}
	f := &frame{T: t}
	switch t {
	case frameReady, frameStarted:
	case frameRun:
		f.Program = d.string()
		switch d.byte() {
		case 0:
		case 1:
			f.SameBindings = true
		default:
			d.fail("bad bindings")
		}
		n := 0
		if !f.SameBindings {
			n = d.count(3)
		}
		for i := 0; i < n && d.err == nil; i++ {
			ns := wireNamespace{Global: d.string()}
			switch d.byte() {
			case 0:
			case 1:
				name := d.string()
				ns.ErrorClass = &ErrorClass{Name: name, MemberNameProperty: d.string()}
			default:
				d.fail("bad error class")
			}
			ns.MemberNoun = d.string()
			switch flags := d.byte(); {
			case flags > 3:
				d.fail("bad namespace flags")
			default:
				ns.Positional, ns.ResolveUndefined = flags&1 != 0, flags&2 != 0
			}
			fns := d.count(2)
			for j := 0; j < fns && d.err == nil; j++ {
				name := d.string()
				ns.Functions = append(ns.Functions, wireFunction{Name: name, Group: d.string()})
			}
			f.Bindings = append(f.Bindings, ns)
		}
	case frameCall:
		f.ID = d.uint64()
		ns := d.uvarint()
		if ns > math.MaxInt32 {
			d.fail("bad namespace")
		}
		f.NS = int(ns)
		fn := d.uvarint()
		if fn > math.MaxInt32 {
			d.fail("bad function")
		}
		f.Fn = int(fn)
		f.Value = d.value()
	case frameReply:
		f.ID = d.uint64()
		switch d.byte() {
		case 0:
		case 1:
			f.Value = d.value()
		case 2:
			msg := d.string()
			f.Error = &msg
		case 3:
			msg := d.string()
			f.Error = &msg
			f.ErrorCode = d.string()
		default:
			d.fail("bad reply")
		}
	case frameLog:
		f.Line = d.string()
	case frameAbort:
		f.Reason = d.string()
	case frameDone:
		res := &Result{}
		switch d.byte() {
		case 0:
		case 1:
			res.Value = d.value()
		default:
			d.fail("bad result")
		}
		res.Error = d.failure()
		n := d.count(1)
		for i := 0; i < n && d.err == nil; i++ {
			res.Logs = append(res.Logs, d.string())
		}
		n = d.count(1)
		for i := 0; i < n && d.err == nil; i++ {
			res.Notes = append(res.Notes, d.string())
		}
		f.Result = res
	case frameFail:
		f.Failure = d.failure()
		if d.err == nil && f.Failure == nil {
			d.fail("fail without a failure")
		}
	default:
		return nil, fmt.Errorf("%w: unknown %s", errMalformed, t)
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return nil, fmt.Errorf("%s: %w", t, d.err)
	}
	return f, nil
}

// validFailureKind reports whether k is one of the six kinds.
func validFailureKind(k FailureKind) bool {
	switch k {
	case KindException, KindTimeout, KindAbort, KindWorkerExit, KindInvalidOutput, KindOutputLimit:
		return true
	}
	return false
}
