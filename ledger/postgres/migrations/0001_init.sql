-- The PostgreSQL ledger, schema 1. Times are Unix microseconds (BIGINT), as
-- in the SQLite ledger and the state snapshots, and always the server's.

CREATE TABLE workstreams (
  wsk                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id                   TEXT   NOT NULL UNIQUE,
  repo_fingerprint     TEXT   NOT NULL,
  worktree_fingerprint TEXT   NOT NULL,
  name                 TEXT   NOT NULL,
  cwd                  TEXT   NOT NULL DEFAULT '',
  created_at           BIGINT NOT NULL,
  selected_at          BIGINT NOT NULL,
  updated_at           BIGINT NOT NULL,
  last_sequence        BIGINT NOT NULL DEFAULT 0,
  event_count          BIGINT NOT NULL DEFAULT 0,
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
  exit_code         BIGINT,
  started_at        BIGINT  NOT NULL,
  ended_at          BIGINT,
  lease_expires_at  BIGINT  NOT NULL,
  owner_host        TEXT    NOT NULL,
  owner_pid         BIGINT  NOT NULL,
  owner_start       TEXT    NOT NULL DEFAULT '',
  -- The owner's machine id: its process is probed only from that machine.
  owner_machine     TEXT    NOT NULL DEFAULT '',
  sync_after        BIGINT  NOT NULL DEFAULT 0,
  sync_through      BIGINT  NOT NULL DEFAULT 0,
  context_delivered BOOLEAN NOT NULL DEFAULT false
);
-- Exactly one writer per workstream, whatever the code above it does.
CREATE UNIQUE INDEX runs_one_active ON runs (workstream_id) WHERE state = 'active';
CREATE INDEX runs_workstream_started ON runs (workstream_id, started_at DESC);
CREATE INDEX runs_active_session ON runs (harness, native_session_id) WHERE state = 'active';

-- Links are per machine: a native session lives in one machine's harness
-- store (docs/workstream-identity.md, "Machines").
CREATE TABLE session_links (
  workstream_id     TEXT    NOT NULL REFERENCES workstreams (id) ON DELETE CASCADE,
  harness           TEXT    NOT NULL,
  machine           TEXT    NOT NULL,
  native_session_id TEXT    NOT NULL,
  is_current        BOOLEAN NOT NULL DEFAULT false,
  source_cursor     TEXT    NOT NULL DEFAULT '',
  delivery_cursor   BIGINT  NOT NULL DEFAULT 0,
  created_at        BIGINT  NOT NULL,
  updated_at        BIGINT  NOT NULL,
  PRIMARY KEY (workstream_id, harness, machine, native_session_id)
);
CREATE UNIQUE INDEX session_links_current
  ON session_links (workstream_id, harness, machine) WHERE is_current;

CREATE TABLE segments (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wsk        BIGINT NOT NULL REFERENCES workstreams (wsk) ON DELETE CASCADE,
  path       TEXT   NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);

CREATE TABLE sources (
  id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  harness           TEXT   NOT NULL,
  native_session_id TEXT   NOT NULL,
  newest_at         BIGINT NOT NULL DEFAULT 0,
  UNIQUE (harness, native_session_id)
);

-- Events carry no foreign keys: each would cost a lookup per inserted row,
-- and the one transaction that inserts an event also inserts (or finds)
-- its workstream, segment and source rows.
CREATE TABLE events (
  wsk              BIGINT  NOT NULL,
  sequence         BIGINT  NOT NULL,
  event_id         BYTEA   NOT NULL,
  source_id        BIGINT  NOT NULL,
  source_record_id TEXT    NOT NULL,
  block_index      INTEGER NOT NULL,
  kind             TEXT    NOT NULL CHECK (kind IN ('message', 'tool_call', 'tool_result', 'compaction', 'checkpoint', 'annotation')),
  role             TEXT    NOT NULL,
  occurred_at      BIGINT,
  metadata         TEXT,
  content          TEXT    NOT NULL,
  segment_id       BIGINT  NOT NULL,
  ord              BIGINT,
  -- The search index's document, built in Go by ledger/rank's tokenizer
  -- (the rules of SQLite's unicode61), never by a text search config.
  tsv              TSVECTOR NOT NULL,
  PRIMARY KEY (wsk, sequence)
);
CREATE UNIQUE INDEX events_event_id ON events (wsk, event_id);
CREATE INDEX events_source_time ON events (wsk, source_id, occurred_at);
CREATE INDEX events_tsv ON events USING gin (tsv);
