package jsruntime

// PoolStats is a snapshot of a ProcessPool's occupancy, for a host's metrics.
type PoolStats struct {
	// Size is the most runs the pool serves at once: its warm workers (ProcessConfig.Size).
	Size int
	// Busy is the runs holding one of those places now (running, or starting their worker).
	Busy int
}

// Stats returns the pool's occupancy now. It takes no lock the runs take, so a metrics
// scrape never waits for them.
func (p *ProcessPool) Stats() PoolStats {
	return PoolStats{Size: p.cfg.Size, Busy: len(p.slots)}
}
