-- 0004: conversation order beside arrival order (docs/ledger.md, "Order").
--
-- `sequence` stays the order in which events reached the ledger: the
-- handoff's "unseen since" cursor and every page query count on it never
-- changing. Some harnesses write a record to their store after records it
-- precedes (Claude Code writes a prompt after the tool call it caused), so
-- arrival is not always conversation order. `ord`, when set, is the
-- sequence of the stored event the late event must be shown before; views
-- sort by (COALESCE(ord, sequence), occurred_at, sequence). NULL costs no
-- space, and only late events set it. Segments carry it, so a rebuild
-- restores it; events stored before this migration keep arrival order.
ALTER TABLE events ADD COLUMN ord INTEGER;

-- The newest occurrence time of each source's events: an arriving event
-- older than that is late and is placed; newer ones (nearly all) cost no
-- lookup. A session imported into two workstreams shares one value, which
-- only makes the check conservative (the placement lookup is per
-- workstream).
ALTER TABLE sources ADD COLUMN newest_at INTEGER NOT NULL DEFAULT 0;
UPDATE sources SET newest_at = t.m
  FROM (SELECT source_id, MAX(occurred_at) AS m FROM events GROUP BY source_id) AS t
  WHERE t.source_id = sources.id AND t.m IS NOT NULL;
