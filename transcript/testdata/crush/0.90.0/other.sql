-- Crush fixture: project "other", a different checkout with its own
-- database; none of its sessions may be listed for "app". Same provenance
-- as app.sql.
INSERT INTO sessions (id, title, updated_at, created_at)
VALUES ('77777777-7777-4777-8777-777777777777', 'Elsewhere', 1767232800, 1767232800);
INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES
('o-user', '77777777-7777-4777-8777-777777777777', 'user', '[{"type":"text","data":{"text":"other project"}}]', 1767232800, 1767232800);
