package mattermost

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// A process that takes over (a restart, a replica after a failover) catches up from the
// stored cursor: the post and the reaction written while no process was connected are
// delivered once, and the post and reaction the previous process handled long enough before
// its cursor are not delivered again.
func TestE2ENextProcessCatchesUpFromTheCursor(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	ch := s.Channel(t, "cursor")
	store := newMemCursors()
	cfg := s.config()
	cfg.Channels = []string{ch.Id}
	cfg.Cursors = store
	n := nonce()
	hasNonce := func(m adapters.Message) bool { return strings.Contains(m.Text, n) }

	a := s.runConfig(t, cfg, nil)
	a.waitConnected(t)
	// A request and a reaction to it stamped twice the margin back (a system admin may set a
	// post's CreateAt, anyone a reaction's), so that they lie before the cursor by more than
	// the margin.
	old, _, err := s.Admin.CreatePost(ctx, &model.Post{ChannelId: ch.Id, Message: "@eos old " + n,
		CreateAt: time.Now().Add(-2 * catchUpMargin).UnixMilli()})
	if err != nil {
		t.Fatal(err)
	}
	a.rec.message(t, func(m adapters.Message) bool { return m.Post.ID == old.Id }, nil)
	if _, _, err := s.Carol.Client.SaveReaction(ctx, &model.Reaction{UserId: s.Carol.User.Id, PostId: old.Id,
		EmojiName: "eyes", CreateAt: old.CreateAt + 1000}); err != nil {
		t.Fatal(err)
	}
	a.rec.reaction(t, func(r adapters.Reaction) bool { return r.Post.ID == old.Id && r.User.Name == "carol" }, nil)
	first := s.Alice.Say(t, ch.Id, "", "@eos first "+n)
	a.rec.message(t, func(m adapters.Message) bool { return m.Post.ID == first.Id }, nil)
	store.wait(t, ch.Id, first.CreateAt)
	a.stop(t)

	// Nobody is connected: alice asks, bob approves on the old request.
	gap := s.Alice.Say(t, ch.Id, "", "@eos create grafana "+n)
	vote, _, err := s.Bob.Client.SaveReaction(ctx, &model.Reaction{UserId: s.Bob.User.Id, PostId: old.Id, EmojiName: "+1"})
	if err != nil {
		t.Fatal(err)
	}

	// B takes over a minute later, as far as its own catch-up start is concerned: without the
	// cursor it would read from then (less the margin) and deliver nothing of the gap.
	b := s.runConfig(t, cfg, func(_ *Config, b *Adapter) { b.lastSeen = time.Now().Add(time.Minute).UnixMilli() })
	b.waitConnected(t)
	// The catch-up is over once the connection is reported; the cursor has followed it.
	if got, want := store.get(ch.Id), max(gap.CreateAt, vote.CreateAt); got != want {
		t.Errorf("after the catch-up the cursor is %d, want %d (the gap's newest post or reaction)", got, want)
	}
	// Live, after the catch-up: everything delivered before these came from the catch-up.
	after := s.Alice.Say(t, ch.Id, "", "@eos after "+n)
	seen, _, err := s.Carol.Client.SaveReaction(ctx, &model.Reaction{UserId: s.Carol.User.Id, PostId: after.Id, EmojiName: "eyes"})
	if err != nil {
		t.Fatal(err)
	}

	// B's first catch-up reads from the cursor (first's CreateAt) less catchUpMargin (5 s),
	// by CreateAt: it delivers again every post for the bot created in those 5 s and every
	// reaction added in them. Here that is first alone, which set the cursor and so is always
	// in the window. The server lists old again (bob's reaction updated it) with carol's
	// reaction, but both were stamped 9 s and more before the cursor: neither may come again.
	var texts []string
	for {
		m := b.rec.message(t, hasNonce, nil)
		texts = append(texts, m.Text)
		if m.Post.ID == after.Id {
			break
		}
	}
	if want := []string{"@eos first " + n, "@eos create grafana " + n, "@eos after " + n}; !slices.Equal(texts, want) {
		t.Errorf("the new process delivered %q, want %q (each once, in order)", texts, want)
	}
	var reactions []adapters.Reaction
	for {
		r := b.rec.reaction(t, func(adapters.Reaction) bool { return true }, nil)
		reactions = append(reactions, r)
		if r.Post.ID == after.Id {
			break
		}
	}
	wantVote := adapters.Reaction{Post: adapters.PostRef{Platform: "mattermost", Channel: ch.Id, ID: old.Id},
		User: adapters.User{ID: s.Bob.User.Id, Name: "bob"}, Emoji: "+1", At: time.UnixMilli(vote.CreateAt)}
	if len(reactions) != 2 || !sameReaction(reactions[0], wantVote) || reactions[1].User.Name != "carol" {
		t.Errorf("the new process delivered reactions %+v, want bob's +1 on the old request once, then carol's eyes", reactions)
	}
	store.wait(t, ch.Id, max(after.CreateAt, seen.CreateAt))
}

func sameReaction(x, y adapters.Reaction) bool {
	return x.At.Equal(y.At) && x.Post == y.Post && x.User == y.User && x.Emoji == y.Emoji && x.Removed == y.Removed
}
