-- 0003: the dedupe index is ordered by occurrence time, so a growing
-- workstream appends at the index's right edge.
--
-- The old index, (wsk, id_key), keyed on a hash: in one big workstream every
-- event of a batch landed on a different leaf page, so a batch of 400
-- rewrote ~400 pages of 16 KiB (about 13 KiB of WAL per event, growing with
-- the workstream until every batch touched every leaf). Events arrive
-- roughly in time order, so (wsk, occurred_at, id_key) puts a batch's keys
-- on one or two leaf pages. Dedupe looks an event up by its workstream,
-- occurrence time and id key (a replay comes from the same source record,
-- hence the same time) and then compares the full id, as before.
DROP INDEX events_id_key;
CREATE INDEX events_dedupe ON events (wsk, occurred_at, id_key);
