package slack

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

var _ adapters.ChangeHandler = (*recorder)(nil)

func (r *recorder) HandleEdit(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.changes <- m
}

func (r *recorder) HandleDelete(_ context.Context, _ adapters.Adapter, p adapters.PostRef) {
	r.changes <- p
}

func changed(user, ts, text string, edited bool) event {
	m := event{"type": "message", "user": user, "text": text, "ts": ts}
	if edited {
		m["edited"] = event{"user": user, "ts": "1700000100.000000"}
	}
	return event{"type": "message", "subtype": "message_changed", "channel": "CINFRA001", "channel_type": "channel",
		"hidden": true, "message": m, "ts": "1700000100.000001", "event_ts": "1700000100.000001"}
}

// A person's edit arrives with its new text, a deletion as the message's reference; an unfurl
// (no edit mark) and the bot's own edits do not arrive. Events are handled in order, so one
// that is not delivered is proven so by the next.
func TestEditsAndDeletionsAreDelivered(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	f.Send(changed("UAL", "1700000000.000100", "<@UBOT> create grafana", false)) // an unfurl
	f.Send(changed("UBOT", "1700000000.000200", "Plan 1 · 1 of 2", true))
	f.Send(changed("UAL", "1700000000.000100", "<@UBOT> create grafana --port 4000", true))
	want := adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000100"}
	got, ok := next(t, r.h.changes, "the edit").(adapters.Message)
	if !ok || got.Post != want || got.Text != "@eos create grafana --port 4000" || got.Author.Name != "alice" || got.At.IsZero() {
		t.Fatalf("first change delivered as %+v, want alice's edit of %+v", got, want)
	}
	f.Send(event{"type": "message", "subtype": "message_deleted", "channel": "CINFRA001", "channel_type": "channel", "hidden": true,
		"deleted_ts": "1700000000.000100", "ts": "1700000101.000001", "event_ts": "1700000101.000001",
		"previous_message": event{"type": "message", "user": "UAL", "text": "<@UBOT> create grafana --port 4000", "ts": "1700000000.000100"}})
	if got, ok := next(t, r.h.changes, "the deletion").(adapters.PostRef); !ok || got != want {
		t.Fatalf("deletion delivered as %+v, want %+v", got, want)
	}
}
