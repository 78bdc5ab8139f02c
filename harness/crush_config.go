package harness

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const (
	// EnvCrushGlobalConfig moves Crush's global config directory (its
	// crush.json and crushrc).
	EnvCrushGlobalConfig = "CRUSH_GLOBAL_CONFIG"
	crushPacketFile      = "crush-handoff.md"
	crushConfigJSON      = "crush.json"
	crushRC              = "crushrc"
)

// deliver makes Decision.RunDir this run's global config directory:
//
//   - crush.json: a byte copy of the user's global crush.json, when there
//     is one (Crush reads <CRUSH_GLOBAL_CONFIG>/crush.json instead of it);
//   - crushrc: runs the user's global crushrc from its own directory, then
//     lists Crush's two default global context files (Crush only uses its
//     defaults while the list is empty) and the packet file, and declares
//     the MCP server (crush_mcp.go);
//   - crush-handoff.md: the packet.
//
// Crush merges list options across config files by concatenation, so a
// context list the user set elsewhere is kept. It reads context files
// into the system prompt at start, fresh and resumed, so an observed
// session received the packet. A user config that cannot be read is left
// alone: the session starts without the handoff or the server.
func (c crush) deliver(p *Plan, d Decision) {
	userDir := crushUserConfigDir(d.Getenv)
	files, err := c.userConfig(userDir)
	if err != nil {
		p.Notices = append(p.Notices, skipNotice(err.Error()))
		return
	}
	var rc strings.Builder
	_, hasRC := files[crushRC]
	crushRCHeader(&rc, userDir, hasRC)
	if d.Packet != "" {
		packet := filepath.Join(d.RunDir, crushPacketFile)
		p.Files = append(p.Files, File{Path: packet, Content: d.Packet})
		crushRCContext(&rc, userDir, packet)
		p.Confirm = ObservedWithPacket{}
	}
	if d.MCP != nil {
		crushRCMCP(&rc, *d.MCP)
	}
	if cfg, ok := files[crushConfigJSON]; ok {
		p.Files = append(p.Files, File{Path: filepath.Join(d.RunDir, crushConfigJSON), Content: cfg})
	}
	p.Files = append(p.Files, File{Path: filepath.Join(d.RunDir, crushRC), Content: rc.String()})
	p.Env = map[string]string{EnvCrushGlobalConfig: d.RunDir}
}

// crushUserConfigDir is the directory Crush would read its global config
// from without us: $CRUSH_GLOBAL_CONFIG, $XDG_CONFIG_HOME/crush or
// ~/.config/crush (internal/config GlobalConfig, internal/home Config).
func crushUserConfigDir(getenv func(string) string) string {
	get := func(k string) string {
		if getenv == nil {
			return ""
		}
		return strings.TrimSpace(getenv(k))
	}
	if v := get(EnvCrushGlobalConfig); v != "" {
		return v
	}
	if v := get("XDG_CONFIG_HOME"); v != "" {
		return filepath.Join(v, "crush")
	}
	home := get("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".config", "crush")
}

// userConfig reads the user's global crush.json and crushrc (missing ones
// are left out of the map).
func (c crush) userConfig(dir string) (map[string]string, error) {
	read := c.readFile
	if read == nil {
		read = os.ReadFile
	}
	out := map[string]string{}
	for _, name := range []string{crushConfigJSON, crushRC} {
		data, err := read(filepath.Join(dir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, errors.New("cannot read the Crush config " + filepath.Join(dir, name) + ": " + err.Error())
		default:
			out[name] = string(data)
		}
	}
	return out, nil
}

// crushRCHeader starts the per-run crushrc (bash syntax, run by Crush's
// own interpreter with the config builtins): it runs the user's own first.
func crushRCHeader(b *strings.Builder, userDir string, hasRC bool) {
	b.WriteString("# Written by ai-memory for one run of Crush (CRUSH_GLOBAL_CONFIG); removed when it exits.\n")
	if hasRC {
		b.WriteString("cd " + shellQuote([]string{userDir}) + " && source ./crushrc\n")
	}
}

// crushRCContext lists the default global context files and the packet.
func crushRCContext(b *strings.Builder, userDir, packet string) {
	for _, p := range []string{filepath.Join(userDir, "CRUSH.md"), filepath.Join(filepath.Dir(userDir), "AGENTS.md"), packet} {
		b.WriteString("option global-context-path " + shellQuote([]string{p}) + "\n")
	}
}

// envCrushClientServer switches Crush to its client-server mode.
const envCrushClientServer = "CRUSH_CLIENT_SERVER"

// crushClientServerNotice replaces the handoff in client-server mode.
const crushClientServerNotice = "Crush runs in client-server mode (CRUSH_CLIENT_SERVER is set), where a shared background server loads the config, so no handoff packet or MCP server was given to this run; the workstream's history is available through `ai-memory workstream-search` inside the agent (unset CRUSH_CLIENT_SERVER for this run to get the packet)"

// crushClientServer reports whether the agent will run in Crush's
// client-server mode (strconv.ParseBool of CRUSH_CLIENT_SERVER, as Crush
// reads it). Then the TUI and `crush run` are clients of a detached
// `crush server` (one per user, started by the first client with that
// client's environment, and outliving it) which loads each workspace's
// config and writes the same <data dir>/crush.db, so the store and its
// import do not change. A per-run CRUSH_GLOBAL_CONFIG would not reach a
// server already running, and one started by this run would keep using
// the run's directory after it is removed: so it is never set then.
// Facts: charmbracelet/crush internal/cmd/root.go (useClientServer,
// connectToServer, startDetachedServer) and internal/backend/backend.go
// (CreateWorkspace: config.Init in the server process; a second client at
// the same path gets the first one's workspace).
func crushClientServer(getenv func(string) string) bool {
	if getenv == nil {
		return false
	}
	v, err := strconv.ParseBool(getenv(envCrushClientServer))
	return err == nil && v
}

// crushCheck warns, in doctor, when the environment puts Crush in
// client-server mode, where runs get no handoff packet (crushClientServer).
func crushCheck(e CheckEnv) []Finding {
	if !crushClientServer(e.Getenv) {
		return nil
	}
	return []Finding{{Level: LevelWarn, Check: "delivery", Detail: crushClientServerNotice}}
}
