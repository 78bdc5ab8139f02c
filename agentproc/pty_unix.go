//go:build unix

package agentproc

import (
	"fmt"
	"os"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// drainTimeout bounds how long Wait keeps copying PTY output after the child exited. Output
// normally ends at once with EIO; only a grandchild that still holds the slave (a dev server
// started by the agent, say) keeps it open, and such a grandchild must not hang the launcher.
const drainTimeout = 300 * time.Millisecond

// fallbackSize is the PTY size when the user's terminal reports none (0x0 or not a tty).
var fallbackSize = pty.Winsize{Rows: 24, Cols: 80}

// startPTY starts the child under a new PTY at the user's terminal size, then makes the
// user's terminal raw and starts the relay and the signal forwarder.
func (p *Proc) startPTY(spec Spec) error {
	inFd, err := dupFd(spec.Stdin)
	if err != nil {
		return newStartError(spec.Path, err)
	}
	stopOut, stopIn, err := newCancelerPair()
	if err != nil {
		closeFd(inFd)
		return newStartError(spec.Path, err)
	}
	p.inFd = inFd
	master, err := pty.StartWithSize(p.cmd, sizeOf(inFd))
	if err != nil {
		p.closeInput()
		stopOut.close()
		stopIn.close()
		return newStartError(spec.Path, err)
	}
	mfd := int(master.Fd())
	if err := unix.SetNonblock(mfd, true); err != nil {
		p.abort(master, stopOut, stopIn)
		return newStartError(spec.Path, fmt.Errorf("set pty master non-blocking: %w", err))
	}
	p.makeRaw(inFd)
	p.fwd.begin(p.cmd.Process.Pid, p.Restore, func() { resize(inFd, mfd) })
	p.relay = startRelay(relayConfig{
		master: master, masterFd: mfd, inFd: inFd, out: spec.Stdout,
		stopOut: stopOut, stopIn: stopIn, onPanic: p.Restore,
	})
	return nil
}

// abort kills and reaps a child that started but cannot be served.
func (p *Proc) abort(master *os.File, cs ...*canceler) {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	_ = master.Close()
	for _, c := range cs {
		c.close()
	}
	p.closeInput()
}

// dupFd duplicates f's descriptor (close-on-exec) so that the relay owns the number it polls:
// a caller closing its file early can then never make us read a recycled descriptor. The
// duplicate shares the open file description, so raw mode set through it is the user's.
func dupFd(f *os.File) (int, error) {
	fd := fdOf(f)
	if fd < 0 {
		return -1, nil
	}
	nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("duplicate stdin: %w", err)
	}
	return nfd, nil
}

func closeFd(fd int) {
	if fd >= 0 {
		_ = unix.Close(fd)
	}
}

// closeInput releases the duplicated stdin; Restore has run by then (or never will matter).
func (p *Proc) closeInput() {
	closeFd(p.inFd)
	p.inFd = -1
}

// makeRaw puts the user's terminal in raw mode so that every key, Ctrl-C included, reaches
// the child's PTY as a byte. Failure is not fatal: the child still runs, with local echo.
func (p *Proc) makeRaw(inFd int) {
	if inFd < 0 || !term.IsTerminal(inFd) {
		return
	}
	if st, err := term.MakeRaw(inFd); err == nil {
		p.rawFd, p.rawState = inFd, st
	}
}

// sizeOf reads the size of the terminal on fd, or fallbackSize when there is none.
func sizeOf(fd int) *pty.Winsize {
	if fd >= 0 {
		ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
		if err == nil && ws.Row > 0 && ws.Col > 0 {
			return &pty.Winsize{Rows: ws.Row, Cols: ws.Col, X: ws.Xpixel, Y: ws.Ypixel}
		}
	}
	ws := fallbackSize
	return &ws
}

// resize copies the user's terminal size onto the PTY; the kernel then sends SIGWINCH to the
// child's foreground process group. A size of 0x0 (not a terminal) is ignored.
func resize(inFd, masterFd int) {
	if inFd < 0 {
		return
	}
	ws, err := unix.IoctlGetWinsize(inFd, unix.TIOCGWINSZ)
	if err != nil || ws.Row == 0 || ws.Col == 0 {
		return
	}
	_ = unix.IoctlSetWinsize(masterFd, unix.TIOCSWINSZ, ws)
}
