// Package harness turns the user's native argv for a coding-agent CLI into the
// final launch plan: which session to create or resume, which dangerous-mode
// flag to add, how to hand the packet of unseen history to the model, and
// which files and environment the launcher must prepare first.
//
// Plans are built by pure functions of a [Request] (the only I/O is reading a
// settings file the user named, read-only), so every rule is a table row in
// the tests. Each harness lives in its own file behind the small [Harness]
// interface and is listed explicitly in the registry (see [All]).
//
// The package also holds the Claude SessionStart hook body
// ([ClaudeSessionStartHook]), because it is the other half of the Claude
// delivery mechanism planned here, and [Acknowledged], which the launcher uses
// to learn whether the hook delivered the packet to a session.
package harness
