// Command mockmodel is a deterministic model server for the real-CLI test rig.
//
// It speaks just enough of the Anthropic Messages, OpenAI Responses and OpenAI
// Chat Completions wire protocols for the real Claude Code and Codex CLIs to
// run end to end on 127.0.0.1 with no internet, so that they write their real
// native transcripts. Every request is logged as one JSON line, which is how
// the acceptance scripts check what a harness actually sent to its model
// (for example that a handoff packet arrived exactly once).
//
// Replies follow a fixed rule (see reply.go) so that the same conversation
// always produces the same answer. Proxy requests (CONNECT or absolute URIs)
// are refused and logged as phone-home attempts: pointing HTTPS_PROXY at this
// server keeps a harness's background traffic on loopback and makes it visible.
//
// Usage:
//
//	mockmodel -addr 127.0.0.1:0 -port-file PORT -log requests.jsonl
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mockmodel:", err)
		os.Exit(1)
	}
}

// options are the command-line settings.
type options struct {
	addr     string
	portFile string
	logPath  string
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("mockmodel", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "listen address (keep it on loopback)")
	fs.StringVar(&o.portFile, "port-file", "", "write the chosen port to this file once listening")
	fs.StringVar(&o.logPath, "log", "", "append one JSON line per request to this file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q; run mockmodel -h for usage", fs.Arg(0))
	}
	return o, nil
}

// run serves until SIGINT or SIGTERM.
func run(args []string, stdout io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	logger, err := openRequestLog(o.logPath)
	if err != nil {
		return err
	}
	defer logger.Close()

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.addr, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	srv := &http.Server{Handler: newServer(logger), ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	fmt.Fprintf(stdout, "listening on http://127.0.0.1:%d\n", port)
	if err := writePortFile(o.portFile, port); err != nil {
		_ = srv.Close()
		return err
	}
	return waitAndShutdown(ctx, srv, errc)
}

func waitAndShutdown(ctx context.Context, srv *http.Server, errc <-chan error) error {
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// writePortFile writes the port atomically (temp file + rename) so a script
// polling for the file never reads a half-written number.
func writePortFile(path string, port int) error {
	if path == "" {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".port-*")
	if err != nil {
		return fmt.Errorf("write port file: %w", err)
	}
	_, werr := tmp.WriteString(strconv.Itoa(port) + "\n")
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write port file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write port file: %w", err)
	}
	return nil
}
