//go:build unix

package pipe

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// spinningPipe returns a pipe whose read end is read through a Reader that spins.
func spinningPipe(t *testing.T) (*Reader, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	rc, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	pr := &Reader{f: r, rc: rc, Spin: true}
	pr.attempt = pr.attemptRead
	return pr, w
}

// A spinning read returns what the pipe holds, what arrives while it spins, and what arrives
// only after it has given up spinning and waits in the poller; it ends with the writer's EOF.
func TestPipeReaderSpinsThenWaits(t *testing.T) {
	pr, w := spinningPipe(t)
	buf := make([]byte, 16)
	w.Write([]byte("held"))
	if n, err := pr.Read(buf); err != nil || string(buf[:n]) != "held" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	// What arrives during a spin, and what arrives after the spin gave up.
	for _, delay := range []time.Duration{pipeSpin / 3, 3 * pipeSlow} {
		go func() {
			time.Sleep(delay)
			w.Write([]byte("late"))
		}()
		if n, err := pr.Read(buf); err != nil || string(buf[:n]) != "late" {
			t.Fatalf("written after %s: read %q, %v", delay, buf[:n], err)
		}
	}
	// The wait of over pipeSlow makes the next read wait without spinning; a short one (data
	// already there; tried a few times, since a loaded machine may pause this goroutine for a
	// millisecond) brings spinning back.
	if !pr.slow {
		t.Errorf("after a wait of %s the next read still spins", 3*pipeSlow)
	}
	for try := 0; pr.slow && try < 5; try++ {
		w.Write([]byte("now"))
		if n, err := pr.Read(buf); err != nil || string(buf[:n]) != "now" {
			t.Fatalf("read %q, %v", buf[:n], err)
		}
	}
	if pr.slow {
		t.Errorf("after reads of data that was there at once the next read still does not spin")
	}
	w.Close()
	if n, err := pr.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("after the writer closed: %d, %v, want EOF", n, err)
	}
}

// A read deadline that has passed ends a spinning read at once, as it ends a waiting one: the
// parent's interrupts (cancellation, Close, the wall ceiling) move the deadline.
func TestPipeReaderSpinHonoursDeadlines(t *testing.T) {
	pr, _ := spinningPipe(t)
	pr.f.SetReadDeadline(time.Unix(1, 0))
	if _, err := pr.Read(make([]byte, 16)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline's", err)
	}
	go func() {
		time.Sleep(10 * time.Millisecond)
		pr.f.SetReadDeadline(time.Unix(1, 0)) // an interrupt while the read waits
	}()
	pr.f.SetReadDeadline(time.Time{})
	if _, err := pr.Read(make([]byte, 16)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("interrupted: err = %v, want the deadline's", err)
	}
}
