package mcpwire

import (
	"context"
	"sync"
)

// IdleCounter counts work in flight; wait returns once none is.
type IdleCounter struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is zero; nil until first needed
}

func (c *IdleCounter) Add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 && c.idle != nil {
		c.idle = nil
	}
	c.n++
}

func (c *IdleCounter) Done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n--
	if c.n == 0 && c.idle != nil {
		close(c.idle)
	}
}

// wait waits until nothing is in flight or ctx is done.
func (c *IdleCounter) Wait(ctx context.Context) error {
	c.mu.Lock()
	if c.n == 0 {
		c.mu.Unlock()
		return nil
	}
	if c.idle == nil {
		c.idle = make(chan struct{})
	}
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
