package slack

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// Slack refuses a method called more often than its tier allows (HTTP 429 with Retry-After).
// The adapter waits as told and calls again, so a burst of progress edits or the reactions a
// restart's catch-up lists is slowed, not lost: an approval is confirmed, an edit lands.
func TestARateLimitedCallIsMadeAgainAfterTheWaitSlackAsks(t *testing.T) {
	f := slackfake.New(t)
	ctx := context.Background()
	a := idle(t, f, "")
	ref, err := a.Post(ctx, "CINFRA001", adapters.NewDoc(adapters.Text{Text: "Plan 7f3a9c21"}))
	if err != nil {
		t.Fatal(err)
	}
	f.Mu.Lock()
	f.Reactions[ref.Channel+"/"+ref.ID] = []slackfake.Reaction{{Name: "white_check_mark", Count: 1, Users: []string{"UBO"}}}
	f.RateLimited["reactions.get"] = 1
	f.RateLimited["chat.update"] = 1
	f.Mu.Unlock()

	listed, err := a.Reactions(ctx, ref)
	if err != nil {
		t.Fatalf("Reactions after one 429: %v", err)
	}
	if len(listed) != 1 || listed[0].User.ID != "UBO" {
		t.Errorf("Reactions after one 429 = %+v, want bob's ✅", listed)
	}
	if err := a.Edit(ctx, ref, adapters.NewDoc(adapters.Text{Text: "Plan 7f3a9c21 · approved"})); err != nil {
		t.Fatalf("Edit after one 429: %v", err)
	}
	f.Mu.Lock()
	limited := f.Limited
	f.Mu.Unlock()
	if limited != 2 {
		t.Errorf("the fake refused %d calls, want 2 (each then made again)", limited)
	}
}
