package harness

import "fmt"

// opencodeCheck reports an OPENCODE_CONFIG_CONTENT that the handoff cannot
// be merged into (not a JSON object, or instructions not a list of
// strings): runs then start without the packet, with a notice.
func opencodeCheck(e CheckEnv) []Finding {
	user := e.getenv(EnvOpenCodeConfigContent)
	if _, err := OpenCodeConfigContent(user, "handoff.md"); err != nil {
		return []Finding{{LevelFail, "delivery", fmt.Sprintf("runs start without the handoff: %v", err)}}
	}
	detail := "instructions file by " + EnvOpenCodeConfigContent
	if user != "" {
		detail += ", merged with yours"
	}
	return []Finding{{LevelOK, "delivery", detail}}
}
