package ledger

import (
	"errors"
	"path/filepath"
	"strings"
)

// DefaultHome returns the ai-memory data directory: $AI_MEMORY_HOME, else
// ${XDG_DATA_HOME:-$HOME/.local/share}/ai-memory. Blank variables count as
// unset, and a relative XDG_DATA_HOME is ignored as the XDG spec requires.
// getenv is injected so tests and callers never depend on the real
// environment.
func DefaultHome(getenv func(string) string) (string, error) {
	if h := strings.TrimSpace(getenv("AI_MEMORY_HOME")); h != "" {
		return filepath.Abs(h)
	}
	if x := strings.TrimSpace(getenv("XDG_DATA_HOME")); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "ai-memory"), nil
	}
	if h := strings.TrimSpace(getenv("HOME")); h != "" {
		return filepath.Join(h, ".local", "share", "ai-memory"), nil
	}
	return "", errors.New("cannot locate the ai-memory data directory: set AI_MEMORY_HOME or HOME")
}

// DefaultWhere is where this process's ledger lives: the data home of
// DefaultHome, with the ledger in its backend's default place there, as
// the machine AI_MEMORY_MACHINE_ID names (else the data home's own) and
// with the lease AI_MEMORY_LEASE_SECONDS sets (tests only).
func DefaultWhere(getenv func(string) string) (Where, error) {
	home, err := DefaultHome(getenv)
	if err != nil {
		return Where{}, err
	}
	machine, err := machineFromEnv(getenv)
	if err != nil {
		return Where{}, err
	}
	lease, err := leaseFromEnv(getenv)
	if err != nil {
		return Where{}, err
	}
	return Where{Home: home, Machine: machine, Lease: lease}, nil
}
