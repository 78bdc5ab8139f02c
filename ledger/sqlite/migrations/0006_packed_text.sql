-- 0006: event text stored compressed (see text.go). With the zstd segments
-- the data home was 2.4x the text it stores; the events table held that
-- text uncompressed, once, plus ~90 B per event.
--
-- * A content value of at least 128 bytes that S2 (klauspost/compress/s2)
--   shrinks by a tenth or more is stored as a BLOB holding one S2 block;
--   any other stays TEXT.
--   The storage class tells them apart; every reader unpacks (in Go, or with
--   the SQL function ledger_text the ledger registers on its connections).
-- * The FTS5 index reads its external content through the view events_text,
--   which unpacks. The index is dropped and rebuilt once here: its tokens
--   are the same, but an FTS5 table's content option cannot be changed in
--   place.
-- * Rows stored before this migration are packed here. Packed in place,
--   they leave their pages emptier without freeing any, so Open runs VACUUM
--   after this migration whatever the free-page count (packedTextSchema).
--
-- Event ids are hashed from the text, never from the stored value, so every
-- id (stored or derived) is unchanged.
DROP TABLE events_fts;
UPDATE events SET content = ledger_pack(content) WHERE typeof(content) = 'text';
CREATE VIEW events_text AS SELECT rid, ledger_text(content) AS content, ws FROM events;
CREATE VIRTUAL TABLE events_fts USING fts5 (
  content, ws,
  content = 'events_text', content_rowid = 'rid',
  tokenize = 'unicode61 remove_diacritics 2',
  columnsize = 0
);
INSERT INTO events_fts (events_fts, rank) VALUES ('automerge', 8);
INSERT INTO events_fts (events_fts) VALUES ('rebuild');
