// Package jsonl reads JSONL transcripts line by line for every JSONL source
// of package transcript: complete lines only (a final line without '\n' is
// still being written), lines over [MaxRecord] skipped in constant memory,
// and every consumed byte hashed so an offset and its prefix hash always
// describe the same bytes.
package jsonl
