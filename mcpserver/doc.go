// Package mcpserver is `ai-memory mcp`: a Model Context Protocol server
// (stdio) that gives an agent the workstream's memory as native tools —
// search, the session list, bounded pages of events and the packet the
// current launch was handed.
//
// Why a server and not only the shell command: an agent calls a tool when
// it needs something; it rarely thinks of running workstream-search
// through its shell. The server is the same binary as the launcher, so it
// always reads the ledger's own schema.
//
// Scope is fixed when the server starts (Config.WorkstreamID, resolved by
// the command from AI_MEMORY_WORKSTREAM_ID or the checkout's selected
// workstream) and no tool takes a workstream argument, so another
// repository's history cannot be named. Everything is read-only and comes
// from the ledger, whose content is already redacted. The read model is
// package history (the one `ai-memory log` and `ai-memory ui` use).
package mcpserver
