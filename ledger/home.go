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
// DefaultHome and the ledger Choose picks, as the machine and with the
// lease it sets (without a --ledger flag: the
// command line sets AI_MEMORY_LEDGER from it, so the agent's hooks and
// MCP server use the same ledger), or the data home's own ledger when
// the user works offline (Offline; `run --offline` sets AI_MEMORY_OFFLINE).
func DefaultWhere(getenv func(string) string) (Where, error) {
	cfg := &lazyConfig{getenv: getenv} // one read of the config file
	w, _, err := choose(getenv, "", cfg)
	if err != nil {
		return Where{}, err
	}
	off, err := offline(getenv, cfg)
	if off {
		w.Location = ""
	}
	return w, err
}
