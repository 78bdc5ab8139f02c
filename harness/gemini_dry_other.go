//go:build !unix

package harness

import (
	"errors"
	"time"
)

// runDryStart needs a pseudo-terminal and process groups; on other systems
// the handoff is not delivered to Gemini (the launch itself still works).
func runDryStart(exe string, argv, env []string, dir, out string, timeout time.Duration) (string, error) {
	return "", errors.New("the dry start that produces it needs a Unix pseudo-terminal")
}
