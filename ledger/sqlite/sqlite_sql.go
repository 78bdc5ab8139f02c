package sqlite

// All SQL text of the SQLite backend except the schema (migrations/*.sql)
// lives in this file, so a second dialect is one more file of the same shape.

const wsColumns = `id, name, repo_fingerprint, worktree_fingerprint, cwd, created_at, selected_at, updated_at`

const (
	sqlWorkstreamByID      = `SELECT ` + wsColumns + ` FROM workstreams WHERE id = ?`
	sqlCurrentWorkstream   = `SELECT ` + wsColumns + ` FROM workstreams WHERE repo_fingerprint = ? AND worktree_fingerprint = ? ORDER BY selected_at DESC, wsk DESC LIMIT 1`
	sqlCurrentWorkstreamID = `SELECT id FROM workstreams WHERE repo_fingerprint = ? AND worktree_fingerprint = ? ORDER BY selected_at DESC, wsk DESC LIMIT 1`
	sqlWorkstreamIDByName  = `SELECT id FROM workstreams WHERE repo_fingerprint = ? AND worktree_fingerprint = ? AND name = ?`
	sqlInsertWorkstream    = `INSERT INTO workstreams (id, repo_fingerprint, worktree_fingerprint, name, cwd, created_at, selected_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	// ?1 now, ?2 cwd, ?3 id, ?4/?5 scope.
	sqlMarkSelected = `UPDATE workstreams SET
  selected_at = MAX(?1, (SELECT COALESCE(MAX(selected_at), 0) + 1 FROM workstreams WHERE repo_fingerprint = ?4 AND worktree_fingerprint = ?5)),
  updated_at = ?1, cwd = ?2 WHERE id = ?3`
	sqlListWorkstreams = `SELECT w.id, w.name, w.repo_fingerprint, w.worktree_fingerprint, w.cwd, w.created_at, w.selected_at, w.updated_at, w.event_count,
  COALESCE((SELECT r.harness FROM runs r WHERE r.workstream_id = w.id ORDER BY r.started_at DESC, r.id DESC LIMIT 1), '')
FROM workstreams w WHERE w.repo_fingerprint = ? AND w.worktree_fingerprint = ? ORDER BY w.selected_at DESC, w.wsk DESC`
	sqlWorkstreamHarnesses = `SELECT harness FROM runs WHERE workstream_id = ?1 UNION SELECT harness FROM session_links WHERE workstream_id = ?1`
	sqlEstablished         = `SELECT EXISTS (SELECT 1 FROM session_links WHERE workstream_id = ?1)
  OR EXISTS (SELECT 1 FROM events e JOIN workstreams w ON w.wsk = e.wsk WHERE w.id = ?1 AND e.kind IN ('message', 'tool_call', 'tool_result', 'compaction'))`
	sqlWorkstreamKey = `SELECT wsk FROM workstreams WHERE id = ?`
	// MoveScope: the workstreams of a scope, and one moved (?1 repo, ?2
	// worktree, ?3 name, ?4 cwd or '' to keep it, ?5 id, ?6/?7 the scope
	// it must still be in).
	sqlScopeWorkstreamIDs = `SELECT id FROM workstreams WHERE repo_fingerprint = ? AND worktree_fingerprint = ? ORDER BY wsk`
	sqlWorkstreamName     = `SELECT name FROM workstreams WHERE id = ? AND repo_fingerprint = ? AND worktree_fingerprint = ?`
	sqlMoveWorkstream     = `UPDATE workstreams SET repo_fingerprint = ?1, worktree_fingerprint = ?2, name = ?3,
  cwd = CASE WHEN ?4 = '' THEN cwd ELSE ?4 END WHERE id = ?5 AND repo_fingerprint = ?6 AND worktree_fingerprint = ?7`
)

const (
	sqlActiveRunOf = `SELECT ` + runColumns + ` FROM runs WHERE workstream_id = ? AND state = 'active'`
	sqlRunByID     = `SELECT ` + runColumns + ` FROM runs WHERE id = ?`
	sqlRunsOf      = `SELECT ` + runColumns + ` FROM runs WHERE workstream_id = ? ORDER BY started_at DESC, id DESC LIMIT ?`
	sqlInsertRun   = `INSERT INTO runs (id, workstream_id, harness, state, started_at, lease_expires_at, owner_host, owner_pid, owner_start, owner_machine)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	// ?1 state, ?2 now, ?3 id. Ending a run also releases its lease.
	sqlEndRun             = `UPDATE runs SET state = ?1, ended_at = ?2, lease_expires_at = MIN(lease_expires_at, ?2) WHERE id = ?3 AND state = 'active'`
	sqlRenewLease         = `UPDATE runs SET lease_expires_at = ? WHERE id = ? AND state = 'active'`
	sqlFinishRun          = `UPDATE runs SET state = 'finished', ended_at = ?1, exit_code = ?2, lease_expires_at = MIN(lease_expires_at, ?1) WHERE id = ?3 AND state = 'active'`
	sqlSetRunSession      = `UPDATE runs SET native_session_id = ? WHERE id = ?`
	sqlSetRunSync         = `UPDATE runs SET sync_after = ?, sync_through = ? WHERE id = ?`
	sqlMarkDelivered      = `UPDATE runs SET context_delivered = 1 WHERE id = ?`
	sqlLiveRunsForSession = `SELECT ` + runColumns + ` FROM runs WHERE harness = ? AND native_session_id = ? AND state = 'active' AND lease_expires_at > ?`
)

// Links are this machine's: the machine is always the last parameter but
// the time (migrations/0005).
const (
	sqlLink        = `SELECT ` + linkColumns + ` FROM session_links WHERE workstream_id = ? AND harness = ? AND native_session_id = ? AND machine = ?`
	sqlCurrentLink = `SELECT ` + linkColumns + ` FROM session_links WHERE workstream_id = ? AND harness = ? AND machine = ? AND is_current = 1`
	// Every machine's links.
	sqlLinksOf = `SELECT ` + linkColumns + ` FROM session_links WHERE workstream_id = ? ORDER BY is_current DESC, updated_at DESC, harness, machine, native_session_id`
	// ?1 now, ?2 ws, ?3 harness, ?4 the id becoming current, ?5 machine.
	sqlDemoteLinks       = `UPDATE session_links SET is_current = 0, updated_at = ?1 WHERE workstream_id = ?2 AND harness = ?3 AND machine = ?5 AND is_current = 1 AND native_session_id <> ?4`
	sqlUpsertCurrentLink = `INSERT INTO session_links (workstream_id, harness, native_session_id, is_current, created_at, updated_at, machine)
  VALUES (?1, ?2, ?3, 1, ?4, ?4, ?5)
  ON CONFLICT (workstream_id, harness, machine, native_session_id) DO UPDATE SET is_current = 1, updated_at = excluded.updated_at`
	sqlAdvanceDelivery = `INSERT INTO session_links (workstream_id, harness, native_session_id, delivery_cursor, created_at, updated_at, machine)
  VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)
  ON CONFLICT (workstream_id, harness, machine, native_session_id) DO UPDATE SET
    delivery_cursor = MAX(delivery_cursor, excluded.delivery_cursor), updated_at = excluded.updated_at`
	sqlSetSourceCursor = `INSERT INTO session_links (workstream_id, harness, native_session_id, source_cursor, created_at, updated_at, machine)
  VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)
  ON CONFLICT (workstream_id, harness, machine, native_session_id) DO UPDATE SET
    source_cursor = excluded.source_cursor, updated_at = excluded.updated_at`
	// The Go side of migrations/0005: rows from before it are the
	// migrating machine's.
	sqlAdoptLinks = `UPDATE session_links SET machine = ? WHERE machine = ''`
	sqlAdoptRuns  = `UPDATE runs SET owner_machine = ? WHERE owner_machine = ''`
)

const (
	sqlWorkstreamCounters = `SELECT wsk, last_sequence FROM workstreams WHERE id = ?`
	// The stored id, or the fields it is derived from when it is NULL.
	// Both use the dedupe index (wsk, occurred_at, id_key): events with a
	// time within the batch's time range, or without a time, then id_key.
	sqlPresentTimedPrefix = `SELECT e.event_id, src.harness, src.native_session_id, e.source_record_id, e.block_index, e.kind, e.content
  FROM events e JOIN sources src ON src.id = e.source_id WHERE e.wsk = ? AND e.occurred_at BETWEEN ? AND ? AND e.id_key IN (`
	sqlPresentUntimedPrefix = `SELECT e.event_id, src.harness, src.native_session_id, e.source_record_id, e.block_index, e.kind, e.content
  FROM events e JOIN sources src ON src.id = e.source_id WHERE e.wsk = ? AND e.occurred_at IS NULL AND e.id_key IN (`
	sqlSourceID      = `SELECT id FROM sources WHERE harness = ? AND native_session_id = ?`
	sqlInsertSource  = `INSERT INTO sources (harness, native_session_id) VALUES (?, ?) RETURNING id`
	sqlInsertSegment = `INSERT INTO segments (wsk, path, created_at) VALUES (?, ?, ?) ON CONFLICT (path) DO NOTHING`
	sqlSegmentID     = `SELECT id FROM segments WHERE path = ?`
	// A batch's segment row is recorded under a placeholder path while the
	// segment is written (append_insert.go), then named or merged.
	sqlNameSegment      = `UPDATE segments SET path = ?1 WHERE id = ?2`
	sqlMoveBatchSegment = `UPDATE events SET segment_id = ?1 WHERE wsk = ?2 AND sequence > ?3`
	sqlDeleteSegment    = `DELETE FROM segments WHERE id = ?1`
	sqlInsertEvent      = `INSERT INTO events (wsk, sequence, id_key, event_id, source_id, source_record_id, block_index,
  kind, role, occurred_at, metadata, content, segment_id, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	// Conversation order (order.go): a source's newest event time, and the
	// first event in display order of a source in a workstream after a time.
	sqlSourceNewest   = `SELECT newest_at FROM sources WHERE id = ?`
	sqlBumpNewest     = `UPDATE sources SET newest_at = MAX(newest_at, ?) WHERE id = ?`
	sqlFirstAfterTime = `SELECT COALESCE(ord, sequence), occurred_at, sequence FROM events
  WHERE wsk = ? AND occurred_at > ? AND source_id = ? ORDER BY 1, 2, 3 LIMIT 1`
	// One pass over the events (as in migrations/0004), after a rebuild.
	sqlRecomputeNewest = `UPDATE sources SET newest_at = 0;
UPDATE sources SET newest_at = t.m
  FROM (SELECT source_id, MAX(occurred_at) AS m FROM events GROUP BY source_id) AS t
  WHERE t.source_id = sources.id AND t.m IS NOT NULL`
	// The index reads the text unpacked, through the view (migrations/0006).
	sqlIndexEventsFrom = `INSERT INTO events_fts (rowid, content, ws) SELECT rid, content, ws FROM events_text WHERE rid >= ?`
	// ?1 now, ?2 last sequence, ?3 added, ?4 wsk.
	sqlBumpWorkstream = `UPDATE workstreams SET updated_at = ?1, last_sequence = ?2, event_count = event_count + ?3 WHERE wsk = ?4`
)

const eventsFrom = ` FROM events e JOIN segments s ON s.id = e.segment_id JOIN sources src ON src.id = e.source_id `

const (
	sqlEventCount    = `SELECT event_count FROM workstreams WHERE id = ?`
	sqlEventsInRange = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = ? AND e.sequence > ? AND e.sequence <= ? ORDER BY e.sequence DESC LIMIT ?`
	sqlLatestOfKind  = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = ? AND e.kind = ? ORDER BY e.sequence DESC LIMIT 1`
	sqlNewestEvents  = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = ? ORDER BY e.sequence DESC LIMIT ?`
	// ?1 MATCH expression, ?2 candidate bound: the newest matches only.
	// FTS5 has no top-k pruning and its bm25() scans every match of each
	// term to compute IDF, which costs tens of ms for common words at 1M
	// events; candidates are ranked in Go instead (rank.go). The stored
	// content is read from the row and unpacked in Go (textScanner), not
	// through the index's view.
	sqlSearchCandidates = `SELECT f.rowid, e.content FROM events_fts f JOIN events e ON e.rid = f.rowid
  WHERE events_fts MATCH ?1 ORDER BY f.rowid DESC LIMIT ?2`
	// The same for a workstream that holds most of the ledger: the match
	// leaves out the "w<wsk>" term (it would pair every candidate with a
	// posting of a term in nearly every row) and the event row, read anyway
	// for the content, says whether the match is the workstream's. ?3 wsk.
	sqlSearchCandidatesByRow = `SELECT f.rowid, e.content FROM events_fts f JOIN events e ON e.rid = f.rowid
  WHERE events_fts MATCH ?1 AND e.wsk = ?3 ORDER BY f.rowid DESC LIMIT ?2`
	// ?1 id: the workstream's key, its events and the ledger's events.
	sqlSearchScope       = `SELECT wsk, event_count, (SELECT COALESCE(SUM(event_count), 0) FROM workstreams) FROM workstreams WHERE id = ?1`
	sqlEventsByRidPrefix = `SELECT ` + eventColumns + eventsFrom + `WHERE e.rid IN (`
	// SQLite's default page cache (2,000 KiB), restored after a search.
	sqlDefaultCacheSize = `PRAGMA cache_size = -2000`
)

const (
	sqlRebuildReset = `DELETE FROM events; DELETE FROM segments; UPDATE workstreams SET last_sequence = 0, event_count = 0`
	// 'rebuild' re-reads the external content (the view events_text) from scratch.
	sqlFTSRebuild      = `INSERT INTO events_fts (events_fts) VALUES ('rebuild')`
	sqlSegmentPaths    = `SELECT path FROM segments`
	sqlRestoreCounters = `UPDATE workstreams SET last_sequence = ?, event_count = ? WHERE wsk = ?`
)
