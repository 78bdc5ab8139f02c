// Package sessionindex keeps the per-project, human-facing session index
// <project root>/.agent-sessions/session-history.json in the format of the
// track-agent-sessions skill, so that agents, people and other tools that
// read or write that file keep working alongside ai-memory.
//
// The index is a bounded lifecycle list (who started when, on which runtime,
// with which native session id, and whether it ended normally or was
// interrupted). It never holds or touches transcripts.
//
// Every write happens under an flock(2) on the sidecar file
// session-history.json.lock, re-reads the index under that lock, writes a
// temp file in the same directory, fsyncs it, checks that the index did not
// change since it was read (a writer that ignores the lock may have replaced
// it) and renames the temp file into place. A file that cannot be parsed is
// moved aside, never overwritten. See docs/session-index.md.
package sessionindex
