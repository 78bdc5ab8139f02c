package postgres

// All SQL text of the PostgreSQL backend except the schema (migrations/).

const wsColumns = `id, name, repo_fingerprint, worktree_fingerprint, cwd, created_at, selected_at, updated_at`

const (
	sqlWorkstreamByID      = `SELECT ` + wsColumns + ` FROM workstreams WHERE id = $1`
	sqlCurrentWorkstream   = `SELECT ` + wsColumns + ` FROM workstreams WHERE repo_fingerprint = $1 AND worktree_fingerprint = $2 ORDER BY selected_at DESC, wsk DESC LIMIT 1`
	sqlCurrentWorkstreamID = `SELECT id FROM workstreams WHERE repo_fingerprint = $1 AND worktree_fingerprint = $2 ORDER BY selected_at DESC, wsk DESC LIMIT 1`
	sqlWorkstreamIDByName  = `SELECT id FROM workstreams WHERE repo_fingerprint = $1 AND worktree_fingerprint = $2 AND name = $3`
	sqlInsertWorkstream    = `INSERT INTO workstreams (id, repo_fingerprint, worktree_fingerprint, name, cwd, created_at, selected_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`
	// Selecting in a scope is serialised by a transaction-scoped advisory
	// lock on the scope, so two launchers never both create "default".
	sqlLockScope = `SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(1) || $2, 0))`
	// $1 now, $2 cwd, $3 id, $4/$5 scope.
	sqlMarkSelected = `UPDATE workstreams SET
  selected_at = GREATEST($1, (SELECT COALESCE(MAX(selected_at), 0) + 1 FROM workstreams WHERE repo_fingerprint = $4 AND worktree_fingerprint = $5)),
  updated_at = $1, cwd = $2 WHERE id = $3`
	sqlListWorkstreams = `SELECT w.id, w.name, w.repo_fingerprint, w.worktree_fingerprint, w.cwd, w.created_at, w.selected_at, w.updated_at, w.event_count,
  COALESCE((SELECT r.harness FROM runs r WHERE r.workstream_id = w.id ORDER BY r.started_at DESC, r.id DESC LIMIT 1), '')
FROM workstreams w WHERE w.repo_fingerprint = $1 AND w.worktree_fingerprint = $2 ORDER BY w.selected_at DESC, w.wsk DESC`
	sqlAllWorkstreams = `SELECT w.id, w.name, w.repo_fingerprint, w.worktree_fingerprint, w.cwd, w.created_at, w.selected_at, w.updated_at, w.event_count,
  COALESCE((SELECT r.harness FROM runs r WHERE r.workstream_id = w.id ORDER BY r.started_at DESC, r.id DESC LIMIT 1), '')
FROM workstreams w ORDER BY w.updated_at DESC, w.wsk DESC`
	sqlWorkstreamHarnesses = `SELECT harness FROM runs WHERE workstream_id = $1 UNION SELECT harness FROM session_links WHERE workstream_id = $1`
	sqlEstablished         = `SELECT EXISTS (SELECT 1 FROM session_links WHERE workstream_id = $1)
  OR EXISTS (SELECT 1 FROM events e JOIN workstreams w ON w.wsk = e.wsk WHERE w.id = $1 AND e.kind IN ('message', 'tool_call', 'tool_result', 'compaction'))`
	sqlWorkstreamKey = `SELECT wsk FROM workstreams WHERE id = $1`
	// Every write transaction about a workstream takes its row lock first:
	// that is what serialises its writers (sequences, leases, snapshots).
	sqlLockWorkstream     = `SELECT wsk, last_sequence FROM workstreams WHERE id = $1 FOR UPDATE`
	sqlWorkstreamCounters = `SELECT wsk, last_sequence FROM workstreams WHERE id = $1`
)

const runColumns = `id, workstream_id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered`

const (
	sqlActiveRunOf = `SELECT ` + runColumns + ` FROM runs WHERE workstream_id = $1 AND state = 'active'`
	sqlRunByID     = `SELECT ` + runColumns + ` FROM runs WHERE id = $1`
	sqlRunsOf      = `SELECT ` + runColumns + ` FROM runs WHERE workstream_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`
	sqlInsertRun   = `INSERT INTO runs (id, workstream_id, harness, state, started_at, lease_expires_at, owner_host, owner_pid, owner_start, owner_machine)
  VALUES ($1, $2, $3, 'active', $4, $5, $6, $7, $8, $9)`
	// $1 state, $2 now, $3 id. Ending a run also releases its lease.
	sqlEndRun             = `UPDATE runs SET state = $1, ended_at = $2, lease_expires_at = LEAST(lease_expires_at, $2) WHERE id = $3 AND state = 'active'`
	sqlRenewLease         = `UPDATE runs SET lease_expires_at = $2 WHERE id = $1 AND state = 'active'`
	sqlFinishRun          = `UPDATE runs SET state = 'finished', ended_at = $1, exit_code = $2, lease_expires_at = LEAST(lease_expires_at, $1) WHERE id = $3 AND state = 'active'`
	sqlSetRunSession      = `UPDATE runs SET native_session_id = $1 WHERE id = $2`
	sqlSetRunSync         = `UPDATE runs SET sync_after = $1, sync_through = $2 WHERE id = $3`
	sqlMarkDelivered      = `UPDATE runs SET context_delivered = true WHERE id = $1`
	sqlRunWorkstream      = `SELECT workstream_id FROM runs WHERE id = $1`
	sqlLiveRunsForSession = `SELECT ` + runColumns + ` FROM runs WHERE harness = $1 AND native_session_id = $2 AND state = 'active' AND lease_expires_at > $3`
	sqlRunsOldestFirst    = `SELECT ` + runColumns + ` FROM runs WHERE workstream_id = $1 ORDER BY started_at, id`
	sqlLiveLeases         = `SELECT r.harness, r.workstream_id, r.owner_host, r.owner_pid, r.owner_start, r.owner_machine, r.lease_expires_at
  FROM runs r WHERE r.state = 'active' AND r.lease_expires_at > $1 ORDER BY r.started_at`
)

const linkColumns = `workstream_id, harness, machine, native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at`

// Links are this machine's (the machine a parameter of every statement)
// except sqlLinksOf, which lists every machine's.
const (
	sqlLink        = `SELECT ` + linkColumns + ` FROM session_links WHERE workstream_id = $1 AND harness = $2 AND native_session_id = $3 AND machine = $4`
	sqlCurrentLink = `SELECT ` + linkColumns + ` FROM session_links WHERE workstream_id = $1 AND harness = $2 AND machine = $3 AND is_current`
	sqlLinksOf     = `SELECT ` + linkColumns + ` FROM session_links WHERE workstream_id = $1 ORDER BY is_current DESC, updated_at DESC, harness, machine, native_session_id`
	// $1 now, $2 ws, $3 harness, $4 the id becoming current, $5 machine.
	sqlDemoteLinks       = `UPDATE session_links SET is_current = false, updated_at = $1 WHERE workstream_id = $2 AND harness = $3 AND machine = $5 AND is_current AND native_session_id <> $4`
	sqlUpsertCurrentLink = `INSERT INTO session_links (workstream_id, harness, native_session_id, is_current, created_at, updated_at, machine)
  VALUES ($1, $2, $3, true, $4, $4, $5)
  ON CONFLICT (workstream_id, harness, machine, native_session_id) DO UPDATE SET is_current = true, updated_at = excluded.updated_at`
	sqlAdvanceDelivery = `INSERT INTO session_links (workstream_id, harness, native_session_id, delivery_cursor, created_at, updated_at, machine)
  VALUES ($1, $2, $3, $4, $5, $5, $6)
  ON CONFLICT (workstream_id, harness, machine, native_session_id) DO UPDATE SET
    delivery_cursor = GREATEST(session_links.delivery_cursor, excluded.delivery_cursor), updated_at = excluded.updated_at`
	sqlSetSourceCursor = `INSERT INTO session_links (workstream_id, harness, native_session_id, source_cursor, created_at, updated_at, machine)
  VALUES ($1, $2, $3, $4, $5, $5, $6)
  ON CONFLICT (workstream_id, harness, machine, native_session_id) DO UPDATE SET
    source_cursor = excluded.source_cursor, updated_at = excluded.updated_at`
)

const (
	sqlPresent          = `SELECT event_id FROM events WHERE wsk = $1 AND event_id = ANY($2::bytea[])`
	sqlSourceID         = `SELECT id, newest_at FROM sources WHERE harness = $1 AND native_session_id = $2`
	sqlInsertSource     = `INSERT INTO sources (harness, native_session_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`
	sqlInsertSegment    = `INSERT INTO segments (wsk, path, created_at) VALUES ($1, $2, $3) ON CONFLICT (path) DO NOTHING`
	sqlSegmentID        = `SELECT id FROM segments WHERE path = $1`
	sqlNameSegment      = `UPDATE segments SET path = $1 WHERE id = $2`
	sqlMoveBatchSegment = `UPDATE events SET segment_id = $1 WHERE wsk = $2 AND sequence > $3`
	sqlDeleteSegment    = `DELETE FROM segments WHERE id = $1`
	// One statement per batch: each argument is an array with one element
	// per event, and the tsvector arrives built in Go, in binary form.
	sqlInsertEvents = `INSERT INTO events (wsk, sequence, event_id, source_id, source_record_id, block_index,
  kind, role, occurred_at, metadata, content, segment_id, ord, tsv)
SELECT $1, t.seq, t.id, t.src, t.rec, t.blk, t.kind, t.role, t.occ, t.meta, t.content, t.seg, t.ord, t.tsv
FROM unnest($2::bigint[], $3::bytea[], $4::bigint[], $5::text[], $6::int[], $7::text[], $8::text[], $9::bigint[],
  $10::text[], $11::text[], $12::bigint[], $13::bigint[], $14::tsvector[])
  AS t(seq, id, src, rec, blk, kind, role, occ, meta, content, seg, ord, tsv)`
	sqlBumpNewest     = `UPDATE sources SET newest_at = GREATEST(newest_at, $1) WHERE id = $2`
	sqlFirstAfterTime = `SELECT COALESCE(ord, sequence) AS o, occurred_at, sequence FROM events
  WHERE wsk = $1 AND source_id = $3 AND occurred_at > $2 ORDER BY 1, 2, 3 LIMIT 1`
	// $1 now, $2 last sequence, $3 added, $4 wsk.
	sqlBumpWorkstream = `UPDATE workstreams SET updated_at = $1, last_sequence = $2, event_count = event_count + $3 WHERE wsk = $4`
)

const eventColumns = `e.sequence, COALESCE(e.ord, e.sequence), e.event_id, src.harness, src.native_session_id, e.source_record_id, e.block_index,
  e.kind, e.role, e.occurred_at, e.metadata, e.content, s.path, s.created_at`

const eventsFrom = ` FROM events e JOIN segments s ON s.id = e.segment_id JOIN sources src ON src.id = e.source_id `

const (
	sqlEventCount    = `SELECT event_count FROM workstreams WHERE id = $1`
	sqlEventsInRange = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = $1 AND e.sequence > $2 AND e.sequence <= $3 ORDER BY e.sequence DESC LIMIT $4`
	sqlLatestOfKind  = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = $1 AND e.kind = $2 ORDER BY e.sequence DESC LIMIT 1`
	// $1 the workstream's id: its key is looked up in the statement.
	sqlNewestEventsOf    = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = (SELECT wsk FROM workstreams WHERE id = $1) ORDER BY e.sequence DESC LIMIT $2`
	sqlEventsAscending   = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = $1 AND e.sequence > $2 AND e.sequence <= $3 ORDER BY e.sequence LIMIT $4`
	sqlFirstOfKindRole   = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = $1 AND e.sequence >= $2 AND e.sequence <= $3 AND e.kind = $4 AND e.role = $5 ORDER BY e.sequence LIMIT 1`
	sqlEventsBySequences = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = $1 AND e.sequence = ANY($2::bigint[])`
	// $1 wsk, $2 tsquery, $3 candidate bound: the newest matches only,
	// ranked in Go (ledger/rank) as on SQLite. Two ways to find them
	// (search.go): the GIN index, whose cost grows with the matches in the
	// whole ledger, and a scan of the workstream's newest $4 events
	// newest-first (the primary key), whose cost is bounded by $4.
	sqlSearchCandidates = `SELECT sequence, content FROM events WHERE wsk = $1 AND tsv @@ $2::tsquery ORDER BY sequence DESC LIMIT $3`
	sqlSearchNewest     = `SELECT sequence, content FROM (SELECT sequence, content, tsv FROM events WHERE wsk = $1 ORDER BY sequence DESC LIMIT $4) w
  WHERE tsv @@ $2::tsquery ORDER BY sequence DESC LIMIT $3`
	// The fraction of events holding the rarest of the tokens $1, from the
	// planner's statistics of events.tsv (a token's frequency among the
	// most common elements, or for one not among them the lowest frequency
	// there: the element after the list; NULL before the table has
	// statistics), and the table's estimated rows.
	sqlRarestEstimate = `SELECT min(COALESCE(st.fr[array_position(st.el, t.tok)], st.fr[cardinality(st.el) + 1]))::float8,
    (SELECT reltuples FROM pg_class WHERE oid = 'events'::regclass)::float8
  FROM (SELECT most_common_elems::text::text[] AS el, most_common_elem_freqs AS fr FROM pg_stats
    WHERE schemaname = current_schema() AND tablename = 'events' AND attname = 'tsv') st, unnest($1::text[]) AS t(tok)`
	sqlWorkstreamSize = `SELECT wsk, event_count FROM workstreams WHERE id = $1`
	// Segments are named segments/<ws>/<run>-<hash>.jsonl; $1 and $2 bound
	// the run's name prefix (a range scan of the path index).
	sqlRunSegmentRange   = `SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM segments WHERE path >= $1 AND path < $2`
	sqlSegmentAtSequence = `SELECT sequence, segment_id FROM events WHERE wsk = $1 AND sequence >= $2 ORDER BY sequence LIMIT 1`
)

// State snapshots and rebuild.
const (
	sqlStateLinks = `SELECT harness, machine, native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at
  FROM session_links WHERE workstream_id = $1 ORDER BY harness, machine, native_session_id`
	// $1 workstream, $2 how many of the newest runs; plus the active run and
	// the newest run of each harness, oldest first.
	sqlStateRuns = `SELECT id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered
FROM runs WHERE workstream_id = $1 AND (state = 'active'
  OR id IN (SELECT id FROM runs WHERE workstream_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2)
  OR id IN (SELECT DISTINCT ON (harness) id FROM runs WHERE workstream_id = $1 ORDER BY harness, started_at DESC, id DESC))
ORDER BY started_at, id`
	sqlRestoreWorkstream = `INSERT INTO workstreams (id, repo_fingerprint, worktree_fingerprint, name, cwd, created_at, selected_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
	sqlRestoreLink = `INSERT INTO session_links (workstream_id, harness, machine, native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`
	sqlRestoreRun = `INSERT INTO runs (id, workstream_id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`
	sqlNameTaken = `SELECT EXISTS (SELECT 1 FROM workstreams WHERE repo_fingerprint = $1 AND worktree_fingerprint = $2 AND name = $3)`
	// MoveScope: the workstreams of a scope; the name of one still in a
	// scope; one moved ($1 repo, $2 worktree, $3 name, $4 cwd or '' to keep
	// it, $5 id, $6/$7 the scope it must still be in).
	sqlScopeWorkstreamIDs = `SELECT id FROM workstreams WHERE repo_fingerprint = $1 AND worktree_fingerprint = $2 ORDER BY wsk`
	sqlWorkstreamNameIn   = `SELECT name FROM workstreams WHERE id = $1 AND repo_fingerprint = $2 AND worktree_fingerprint = $3`
	sqlMoveWorkstream     = `UPDATE workstreams SET repo_fingerprint = $1, worktree_fingerprint = $2, name = $3,
  cwd = CASE WHEN $4 = '' THEN cwd ELSE $4 END WHERE id = $5 AND repo_fingerprint = $6 AND worktree_fingerprint = $7`
	sqlKnownSegments = `SELECT path FROM segments WHERE wsk = $1`
	sqlStoredSeqIDs  = `SELECT sequence, event_id FROM events WHERE wsk = $1`
	sqlRecountEvents = `UPDATE workstreams SET last_sequence = GREATEST(last_sequence, COALESCE((SELECT MAX(sequence) FROM events WHERE wsk = $1), 0)),
  event_count = (SELECT COUNT(*) FROM events WHERE wsk = $1) WHERE wsk = $1`
	sqlRestoreUpdatedAt = `UPDATE workstreams SET updated_at = GREATEST(updated_at, COALESCE((SELECT MAX(created_at) FROM segments WHERE wsk = $1), 0)) WHERE wsk = $1`
)
