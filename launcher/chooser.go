package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ai-memory/ai-memory/transcript"
)

// MaxAdoptionCandidates bounds the sessions the chooser offers.
const MaxAdoptionCandidates = 8

// errChooserInterrupted is returned when the person pressed Ctrl-C at the
// chooser; the launch is cancelled and its lease released.
var errChooserInterrupted = &Error{Code: 130, Err: errors.New("interrupted; nothing was launched")}

// choose offers the checkout's recent sessions of this harness when the
// workstream is still empty. The lease stays held (heartbeats continue).
func (l *launch) choose(ctx context.Context) (choice, error) {
	sessions, err := l.src.List(l.env.transcriptEnv(), l.id.Root, MaxAdoptionCandidates)
	if err != nil {
		return choice{notices: []string{fmt.Sprintf("could not list previous %s sessions (%v); starting fresh", l.h.Name, err)}}, nil
	}
	if len(sessions) == 0 {
		return choice{}, nil
	}
	idx, err := askChoice(ctx, l.env.Stdin, l.env.Stderr, l.h.Name, l.ws.Name, sessions, l.env.Now())
	if err != nil {
		return choice{}, err
	}
	// The lease must still be ours after a possibly long wait.
	if _, err := l.db.RenewLease(ctx, l.run.ID); err != nil {
		return choice{}, wrapperError("renew lease after choosing", err)
	}
	if idx < 0 {
		return choice{}, nil
	}
	id := sessions[idx].ID
	return choice{resume: id, target: id, session: sessions[idx]}, nil
}

// askChoice prints the menu and reads answers until a valid one, EOF
// (fresh) or Ctrl-C (interrupted). It returns -1 for a fresh session.
func askChoice(ctx context.Context, in *os.File, out io.Writer, h, ws string, sessions []transcript.Session, now time.Time) (int, error) {
	fmt.Fprintf(out, "ai-memory: no %s session is linked to workstream '%s'.\n", h, ws)
	fmt.Fprintf(out, "Previous %s sessions in this checkout:\n", h)
	for i, s := range sessions {
		fmt.Fprintf(out, "  %d) %s (updated %s)\n", i+1, short(s.ID), age(now.Sub(s.ModTime)))
	}
	fmt.Fprintf(out, "  0) Start a new %s session\n", h)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	for {
		fmt.Fprint(out, "Select [1]: ")
		line, err := readLine(ctx, in, sig)
		if errors.Is(err, errChooserInterrupted) {
			fmt.Fprintln(out)
			return 0, err
		}
		if err != nil { // EOF or read error: start fresh
			fmt.Fprintln(out)
			return -1, nil
		}
		if idx, ok := parseChoice(line, len(sessions)); ok {
			return idx, nil
		}
		fmt.Fprintf(out, "Enter 0 through %d.\n", len(sessions))
	}
}

// parseChoice maps an answer to a session index, -1 for fresh.
func parseChoice(line string, n int) (int, bool) {
	s := strings.ToLower(strings.TrimSpace(line))
	switch s {
	case "":
		return 0, true
	case "0", "n", "new":
		return -1, true
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > n {
		return 0, false
	}
	return k - 1, true
}

// readLine reads one line byte by byte (so no typeahead meant for the agent
// is swallowed into a buffer) and gives up on Ctrl-C.
func readLine(ctx context.Context, in *os.File, sig <-chan os.Signal) (string, error) {
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var b strings.Builder
		buf := make([]byte, 1)
		for {
			n, err := in.Read(buf)
			if n == 1 {
				if buf[0] == '\n' {
					ch <- result{b.String(), nil}
					return
				}
				b.WriteByte(buf[0])
			}
			if err != nil {
				ch <- result{b.String(), err}
				return
			}
		}
	}()
	select {
	case r := <-ch:
		return r.line, r.err
	case <-sig:
		return "", errChooserInterrupted
	case <-ctx.Done():
		return "", errChooserInterrupted
	}
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
}
