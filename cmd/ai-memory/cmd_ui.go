package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/webui"
	"github.com/urfave/cli/v2"
)

func newUICommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "ui",
		Usage: "serve a local, read-only web page of the workstreams, timelines and sessions (docs/ui.md)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen `HOST:PORT` (default loopback, a free port); a non-loopback host is reachable by others"},
			&cli.BoolFlag{Name: "open", Usage: "open the page in the default browser"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageError{fmt.Errorf("ui takes no arguments; see: ai-memory ui --help")}
			}
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			return runUI(c.Context, env, io.err, c.String("addr"), c.Bool("open"))
		},
	}
}

func runUI(ctx context.Context, env ledgerCLIEnv, errw io.Writer, addr string, open bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError{fmt.Errorf("--addr %q is not HOST:PORT (e.g. 127.0.0.1:8080)", addr)}
	}
	db, err := openLedgerIfExists(ctx, env)
	if err != nil {
		return err
	}
	if db == nil {
		return fmt.Errorf("no ai-memory ledger yet; run %s first", runSuggestion())
	}
	token, err := webui.NewToken()
	if err != nil {
		db.Close()
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		db.Close()
		return fmt.Errorf("listen on %s: %w; pass another --addr", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(errw, "ai-memory: warning: serving on %s, reachable from other machines; anyone with the URL can read this ledger\n", ln.Addr())
	}
	scope, _ := cwdScope(ctx, env, db) // outside a checkout: every workstream
	srv, err := webui.New(db, webui.Options{Token: token, Hosts: webui.AllowedHosts(ln.Addr()), Scope: scope,
		Reopen: func() (ledger.Ledger, error) { return reopenLedger(ctx, env) }})
	if err != nil {
		db.Close()
		return err
	}
	defer func() { srv.DB().Close() }() // the ledger it reads last
	url := "http://" + ln.Addr().String() + "/?token=" + token
	fmt.Fprintf(env.out, "ai-memory ui: %s\n(read-only; Ctrl-C stops it)\n", url)
	if open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(errw, "ai-memory: could not open a browser (%v); open the URL above\n", err)
		}
	}
	return serveUntilSignal(ctx, ln, srv.Handler())
}

// serveUntilSignal serves until SIGINT/SIGTERM or ctx ends, then shuts down.
func serveUntilSignal(ctx context.Context, ln net.Listener, h http.Handler) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, sigTerm)
	defer stop()
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve the ui: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	return hs.Shutdown(sctx)
}

// openBrowser starts the platform's URL opener without waiting for it.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// reopenLedger opens the ledger again for the ui after its file was
// replaced; a ledger that is gone is an error (the ui keeps the old one).
func reopenLedger(ctx context.Context, env ledgerCLIEnv) (ledger.Ledger, error) {
	db, err := openLedgerIfExists(ctx, env)
	if err == nil && db == nil {
		err = errors.New("the ledger is gone")
	}
	return db, err
}
