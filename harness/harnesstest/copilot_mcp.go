package harnesstest

// copilotMCP reads the ai-memory server from the --additional-mcp-config
// values ({"mcpServers": {...}} inline; the launcher passes no @file), the
// last one naming it winning, as later values augment earlier ones.
func copilotMCP(values []string) []string {
	var out []string
	for _, v := range values {
		if argv := inlineMCPServer(v); argv != nil {
			out = argv
		}
	}
	return out
}
