// Package enginetest holds the engine's behaviour tests, through its public API and the
// console harness of bot/eostest; the real-server end-to-end tests are in bot/e2e, the unit
// tests of the engine's unexported parts stay in bot. Blueprints, policies and golden files
// only these tests read are in testdata (`go test ./bot/enginetest -update` rewrites the
// goldens). The folder has no code of its own: only tests and benchmarks.
package enginetest
