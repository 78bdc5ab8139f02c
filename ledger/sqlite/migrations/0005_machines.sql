-- 0005: machines (docs/workstream-identity.md, "Machines").
--
-- A native session lives in one machine's harness store: a Claude session
-- of the laptop cannot be resumed on the desktop. Links therefore belong to
-- a machine, and "current" is per (workstream, harness, machine), so each
-- machine returning to a harness resumes its own session while the
-- workstream's history is shared. Runs record their owner's machine: a
-- lease owner's process is probed only from its own machine.
--
-- Rows written before this migration get machine '' here and, in the same
-- transaction, the id of the machine applying it (the Go side of the
-- migration, adoptMachine): a local ledger is upgraded by the machine that
-- made it.
CREATE TABLE session_links_v5 (
  workstream_id     TEXT    NOT NULL REFERENCES workstreams (id) ON DELETE CASCADE,
  harness           TEXT    NOT NULL,
  machine           TEXT    NOT NULL,
  native_session_id TEXT    NOT NULL,
  is_current        INTEGER NOT NULL DEFAULT 0,
  source_cursor     TEXT    NOT NULL DEFAULT '',
  delivery_cursor   INTEGER NOT NULL DEFAULT 0,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  PRIMARY KEY (workstream_id, harness, machine, native_session_id)
) WITHOUT ROWID;
INSERT INTO session_links_v5 (workstream_id, harness, machine, native_session_id, is_current, source_cursor,
                              delivery_cursor, created_at, updated_at)
  SELECT workstream_id, harness, '', native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at
  FROM session_links;
DROP TABLE session_links;
ALTER TABLE session_links_v5 RENAME TO session_links;
-- At most one current native session per (workstream, harness, machine).
CREATE UNIQUE INDEX session_links_current
  ON session_links (workstream_id, harness, machine) WHERE is_current = 1;

ALTER TABLE runs ADD COLUMN owner_machine TEXT NOT NULL DEFAULT '';
