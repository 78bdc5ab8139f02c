-- 0001: workstreams, runs (leases), native session links, events + FTS5.
-- Timestamps are integer Unix microseconds (UTC). Text ids are UUID strings.
-- Events reference their workstream through the compact integer key `wsk`
-- so that the per-event row and both unique indexes stay small.

CREATE TABLE workstreams (
  wsk                  INTEGER PRIMARY KEY,
  id                   TEXT    NOT NULL UNIQUE,
  repo_fingerprint     TEXT    NOT NULL,
  worktree_fingerprint TEXT    NOT NULL,
  name                 TEXT    NOT NULL,
  cwd                  TEXT    NOT NULL DEFAULT '',
  created_at           INTEGER NOT NULL,
  selected_at          INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  last_sequence        INTEGER NOT NULL DEFAULT 0,
  event_count          INTEGER NOT NULL DEFAULT 0,
  UNIQUE (repo_fingerprint, worktree_fingerprint, name)
);
CREATE INDEX workstreams_scope_selected
  ON workstreams (repo_fingerprint, worktree_fingerprint, selected_at DESC);

CREATE TABLE runs (
  id                TEXT    PRIMARY KEY,
  workstream_id     TEXT    NOT NULL REFERENCES workstreams (id) ON DELETE CASCADE,
  harness           TEXT    NOT NULL,
  native_session_id TEXT    NOT NULL DEFAULT '',
  state             TEXT    NOT NULL CHECK (state IN ('active', 'finished', 'expired', 'interrupted')),
  exit_code         INTEGER,
  started_at        INTEGER NOT NULL,
  ended_at          INTEGER,
  lease_expires_at  INTEGER NOT NULL,
  owner_host        TEXT    NOT NULL,
  owner_pid         INTEGER NOT NULL,
  owner_start       TEXT    NOT NULL DEFAULT '',
  sync_after        INTEGER NOT NULL DEFAULT 0,
  sync_through      INTEGER NOT NULL DEFAULT 0,
  context_delivered INTEGER NOT NULL DEFAULT 0
);
-- At most one active run (lease holder) per workstream, enforced by SQLite.
CREATE UNIQUE INDEX runs_one_active ON runs (workstream_id) WHERE state = 'active';
CREATE INDEX runs_workstream_started ON runs (workstream_id, started_at DESC);
CREATE INDEX runs_active_session ON runs (harness, native_session_id) WHERE state = 'active';

CREATE TABLE session_links (
  workstream_id     TEXT    NOT NULL REFERENCES workstreams (id) ON DELETE CASCADE,
  harness           TEXT    NOT NULL,
  native_session_id TEXT    NOT NULL,
  is_current        INTEGER NOT NULL DEFAULT 0,
  source_cursor     TEXT    NOT NULL DEFAULT '',
  delivery_cursor   INTEGER NOT NULL DEFAULT 0,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  PRIMARY KEY (workstream_id, harness, native_session_id)
) WITHOUT ROWID;
-- At most one current native session per (workstream, harness).
CREATE UNIQUE INDEX session_links_current
  ON session_links (workstream_id, harness) WHERE is_current = 1;

CREATE TABLE segments (
  id   INTEGER PRIMARY KEY,
  wsk  INTEGER NOT NULL REFERENCES workstreams (wsk) ON DELETE CASCADE,
  path TEXT    NOT NULL UNIQUE
);

CREATE TABLE events (
  rid               INTEGER PRIMARY KEY,
  wsk               INTEGER NOT NULL REFERENCES workstreams (wsk) ON DELETE CASCADE,
  sequence          INTEGER NOT NULL,
  event_id          BLOB    NOT NULL,
  -- First 8 bytes of event_id: a compact key for the dedupe index (the
  -- lookup then compares the full event_id).
  id_key            INTEGER NOT NULL,
  harness           TEXT    NOT NULL,
  native_session_id TEXT    NOT NULL,
  source_record_id  TEXT    NOT NULL,
  block_index       INTEGER NOT NULL,
  kind              TEXT    NOT NULL CHECK (kind IN ('message', 'tool_call', 'tool_result', 'compaction', 'checkpoint', 'annotation')),
  role              TEXT    NOT NULL,
  occurred_at       INTEGER,
  metadata          TEXT,
  content           TEXT    NOT NULL,
  segment_id        INTEGER NOT NULL REFERENCES segments (id),
  created_at        INTEGER NOT NULL,
  -- The FTS column that scopes a match to one workstream; computed, not stored.
  ws                TEXT GENERATED ALWAYS AS ('w' || wsk) VIRTUAL,
  UNIQUE (wsk, sequence)
);
CREATE INDEX events_id_key ON events (wsk, id_key);

-- External-content FTS5 index, fed set-based per batch by Append (no triggers).
-- Column ws holds one token per row ("w<wsk>") so a search is scoped to its
-- workstream inside the FTS index instead of by filtering rows afterwards.
CREATE VIRTUAL TABLE events_fts USING fts5 (
  content, ws,
  content = 'events', content_rowid = 'rid',
  tokenize = 'unicode61 remove_diacritics 2',
  -- No per-row size table: nothing calls bm25() (ranking is done in Go over
  -- a bounded candidate set), so it would only cost ~10 bytes per event.
  columnsize = 0
);
