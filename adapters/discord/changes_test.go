package discord

import (
	"context"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

var _ adapters.ChangeHandler = (*recorder)(nil)

func (r *recorder) HandleEdit(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.changes <- m
}

func (r *recorder) HandleDelete(_ context.Context, _ adapters.Adapter, p adapters.PostRef) {
	r.changes <- p
}

func (r *recorder) nextChange(t *testing.T) any {
	t.Helper()
	select {
	case c := <-r.changes:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no edit or deletion delivered within 10 s")
		return nil
	}
}

// A person's edit arrives as the new text (the mention written "@eos", or none when the edit
// took it out); the bot's own edits do not; a deletion arrives as the message's reference.
// Changes are delivered in order, so one not delivered is proven so by the next one.
func TestEditsAndDeletionsAreDelivered(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	req := f.AddMessage(textChannel, "501", "<@"+botID+"> create grafana")
	own := f.AddMessage(textChannel, botID, "Plan 1")
	f.MessageUpdate(own, "Plan 1 · 1 of 2")
	f.MessageUpdate(req, "<@"+botID+"> create grafana --port 4000")
	want := adapters.PostRef{Platform: "discord", Channel: textChannel, ID: req.ID}
	got, ok := rec.nextChange(t).(adapters.Message)
	if !ok || got.Post != want || got.Text != "@eos create grafana --port 4000" || got.Author.ID != "501" || got.At.IsZero() {
		t.Fatalf("first change delivered as %+v, want the edit of %+v", got, want)
	}
	f.MessageUpdate(req, "never mind")
	if got, ok := rec.nextChange(t).(adapters.Message); !ok || got.Text != "never mind" {
		t.Fatalf("edit without the mention delivered as %+v", got)
	}
	f.MessageDelete(req)
	if got, ok := rec.nextChange(t).(adapters.PostRef); !ok || got != want {
		t.Fatalf("deletion delivered as %+v, want %+v", got, want)
	}
}
