// Package launcher runs one managed agent session: `ai-memory run`.
//
// The lifecycle of a run, in order:
//
//  1. Resolve the harness (explicit, or the bare-run choice) and its
//     executable, before anything is written.
//  2. Resolve the workstream of this repository + worktree and take its lease
//     (90 s, renewed every 30 s; a busy workstream is retried for 5 s).
//     Runs of dead launchers found on the way have their missing transcript
//     tails imported and their session-index records marked interrupted.
//  3. Decide the native session: resume the linked one (after checking it
//     still exists), adopt one chosen by the person, or start fresh; render
//     the handoff packet of history that session has not seen.
//  4. Build the launch plan (package harness, pure) and start the agent
//     under a PTY (package agentproc) with AI_MEMORY_* in its environment.
//  5. While it runs: heartbeat the lease, watch the native store and import
//     new records incrementally from the saved cursor.
//  6. After exit: let the transcript settle, import the tail, link the
//     session, record a repository checkpoint and a loss annotation, settle
//     the handoff delivery cursor, close the run, and return the agent's
//     own exit code.
//
// The import pipeline ([Import]) is shared with `ai-memory import`.
package launcher
