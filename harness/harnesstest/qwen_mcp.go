package harnesstest

// qwenMCP reads the ai-memory server from --mcp-config's inline JSON (a
// file path is not the launcher's and is ignored).
func qwenMCP(v string) []string { return inlineMCPServer(v) }
