// Package web owns Eos's read-only status page: the HTTP handler `eos serve` mounts beside
// /healthz and /metrics, its sign-in (a one-time link from `@eos web` traded for a session
// cookie), the pages (pending plans with their full preview, runs with live per-layer
// progress and output, locks, deployed services with their drift history as a server-made
// SVG chart, the audit log), and the server-sent events that keep runs and locks live. The
// templates, the stylesheet and the small live-update script are embedded; there is no
// JavaScript build step and every page works without JavaScript except the live updates.
//
// The page never changes anything in Eos: it cannot approve, reject, cancel or run (approval
// stays a reaction in chat). Its only writes are sign-in links being used and sessions.
//
// Who sees what (fail closed; see visible.go): a plan is visible when the engine's MaySee
// says the person may read the channel it was asked in (or the channel of its preview); a
// run, a lock (its holder is a run) and an audit entry with a plan ID are visible with that
// plan; a deployed service and its drift history with the plan of the run that declared it.
// Audit entries without a plan ID are shown only when the Source also implements
// OpsViewer and says the person reads an ops channel; otherwise they are hidden.
//
// Secrets: sign-in tokens and session cookies are kept (in the store) and compared only as
// SHA-256 hashes and never logged. Every POST must carry the form token of the page that
// made it (a double-submit value bound to the session, or to a short-lived cookie on the
// sign-in page) and pass net/http's cross-origin protection (Sec-Fetch-Site / Origin). On
// https both cookies carry the __Host- prefix and only the prefixed names are read, so a
// sibling host of the domain cannot plant either (see cookieName).
//
// It imports executor, bot/store, bot/render (the texts it shares with the chat: a plan's
// Vault row, a change's attribute lines), bot/runwatch and bot/webapi of Eos; never bot.
package web
