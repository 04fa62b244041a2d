package registry

import "sync"

// schemaCache maps a schema's canonical bytes to its compiledSchema, so that each distinct
// schema is checked and compiled once however many tools and sources declare it. A registry's
// cache counts the registered tools that use each schema and drops a schema when the last of
// them is unregistered, so a long-lived registry whose tools come and go (an MCP server's
// changing tool list) does not accumulate schemas. The zero value is ready to use; it is safe
// for concurrent use.
type schemaCache struct {
	mu    sync.Mutex
	byKey map[string]cacheSlot
}

type cacheSlot struct {
	schema *compiledSchema
	refs   int // registrations using schema; a Compiler's cache never releases
}

// acquireKey counts one more use of the schema with canonical bytes key and returns it, or
// returns nil when there is none.
func (c *schemaCache) acquireKey(key string) *compiledSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.byKey[key]
	if !ok {
		return nil
	}
	slot.refs++
	c.byKey[key] = slot
	return slot.schema
}

// acquire counts one more use of the schema with s's canonical bytes, storing s when there is
// none, and returns the one stored. Two registrations racing on one new schema both compile
// it; the first to store it wins. A nil s is nil.
func (c *schemaCache) acquire(s *compiledSchema) *compiledSchema {
	if s == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.byKey[s.key]
	if !ok {
		if c.byKey == nil {
			c.byKey = map[string]cacheSlot{}
		}
		slot.schema = s
	}
	slot.refs++
	c.byKey[s.key] = slot
	return slot.schema
}

// release counts one use of s less, dropping it after the last. A nil s is ignored.
func (c *schemaCache) release(s *compiledSchema) {
	if s == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if slot, ok := c.byKey[s.key]; ok && slot.schema == s {
		if slot.refs--; slot.refs <= 0 {
			delete(c.byKey, s.key)
		} else {
			c.byKey[s.key] = slot
		}
	}
}

// len returns the number of schemas held.
func (c *schemaCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
