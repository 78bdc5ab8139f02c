package ledger

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Source says where the choice of ledger came from, for `ledger status`
// and doctor: "--ledger", "AI_MEMORY_LEDGER", "config file PATH:LINE" or
// "default".
type Source string

// The sources of a choice, highest precedence first.
const (
	SourceFlag    Source = "--ledger"
	SourceEnv     Source = "AI_MEMORY_LEDGER"
	SourceDefault Source = "default"
)

// LocalLedger is the value naming the data home's own SQLite ledger, so a
// flag or variable can override a shared ledger set in the config file.
const LocalLedger = "local"

// Choose picks the ledger of this process: the --ledger flag (flag, "" when
// not given) over AI_MEMORY_LEDGER over the config file's `ledger` over the
// data home's SQLite ledger. A value is `local` (the default), an absolute
// path (a SQLite ledger file there: several data homes may share one), or
// `scheme://…` (the backend registered for scheme, e.g. postgres://…).
// The Where also carries the machine AI_MEMORY_MACHINE_ID names (else the
// data home's own) and the lease AI_MEMORY_LEASE_SECONDS sets (tests only).
func Choose(getenv func(string) string, flag string) (Where, Source, error) {
	return choose(getenv, flag, &lazyConfig{getenv: getenv})
}

// lazyConfig reads the config file once, when first needed.
type lazyConfig struct {
	getenv func(string) string
	read   bool
	c      Config
	err    error
}

func (l *lazyConfig) get() (Config, error) {
	if !l.read {
		l.c, l.err = LoadConfig(l.getenv)
		l.read = true
	}
	return l.c, l.err
}

func choose(getenv func(string) string, flag string, cfg *lazyConfig) (Where, Source, error) {
	home, err := DefaultHome(getenv)
	if err != nil {
		return Where{}, "", err
	}
	val, src, err := chosenValue(getenv, flag, cfg)
	if err != nil {
		return Where{}, "", err
	}
	loc, err := parseLocation(val)
	if err != nil {
		return Where{}, "", fmt.Errorf("%s: %w", src, err)
	}
	machine, err := machineFromEnv(getenv)
	if err != nil {
		return Where{}, "", err
	}
	lease, err := leaseFromEnv(getenv)
	if err != nil {
		return Where{}, "", err
	}
	return Where{Home: home, Location: loc, Machine: machine, Lease: lease}, src, nil
}

// chosenValue is the highest-precedence value that is set.
func chosenValue(getenv func(string) string, flag string, cfg *lazyConfig) (string, Source, error) {
	if v := strings.TrimSpace(flag); v != "" {
		return v, SourceFlag, nil
	}
	if v := strings.TrimSpace(getenv("AI_MEMORY_LEDGER")); v != "" {
		return v, SourceEnv, nil
	}
	c, err := cfg.get()
	if err != nil {
		return "", "", err
	}
	if c.Ledger != "" {
		return c.Ledger, Source(fmt.Sprintf("config file %s:%d", c.Path, c.LedgerLine)), nil
	}
	return "", SourceDefault, nil
}

// parseLocation turns a chosen value into a Where.Location.
func parseLocation(v string) (string, error) {
	switch {
	case v == "" || v == LocalLedger:
		return "", nil
	case strings.Contains(v, "://"):
		return v, nil
	case filepath.IsAbs(v):
		return filepath.Clean(v), nil
	}
	return "", fmt.Errorf("ledger %s is not `local`, an absolute path to a SQLite ledger file, or a URL such as postgres://HOST/DB; fix the value", quoteSafely(v))
}

// quoteSafely quotes a value for a message unless it may hold a password
// in a form HidePassword does not recognise (a malformed URL).
func quoteSafely(v string) string {
	if strings.Contains(v, "@") || strings.Contains(strings.ToLower(v), "password") {
		return "value (not shown: it may hold a password)"
	}
	return fmt.Sprintf("%q", v)
}

// Backend names the backend a location picks: its scheme, else DefaultScheme.
func Backend(location string) string {
	if i := strings.Index(location, "://"); i > 0 {
		return location[:i]
	}
	return DefaultScheme
}

// Offline reports whether the user asked to run against the data home's
// local ledger instead of the chosen one: AI_MEMORY_OFFLINE (a boolean;
// blank = unset) over the config file's `offline`. The run command's
// --offline flag is ORed in by the caller.
func Offline(getenv func(string) string) (bool, error) {
	return offline(getenv, &lazyConfig{getenv: getenv})
}

func offline(getenv func(string) string, cfg *lazyConfig) (bool, error) {
	if v := strings.TrimSpace(getenv("AI_MEMORY_OFFLINE")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, fmt.Errorf("AI_MEMORY_OFFLINE=%q is not a boolean; set it to 1 or 0", v)
		}
		return b, nil
	}
	c, err := cfg.get()
	return c.Offline, err
}
