package jsruntime

// PoolStats is a snapshot of a ProcessPool's occupancy, for a host's metrics.
type PoolStats struct {
	// Size is the warm workers the pool keeps (ProcessConfig.Size).
	Size int
	// MaxWorkers is the most runs that execute at once (ProcessConfig.MaxWorkers).
	MaxWorkers int
	// Workers is the worker processes started now, busy or idle.
	Workers int
	// Busy is the runs holding a worker place now (running, or starting their worker).
	Busy int
	// Queued is the runs waiting for a worker place.
	Queued int
}

// Stats returns the pool's occupancy now.
func (p *ProcessPool) Stats() PoolStats {
	busy := int(p.adm.running.Load())
	p.mu.Lock()
	idle := len(p.idle)
	p.mu.Unlock()
	return PoolStats{Size: p.cfg.Size, MaxWorkers: p.cfg.MaxWorkers, Workers: idle + busy, Busy: busy, Queued: int(p.adm.queued.Load())}
}
