// Package leader owns the election among Eos replicas sharing one PostgreSQL database: at most
// one process at a time holds a Term, and only the holder of a valid Term may connect to chat or
// start runs.
//
// The leader holds a session-level advisory lock (pg_try_advisory_lock) on one dedicated
// connection. The server is told to end that session when it sits idle for Lease
// (idle_session_timeout), so a frozen or cut-off leader loses the lock without doing anything;
// a killed leader's socket closes and loses it at once. The leader proves its session alive with
// a heartbeat every Heartbeat and trusts its leadership (Term.Valid) only until Lease − Heartbeat
// after the last successful heartbeat was sent, by the monotonic clock, which is before the
// server could have ended the session for idleness. Standbys try the lock every Retry.
//
// A Term says who leads by this process's view only; it cannot stop a paused leader from
// finishing a write it had already started. Writes that must never come from two leaders are
// fenced by the store, not here.
//
// This package imports pgx and nothing of Eos.
package leader
