-- Crush fixture: project "app" (the checkout), two top-level sessions and
-- one sub-agent session, applied on top of
-- harness/harnesstest/crush_schema.sql by transcript/crush_fixture_test.go.
--
-- Provenance: NOT captured from a running Crush (its npm package cannot
-- install offline here). Row shapes follow charmbracelet/crush v0.90.0:
-- messages.parts is internal/message/message.go marshalParts
-- ([{"type":T,"data":{...}}], field names from content.go: TextContent
-- text; ReasoningContent thinking/signature; ToolCall id/name/input (JSON in
-- a string)/provider_executed/finished; ToolResult tool_call_id/name/
-- content/data/mime_type/metadata/is_error; Finish reason/time;
-- ShellCommand command/output/exit_code; ImageURLContent url/detail);
-- timestamps are Unix seconds as internal/db/sql/*.sql write them. Replace
-- with a capture (scripts/capture-fixtures.sh) once a crush binary runs here.

INSERT INTO sessions (id, parent_session_id, title, prompt_tokens, completion_tokens, cost, updated_at, created_at)
VALUES ('5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', NULL, 'List files', 120, 40, 0.0, 1767225600, 1767225600);
INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at)
VALUES ('m1-asst$$call_1', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'agent tool', 1767225610, 1767225605);
INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at)
VALUES ('9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c01', NULL, 'Second session', 1767229200, 1767229200);

-- Session 1: a prompt, reasoning + a finished bash tool call, its result, the
-- reply; a cut-off tool call; a bang-mode shell command; an image; a
-- summary (compaction) message.
INSERT INTO messages (id, session_id, role, parts, model, provider, created_at, updated_at, finished_at) VALUES
('m1-user', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'user',
 '[{"type":"text","data":{"text":"list the files RUN_TOOL"}}]', NULL, NULL, 1767225600, 1767225600, NULL),
('m1-asst', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'assistant',
 '[{"type":"reasoning","data":{"thinking":"I should run ls","signature":"","thought_signature":"","tool_id":"","responses_data":null}},{"type":"tool_call","data":{"id":"call_1","name":"bash","input":"{\"command\":\"ls\",\"description\":\"list\"}","provider_executed":false,"finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1767225601}}]',
 'mock-model', 'mock', 1767225601, 1767225601, 1767225601),
('m1-tool', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'tool',
 '[{"type":"tool_result","data":{"tool_call_id":"call_1","name":"bash","content":"README.md\nmain.go","data":"","mime_type":"","metadata":"{\"exit\":0}","is_error":false}}]',
 NULL, NULL, 1767225602, 1767225602, NULL),
('m1-asst2', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'assistant',
 '[{"type":"text","data":{"text":"There are two files."}},{"type":"tool_call","data":{"id":"call_2","name":"view","input":"{\"file_path\":\"main.go\"","provider_executed":false,"finished":false}},{"type":"finish","data":{"reason":"canceled","time":1767225603}}]',
 'mock-model', 'mock', 1767225603, 1767225603, 1767225603),
('m1-tool2', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'tool',
 '[{"type":"tool_result","data":{"tool_call_id":"call_3","name":"edit","content":"permission denied","data":"","mime_type":"","metadata":"","is_error":true}}]',
 NULL, NULL, 1767225604, 1767225604, NULL),
('m1-bang', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'user',
 '[{"type":"shell_command","data":{"command":"git status","output":"On branch main","exit_code":0}}]',
 NULL, NULL, 1767225605, 1767225605, NULL),
('m1-image', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'user',
 '[{"type":"text","data":{"text":"what is in this picture?"}},{"type":"image_url","data":{"url":"https://example.invalid/a.png"}}]',
 NULL, NULL, 1767225606, 1767225606, NULL);
-- The summary (compaction) message: is_summary_message is set on insert,
-- as Crush does (an UPDATE would fire its updated_at trigger).
INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message, created_at, updated_at, finished_at) VALUES
('m1-summary', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'assistant',
 '[{"type":"text","data":{"text":"Summary: the user listed files."}},{"type":"finish","data":{"reason":"end_turn","time":1767225607}}]',
 'mock-model', 'mock', 1, 1767225607, 1767225607, 1767225607);

-- The agent-tool session (id "<message id>$$<tool call id>", as
-- internal/session CreateAgentToolSessionID makes it; not listed: it has a
-- parent) and the title session ("title-<parent id>").
INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at)
VALUES ('title-5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', '5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51', 'Generate a title', 1767225600, 1767225600);
INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES
('m1a-user', 'm1-asst$$call_1', 'user', '[{"type":"text","data":{"text":"sub-agent task"}}]', 1767225605, 1767225605);

-- Session 2: a plain exchange and an unknown part type from a newer Crush.
INSERT INTO messages (id, session_id, role, parts, created_at, updated_at, finished_at) VALUES
('m2-user', '9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c01', 'user', '[{"type":"text","data":{"text":"hello again"}}]', 1767229200, 1767229200, NULL),
('m2-asst', '9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c01', 'assistant',
 '[{"type":"text","data":{"text":"ACK: hello again"}},{"type":"citation","data":{}},{"type":"finish","data":{"reason":"end_turn","time":1767229201}}]',
 1767229201, 1767229201, 1767229201);
