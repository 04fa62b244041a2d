package jsruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// Stats counts the runs holding a worker while they run, and none once they have ended.
func TestProcessPoolStats(t *testing.T) {
	p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	idle := jsruntime.PoolStats{Size: 3, MaxWorkers: 3, Workers: 3}
	if got := p.Stats(); got != idle {
		t.Fatalf("idle pool: %+v", got)
	}
	entered := make(chan struct{}, 2)
	release := make(chan struct{})
	hold := jsruntime.Namespace{Global: "host", Functions: []jsruntime.Function{{Name: "hold", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		entered <- struct{}{}
		<-release
		settle(jsonv.StringValue("released"), nil)
	}}}}
	done := make(chan error, 2)
	for range 2 {
		go func() {
			res, err := p.Run(context.Background(), jsruntime.Request{Program: `return await host.hold({});`, Bindings: []jsruntime.Namespace{hold}})
			if err == nil && res.Error != nil {
				err = fmt.Errorf("%s: %s", res.Error.Kind, res.Error.Message)
			}
			done <- err
		}()
	}
	<-entered
	<-entered
	if got := p.Stats(); got != (jsruntime.PoolStats{Size: 3, MaxWorkers: 3, Workers: 3, Busy: 2}) {
		t.Fatalf("two runs in flight: %+v", got)
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if got := p.Stats(); got != idle {
		t.Fatalf("after the runs: %+v", got)
	}
}
