package harnesstest

import (
	"os"
	"path/filepath"
	"strings"
)

// crushMCP reads the ai-memory server from the global crushrc's
// `mcp add ai-memory --type stdio --command CMD --args ARG ...` line
// (following `cd DIR && source FILE`; a later definition wins, as Crush's
// builder updates the same entry). The global crush.json's own mcp section
// is not the launcher's and is not read.
func crushMCP(getenv func(string) string) []string {
	return crushRCServer(filepath.Join(crushGlobalDir(getenv), "crushrc"), 0)
}

func crushRCServer(path string, depth int) []string {
	data, err := os.ReadFile(path)
	if err != nil || depth > 4 {
		return nil
	}
	var argv []string
	for _, line := range strings.Split(string(data), "\n") {
		words := shellWords(line)
		switch {
		case len(words) >= 3 && words[0] == "mcp" && words[1] == "add" && words[2] == mcpServerName:
			argv = crushMCPAddArgv(words[3:])
		case len(words) == 5 && words[0] == "cd" && words[2] == "&&" && words[3] == "source":
			if more := crushRCServer(filepath.Join(words[1], words[4]), depth+1); more != nil {
				argv = more
			}
		}
	}
	return argv
}

// crushMCPAddArgv reads --command and the --args values of `mcp add`
// (--env takes a key and a value; other flags one value).
func crushMCPAddArgv(flags []string) []string {
	var cmd string
	var args []string
	for i := 0; i+1 < len(flags); i += 2 {
		switch flags[i] {
		case "--command":
			cmd = flags[i+1]
		case "--args":
			args = append(args, flags[i+1])
		case "--env", "--header":
			i++
		}
	}
	return stdioServer{Command: cmd, Args: args}.argv()
}
