package slack

import (
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// The adapter's tests run against slackfake, the Slack stand-in the conformance suite uses too.
const (
	botToken = slackfake.BotToken
	appToken = slackfake.AppToken
	botID    = slackfake.BotID
)

// next receives from ch, failing t after a deadline.
func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
