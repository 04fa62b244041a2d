package registry

import (
	"runtime"
	"sync"
	"weak"
)

// schemaCache maps a schema's canonical bytes to its compiledSchema, so that a registry checks
// and compiles each distinct schema once however many tools and sources declare it. It holds
// the schemas weakly: a schema no registered tool (or prepared Tool) uses any more is dropped,
// so a long-lived registry whose tools come and go (an MCP server's changing tool list) does not
// accumulate them. The zero value is ready to use; it is safe for concurrent use.
type schemaCache struct {
	mu    sync.Mutex
	byKey map[string]weak.Pointer[compiledSchema]
}

// get returns the live schema with canonical bytes key, or nil.
func (c *schemaCache) get(key string) *compiledSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKey[key].Value()
}

// put stores s unless a live schema with the same key is stored already, and returns the one
// stored. Two registrations racing on one new schema both compile it; the first to store wins.
func (c *schemaCache) put(s *compiledSchema) *compiledSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.byKey[s.key].Value(); old != nil {
		return old
	}
	if c.byKey == nil {
		c.byKey = map[string]weak.Pointer[compiledSchema]{}
	}
	wp := weak.Make(s)
	c.byKey[s.key] = wp
	runtime.AddCleanup(s, c.drop, cacheSlot{s.key, wp})
	return s
}

// cacheSlot names one stored weak pointer, for its cleanup.
type cacheSlot struct {
	key string
	wp  weak.Pointer[compiledSchema]
}

// drop removes a collected schema's slot, unless the key has been stored again since.
func (c *schemaCache) drop(slot cacheSlot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey[slot.key] == slot.wp {
		delete(c.byKey, slot.key)
	}
}

// len returns the number of slots, live or awaiting their cleanup.
func (c *schemaCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
