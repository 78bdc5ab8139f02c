// Package transcript reads the native session stores of coding-agent CLIs
// (Claude Code, Codex) read-only and turns them into normalised [Event]s.
//
// Every harness is one [Source]: where its store lives ([Source.StoreRoot],
// honouring the harness's own override variable), which sessions belong to a
// checkout ([Source.List], [Source.CreatedSince]), whether a session id still
// exists ([Source.Find], three answers) and how its JSONL records map to
// events ([Source.Read]). Adding a harness means one new file with a Source
// and a line parser, plus fixtures under testdata/.
//
// Reading is incremental: a [Cursor] records the byte offset after the last
// complete line and the SHA-256 of every byte before it, so a rewritten or
// truncated file is detected and re-read from the start (the ledger's
// deterministic event ids make that replay add nothing). A final line without
// a newline is still being written and is left for the next read. Records
// that cannot be imported (malformed, over 1 MiB, hidden reasoning, injected
// context, our own handoff packet read back) become [Loss] notes instead of
// errors, so one bad record never aborts an import.
//
// Nothing in this package writes to a harness store; files are opened with
// os.Open only.
package transcript
