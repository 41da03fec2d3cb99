// Package e2e holds the engine's end-to-end tests and the platform conformance suite, apart
// from the engine's unit tests in bot. The end-to-end tests (e2e_*_test.go) drive a real
// engine against the real servers scripts/testenv starts (Mattermost, Nomad, Vault, Consul,
// Salt, PostgreSQL); without one a test skips, unless CI is set, where it fails. The
// conformance suite (conformance_*_test.go) runs the same scenarios on every chat platform:
// the console, a real Mattermost, and the Slack and Discord fakes. Helpers the engine's unit
// tests share with these are in bot/eostest; the blueprints only these tests read are in
// testdata. The folder has no code of its own: only tests.
package e2e
