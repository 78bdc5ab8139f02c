package sqlite

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

// TestHelperProcess is not a test: the race test re-executes the test
// binary with LEDGER_HELPER=lease to get a second real process.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("LEDGER_HELPER") != "lease" {
		t.Skip("helper process only")
	}
	fmt.Println(helperAcquire(os.Getenv("LEDGER_HOME"), os.Getenv("LEDGER_WS")))
	io.Copy(io.Discard, os.Stdin) // hold the lease (stay alive) until released
	os.Exit(0)
}

func helperAcquire(home, wsID string) string {
	db, err := Open(context.Background(), home)
	if err != nil {
		return "error " + err.Error()
	}
	defer db.Close()
	bufio.NewReader(os.Stdin).ReadString('\n') // start barrier
	run, _, err := db.AcquireLease(context.Background(), wsID, "claude", ledger.CurrentOwner())
	var busy *ledger.BusyError
	switch {
	case errors.As(err, &busy):
		return "busy"
	case err != nil:
		return "error " + strings.ReplaceAll(err.Error(), "\n", " ")
	}
	return "won " + run.ID
}

type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startHelper(t *testing.T, home, wsID string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "LEDGER_HELPER=lease", "LEDGER_HOME="+home, "LEDGER_WS="+wsID)
	in, err := cmd.StdinPipe()
	must(t, err)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	h := &helper{cmd: cmd, stdin: in, out: bufio.NewReader(out)}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return h
}

// TestLease_TwoProcessesRace: two real processes race for one lease; exactly
// one wins and the other sees the live holder.
func TestLease_TwoProcessesRace(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	home := t.TempDir()
	db, err := Open(context.Background(), home)
	must(t, err)
	defer db.Close()
	ws := mustWorkstream(t, db, "race")
	hs := []*helper{startHelper(t, home, ws.ID), startHelper(t, home, ws.ID)}
	for _, h := range hs {
		io.WriteString(h.stdin, "go\n")
	}
	var won, busy int
	for _, h := range hs {
		line, err := h.out.ReadString('\n')
		must(t, err)
		switch {
		case strings.HasPrefix(line, "won "):
			won++
		case line == "busy\n":
			busy++
		default:
			t.Fatalf("helper said %q", line)
		}
	}
	if won != 1 || busy != 1 {
		t.Fatalf("won %d, busy %d; want exactly one winner", won, busy)
	}
	runs, err := db.Runs(context.Background(), ws.ID, 0)
	if err != nil || len(runs) != 1 || runs[0].State != ledger.RunActive || runs[0].Owner.PID == os.Getpid() {
		t.Fatalf("runs = %+v, %v; want one active run owned by a helper", runs, err)
	}
}

// TestLease_RealProcessDeath uses the default ProcessAlive: a pid that
// exited and was reaped, and a live pid whose start time differs (reuse).
func TestLease_RealProcessDeath(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("start times are only read on linux and darwin")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	must(t, cmd.Run())
	me := ledger.CurrentOwner()
	if me.StartTime == "" {
		t.Fatal("CurrentOwner has no start time on a supported platform")
	}
	tests := []struct {
		name  string
		owner ledger.Owner
		taken bool
	}{
		{"exited pid", ledger.Owner{Host: me.Host, PID: cmd.Process.Pid, StartTime: "1"}, true},
		{"reused pid", ledger.Owner{Host: me.Host, PID: me.PID, StartTime: me.StartTime + "0"}, true},
		{"live pid, same start", me, false},
		{"live pid, unknown start", ledger.Owner{Host: me.Host, PID: me.PID}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, _ := openTest(t)
			ws := mustWorkstream(t, db, "w")
			_, _, err := db.AcquireLease(ctx, ws.ID, "claude", tt.owner)
			must(t, err)
			_, reclaimed, err := db.AcquireLease(ctx, ws.ID, "claude", me)
			if tt.taken != (err == nil && len(reclaimed) == 1 && reclaimed[0].State == ledger.RunInterrupted) {
				t.Fatalf("second acquire = %+v, %v; want taken over: %v", reclaimed, err, tt.taken)
			}
		})
	}
}
