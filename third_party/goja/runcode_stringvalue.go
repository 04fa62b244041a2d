package goja

// runcode: a string value that does not keep the Go string it was made from.
//
// Runtime.ToValue of a Go string longer than 16 bytes makes an importedString, which keeps the
// Go string and, once the string is used, its UTF-16 form as well: a non-ASCII text of n bytes
// then costs its UTF-8 and its UTF-16 for as long as the value lives (a 50 MB file read by a
// program, 150 MB). NewStringValue converts at once and keeps one form: an ASCII string shares
// s's memory, any other is converted to UTF-16 and holds no reference to s.

// NewStringValue returns s as a JavaScript string value (the same value ToValue gives), keeping
// only one representation of it: s itself when it is ASCII, its UTF-16 code units otherwise.
func NewStringValue(s string) String {
	return newStringValue(s)
}
