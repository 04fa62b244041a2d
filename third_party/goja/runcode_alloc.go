package goja

// runcode: an object and its implementation in one allocation.
//
// Every ordinary object and array was two allocations, the *Object handle and the baseObject
// or arrayObject it points to (self), which point at each other and live and die together.
// newBaseObject (NewObject, object literals, CreateObject), newArray (every array) and
// JSON.parse's objects now allocate the pair as one struct: one allocation fewer per object,
// 128 bytes instead of 24 + 112 for a plain object, and the handle and its properties share
// a cache line when a property is read. The Object comes first, so its address is the
// allocation's (as WeakMap's weak pointers and cleanups had it before).

type objectAndBase struct {
	o Object
	b baseObject
}

type objectAndArray struct {
	o Object
	a arrayObject
}
