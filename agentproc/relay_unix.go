//go:build unix

package agentproc

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// testHookOutput, when set by a test, sees every chunk copied from the PTY to the user.
var testHookOutput func([]byte)

// relayConfig is what startRelay needs; see relay.
type relayConfig struct {
	master   *os.File // PTY master, kept only to be closed at the end
	masterFd int      // its descriptor, in non-blocking mode
	inFd     int      // user's stdin, -1 for none; never switched to non-blocking
	out      *os.File // user's stdout, nil to discard
	stopOut  *canceler
	stopIn   *canceler
	onPanic  func() // restores the terminal before a panic in a relay goroutine kills us
}

// relay copies PTY output to the user (copyOut) and the user's keystrokes to the PTY
// (copyIn), each in its own goroutine.
type relay struct {
	relayConfig
	outDone  chan struct{}
	inDone   chan struct{}
	timedOut bool // the drain hit its bound (a grandchild held the PTY open); set by finish
}

func startRelay(cfg relayConfig) *relay {
	r := &relay{relayConfig: cfg, outDone: make(chan struct{}), inDone: make(chan struct{})}
	go r.copyOut()
	if cfg.inFd >= 0 {
		go r.copyIn()
	} else {
		close(r.inDone)
	}
	return r
}

// finish runs after the child exited: it lets the output drain for at most timeout, stops
// both goroutines and only then closes the master (closing it earlier would lose the child's
// last bytes; closing it at all hangs up any grandchild still attached to the PTY).
func (r *relay) finish(timeout time.Duration) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-r.outDone:
	case <-t.C:
		r.timedOut = true
		r.stopOut.cancel()
		<-r.outDone
	}
	r.stopIn.cancel()
	<-r.inDone
	_ = r.master.Close()
	r.stopOut.close()
	r.stopIn.close()
}

// copyOut reads the master until end of stream. On Linux the end is EIO once every slave
// descriptor is closed (not EOF), so any read error ends the stream. Write errors on the
// user's side do not stop the loop: the child would block on a full PTY otherwise.
func (r *relay) copyOut() {
	defer close(r.outDone)
	defer r.recoverPanic()
	buf := make([]byte, 32*1024)
	out := r.out
	for !r.stopOut.cancelled() {
		n, err := readNonblock(r.masterFd, buf)
		if n > 0 {
			out = writeOrDrop(out, buf[:n])
		}
		switch {
		case err == unix.EAGAIN:
			if !waitFd(r.masterFd, false, r.stopOut.fd) {
				return
			}
		case err == unix.EINTR || (err == nil && n > 0):
		default: // EIO (Linux end of stream), EOF (n == 0) or a real error
			return
		}
	}
}

// writeOrDrop writes b to out and returns the writer to use next: nil (discard) after an error.
func writeOrDrop(out *os.File, b []byte) *os.File {
	if testHookOutput != nil {
		testHookOutput(b)
	}
	if out == nil {
		return nil
	}
	if _, err := out.Write(b); err != nil {
		return nil
	}
	return out
}

// copyIn forwards the user's input to the master. It reads stdin only after waitFd reported
// it readable, so once stopIn is cancelled no keystroke is consumed.
func (r *relay) copyIn() {
	defer close(r.inDone)
	defer r.recoverPanic()
	buf := make([]byte, 4096)
	for waitFd(r.inFd, false, r.stopIn.fd) {
		n, err := unix.Read(r.inFd, buf)
		if n > 0 && !r.writeMaster(buf[:n]) {
			return
		}
		if (err == nil && n == 0) || (err != nil && err != unix.EINTR && err != unix.EAGAIN) {
			return // end of input, or the user's terminal went away
		}
	}
}

// writeMaster writes all of b to the non-blocking master, waiting for room as needed. It
// reports false when cancelled or when the PTY is gone.
func (r *relay) writeMaster(b []byte) bool {
	for len(b) > 0 {
		n, err := unix.Write(r.masterFd, b)
		if n > 0 {
			b = b[n:]
		}
		switch {
		case err == unix.EAGAIN:
			if !waitFd(r.masterFd, true, r.stopIn.fd) {
				return false
			}
		case err != nil && err != unix.EINTR:
			return false
		}
	}
	return true
}

// recoverPanic restores the user's terminal before a panic in a relay goroutine ends the
// process; the deferred restore of the caller's goroutine would never run.
func (r *relay) recoverPanic() {
	if v := recover(); v != nil {
		r.onPanic()
		panic(v)
	}
}
