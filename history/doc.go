// Package history is the read model of a workstream: it compiles ledger data
// into sessions, a paginated timeline, per-session summaries and highlighted
// search hits. `ai-memory ui` and `ai-memory log` both render what this
// package returns, so the web page and the terminal never disagree.
//
// Everything here is deterministic and derived only from stored rows: no
// model, no clock except the one the caller passes for a run that is still
// active. A "session" is one launch (a ledger run): the user's unit of "what
// that agent did then". Text meant for display goes through [Clean] so that
// terminal escape sequences in transcripts are shown, not executed.
package history
