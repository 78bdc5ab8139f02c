package ledger

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is the user's config file, $XDG_CONFIG_HOME/ai-memory/config
// (else ~/.config/ai-memory/config): `key = value` lines, `#` comments.
// It holds the machine's standing choices; the environment and flags
// override it for one command.
type Config struct {
	// Path is the file read ("" when there is none).
	Path string
	// Ledger is the `ledger` value, "" when unset; LedgerLine its line.
	Ledger     string
	LedgerLine int
	// Offline is the `offline` value; OfflineLine its line (0: unset).
	Offline     bool
	OfflineLine int
}

// configKeys are the keys a config file may set.
var configKeys = []string{"ledger", "offline"}

// ConfigPath is where the config file is looked for. A relative
// XDG_CONFIG_HOME is ignored, as the XDG spec requires.
func ConfigPath(getenv func(string) string) string {
	if x := strings.TrimSpace(getenv("XDG_CONFIG_HOME")); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "ai-memory", "config")
	}
	if h := strings.TrimSpace(getenv("HOME")); h != "" {
		return filepath.Join(h, ".config", "ai-memory", "config")
	}
	return ""
}

// LoadConfig reads the config file; a missing file is an empty Config.
// A line it cannot use is an error naming file:line, never ignored: a
// mistyped `ledger` would otherwise silently write to the wrong ledger.
func LoadConfig(getenv func(string) string) (Config, error) {
	path := ConfigPath(getenv)
	if path == "" {
		return Config{}, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read config file: %w", err)
	}
	defer f.Close()
	c := Config{Path: path}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if err := c.parseLine(sc.Text(), n); err != nil {
			return Config{}, err
		}
	}
	if err := sc.Err(); err != nil {
		return Config{}, fmt.Errorf("read config file %s: %w", path, err)
	}
	return c, nil
}

// parseLine applies one line. A `#` starts a comment at the start of a
// line or after a blank, so a `#` inside a value (a URL fragment, a
// password) is kept.
func (c *Config) parseLine(line string, n int) error {
	line = strings.TrimSpace(stripComment(line))
	if line == "" {
		return nil
	}
	key, val, ok := strings.Cut(line, "=")
	key, val = strings.TrimSpace(key), unquote(strings.TrimSpace(val))
	if !ok || key == "" {
		return c.lineError(n, "expected `key = value` (keys: %s)", strings.Join(configKeys, ", "))
	}
	switch key {
	case "ledger":
		if c.LedgerLine != 0 {
			return c.lineError(n, "ledger is already set on line %d; keep one", c.LedgerLine)
		}
		c.Ledger, c.LedgerLine = val, n
	case "offline":
		if c.OfflineLine != 0 {
			return c.lineError(n, "offline is already set on line %d; keep one", c.OfflineLine)
		}
		b, err := strconv.ParseBool(val)
		if err != nil {
			return c.lineError(n, "offline = %q is not true or false", val)
		}
		c.Offline, c.OfflineLine = b, n
	default:
		return c.lineError(n, "unknown key %q (keys: %s)", key, strings.Join(configKeys, ", "))
	}
	return nil
}

func (c *Config) lineError(n int, format string, args ...any) error {
	return fmt.Errorf("config file %s:%d: %s", c.Path, n, HidePassword(fmt.Sprintf(format, args...)))
}

func stripComment(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), "#") {
		return ""
	}
	for _, sep := range []string{" #", "\t#"} {
		if i := strings.Index(line, sep); i >= 0 {
			line = line[:i]
		}
	}
	return line
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
