// Package webui serves `ai-memory ui`: read-only pages of the workstreams,
// timelines, session summaries and search of the ledger, rendered with
// html/template from the history read model, with embedded CSS and a little
// plain JS (live updates by polling). No build step, no runtime download.
//
// Security model (docs/ui.md): the caller binds loopback unless told
// otherwise; every request must carry the random token (a query parameter
// once, then an HttpOnly SameSite=Strict cookie); the Host header must name
// the listener (defeats DNS rebinding); only GET and HEAD are served, and
// nothing changes state; every response carries a strict
// Content-Security-Policy (no inline script, no foreign origin); and all
// transcript text is escaped by html/template after history.Clean made
// control characters visible.
package webui
