package e2e_test

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
)

// The platforms of the conformance suite (conformance_test.go) have a file each:
// conformance_console_test.go, conformance_mattermost_test.go, conformance_slack_test.go and
// conformance_discord_test.go. Here is what more than one of them uses.

// unicodeEmoji is how people type an emoji where the platform sends Unicode.
var unicodeEmoji = map[string]string{"+1": "👍", "x": "❌"}

// startWith starts the harness with the adapter wrap returns beside the console; the adapter's
// Run ends when off does, before the harness stops (its Stop only ends the console).
func startWith(t *testing.T, opts eostest.Options, wrap func(off context.Context) adapters.Adapter) *eostest.Harness {
	t.Helper()
	off, stop := context.WithCancel(context.Background())
	opts.Adapters = []adapters.Adapter{wrap(off)}
	h := eostest.New(t, opts)
	t.Cleanup(func() {
		stop()
		h.Stop()
	})
	return h
}

// offSwitch runs run with a context that also ends when off does.
func offSwitch(ctx, off context.Context, run func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(off, cancel)()
	return run(ctx)
}
