package mattermost

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// changeCollector is a Handler and ChangeHandler that writes down everything it hears, in
// order, as "kind post-id detail".
type changeCollector struct {
	collector
	events []string
	edits  []adapters.Message
	dels   []adapters.PostRef
}

func (c *changeCollector) HandleMessage(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	c.collector.HandleMessage(ctx, a, m)
	c.events = append(c.events, "message "+m.Post.ID)
}

func (c *changeCollector) HandleReaction(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	c.collector.HandleReaction(ctx, a, r)
	c.events = append(c.events, "reaction "+r.Post.ID+" "+r.Emoji)
}

func (c *changeCollector) HandleEdit(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	c.edits = append(c.edits, m)
	c.events = append(c.events, "edit "+m.Post.ID+" "+m.Text)
}

func (c *changeCollector) HandleDelete(_ context.Context, _ adapters.Adapter, p adapters.PostRef) {
	c.dels = append(c.dels, p)
	c.events = append(c.events, "delete "+p.ID)
}

var _ adapters.ChangeHandler = (*changeCollector)(nil)

// gapFixture is an adapter serving channel ch, whose stored cursor is at; the catch-up reads
// ch since at less the margin.
type gapFixture struct {
	f     *fakeAPI
	a     *Adapter
	store *memCursors
	ch    string
	since int64 // where the catch-up reads from
}

func newGapFixture(t *testing.T) *gapFixture {
	t.Helper()
	ch := model.NewId()
	at := time.Now().Add(-time.Hour).UnixMilli()
	store := newMemCursors()
	store.set(ch, at)
	f := newFakeAPI(botUser, aliceUser, otherBot)
	a := fakeAdapterConfig(t, f, Config{Cursors: store, Logger: slog.New(slog.DiscardHandler)})
	a.served = map[string]model.ChannelType{ch: model.ChannelTypeOpen}
	a.lastSeen = time.Now().UnixMilli()
	return &gapFixture{f: f, a: a, store: store, ch: ch, since: at - catchUpMargin.Milliseconds()}
}

// post is a post of user in the fixture's channel created at since+created (ms), in thread
// root when root is not empty.
func (g *gapFixture) post(user *model.User, created int64, root, text string) *model.Post {
	at := g.since + created
	return &model.Post{Id: model.NewId(), ChannelId: g.ch, UserId: user.Id, RootId: root, Message: text, CreateAt: at, UpdateAt: at}
}

// The catch-up delivers, after the new posts and before the reactions, each person's edit and
// deletion made since it reads, oldest first: an edit with the text the post has now and the
// edit's time, a deletion with the post's thread. It leaves alone what is not a person's
// change of a post since then: the bot's own and other bots' posts, system messages, a post
// whose reactions alone changed, changes older than the catch-up, and the archived former
// text that the server lists, deleted, for every edit. The cursor follows the newest change.
func TestCatchUpDeliversChangesMadeWhileDisconnected(t *testing.T) {
	g := newGapFixture(t)
	min := int64(60_000)

	edited := g.post(aliceUser, -min, "", "@eos create grafana --port 4000")
	edited.EditAt, edited.UpdateAt = g.since+2*min, g.since+2*min
	archive := edited.Clone()
	archive.Id, archive.OriginalId, archive.Message = model.NewId(), edited.Id, "@eos create grafana"
	archive.DeleteAt = edited.EditAt

	deleted := g.post(aliceUser, -2*min, edited.Id, "@eos status")
	deleted.DeleteAt, deleted.UpdateAt = g.since+min, g.since+min

	reacted := g.post(aliceUser, -3*min, "", "@eos create loki")
	reacted.UpdateAt = g.since + 3*min
	reacted.Metadata = &model.PostMetadata{Reactions: []*model.Reaction{{UserId: aliceUser.Id, PostId: reacted.Id, EmojiName: "+1", CreateAt: g.since + min/2}}}

	editedLongAgo := g.post(aliceUser, -3*min, "", "@eos create tempo")
	editedLongAgo.EditAt = g.since - 1
	deletedLongAgo := g.post(aliceUser, -3*min, "", "@eos create mimir")
	deletedLongAgo.DeleteAt = g.since - 1

	own := g.post(botUser, -min, edited.Id, "Plan 7 · 1 of 2")
	own.EditAt = g.since + min
	ownDeleted := g.post(botUser, -min, edited.Id, "Plan 8")
	ownDeleted.DeleteAt = g.since + min
	bots := g.post(otherBot, -min, "", "@eos deploy")
	bots.EditAt = g.since + min
	fromWebhook := g.post(aliceUser, -min, "", "@eos deploy from a webhook")
	fromWebhook.AddProp(model.PostPropsFromBot, "true")
	fromWebhook.DeleteAt = g.since + min
	system := g.post(aliceUser, -min, "", "alice joined")
	system.Type, system.EditAt = model.PostTypeJoinChannel, g.since+min

	g.f.listed[g.ch] = []*model.Post{edited, archive, deleted, reacted, editedLongAgo, deletedLongAgo, own, ownDeleted, bots, fromWebhook, system}
	var c changeCollector
	g.a.catchUp(context.Background(), &c, botUser)

	want := []string{
		"delete " + deleted.Id,
		"edit " + edited.Id + " " + edited.Message,
		"reaction " + reacted.Id + " +1",
	}
	if !slices.Equal(c.events, want) {
		t.Errorf("delivered\n%q\nwant\n%q", c.events, want)
	}
	if len(c.edits) == 1 {
		e := c.edits[0]
		wantRef := adapters.PostRef{Platform: platform, Channel: g.ch, ID: edited.Id}
		if e.Post != wantRef || e.Author.ID != aliceUser.Id || e.Author.Name != "alice" || e.At.UnixMilli() != edited.EditAt {
			t.Errorf("edit delivered as %+v, want alice's on %+v at %d", e, wantRef, edited.EditAt)
		}
	}
	if wantRef := (adapters.PostRef{Platform: platform, Channel: g.ch, ID: deleted.Id, Thread: edited.Id}); len(c.dels) == 1 && c.dels[0] != wantRef {
		t.Errorf("deletion delivered as %+v, want %+v", c.dels[0], wantRef)
	}
	if got := g.store.get(g.ch); got != edited.EditAt {
		t.Errorf("cursor after the catch-up %d, want the newest change's time %d", got, edited.EditAt)
	}
}

// An approval given during the gap before the request was edited is still delivered after
// the edit, so the engine has cancelled the plan by the time it judges the approval.
func TestCatchUpDeliversChangesBeforeReactions(t *testing.T) {
	g := newGapFixture(t)
	req := g.post(aliceUser, -60_000, "", "@eos create grafana --port 4000")
	req.EditAt, req.UpdateAt = g.since+20_000, g.since+20_000
	preview := g.post(botUser, -50_000, req.Id, "Plan 7")
	preview.UpdateAt = g.since + 10_000
	preview.Metadata = &model.PostMetadata{Reactions: []*model.Reaction{{UserId: aliceUser.Id, PostId: preview.Id, EmojiName: "+1", CreateAt: g.since + 10_000}}}
	gone := g.post(aliceUser, -40_000, "", "@eos create loki")
	gone.DeleteAt, gone.UpdateAt = g.since+30_000, g.since+30_000
	fresh := g.post(aliceUser, 5_000, "", "@eos create tempo")
	g.f.listed[g.ch] = []*model.Post{req, preview, gone, fresh}

	var c changeCollector
	g.a.catchUp(context.Background(), &c, botUser)
	want := []string{"message " + fresh.Id, "edit " + req.Id + " " + req.Message, "delete " + gone.Id, "reaction " + preview.Id + " +1"}
	if !slices.Equal(c.events, want) {
		t.Errorf("delivered\n%q\nwant\n%q", c.events, want)
	}
}

// A change is delivered once by a process, whether heard on the websocket, in a catch-up, or
// in both (a catch-up reads a little before the newest post heard); a later edit of the same
// post is a change of its own. A live edit moves the cursor, so the next process does not
// deliver it again either (beyond the margin).
func TestChangeHeardLiveIsNotCaughtUpAgain(t *testing.T) {
	g := newGapFixture(t)
	req := g.post(aliceUser, -60_000, "", "@eos create grafana --port 4000")
	req.EditAt, req.UpdateAt = g.since+20_000, g.since+20_000
	reply := g.post(aliceUser, -50_000, req.Id, "@eos status")
	var c changeCollector
	ctx := context.Background()
	g.a.dispatch(ctx, &c, botUser, wsEvent(t, model.WebsocketEventPostEdited, g.ch, "post", req))
	g.a.dispatch(ctx, &c, botUser, wsEvent(t, model.WebsocketEventPostDeleted, g.ch, "post", reply))
	if got := g.store.get(g.ch); got != req.EditAt {
		t.Errorf("cursor after a live edit %d, want the edit's time %d", got, req.EditAt)
	}

	deleted := reply.Clone()
	deleted.DeleteAt, deleted.UpdateAt = g.since+25_000, g.since+25_000
	g.f.listed[g.ch] = []*model.Post{req, deleted}
	g.a.catchUp(ctx, &c, botUser)
	want := []string{"edit " + req.Id + " " + req.Message, "delete " + reply.Id}
	if !slices.Equal(c.events, want) {
		t.Fatalf("delivered\n%q\nwant each change once:\n%q", c.events, want)
	}

	// A reconnection's catch-up reads from the newest post heard (Run's start here).
	again := req.Clone()
	now := time.Now().UnixMilli()
	again.Message, again.EditAt, again.UpdateAt = "never mind", now, now
	g.f.listed[g.ch] = []*model.Post{again, deleted}
	g.a.catchUp(ctx, &c, botUser)
	if want := append(want, "edit "+req.Id+" never mind"); !slices.Equal(c.events, want) {
		t.Errorf("after a second edit, delivered\n%q\nwant\n%q", c.events, want)
	}
}

// A handler that does not hear changes gets the catch-up's posts and reactions as before, and
// the changes do not move the cursor past what it was given.
func TestCatchUpWithoutChangeHandler(t *testing.T) {
	g := newGapFixture(t)
	fresh := g.post(aliceUser, 5_000, "", "@eos create tempo")
	req := g.post(aliceUser, -60_000, "", "@eos create grafana --port 4000")
	req.EditAt, req.UpdateAt = g.since+20_000, g.since+20_000
	gone := g.post(aliceUser, -40_000, "", "@eos create loki")
	gone.DeleteAt, gone.UpdateAt = g.since+30_000, g.since+30_000
	g.f.listed[g.ch] = []*model.Post{req, gone, fresh}

	var c collector
	g.a.catchUp(context.Background(), &c, botUser)
	if len(c.msgs) != 1 || c.msgs[0].Post.ID != fresh.Id {
		t.Errorf("delivered %+v, want only the new post", c.msgs)
	}
	if got := g.store.get(g.ch); got != fresh.CreateAt {
		t.Errorf("cursor %d, want the new post's %d", got, fresh.CreateAt)
	}
}

// missedChangeOf judges each post by its times alone, as listed since since.
func TestMissedChangeOf(t *testing.T) {
	const since = int64(1_700_000_000_000)
	tests := []struct {
		name    string
		post    *model.Post
		want    bool
		deleted bool
		at      int64
	}{
		{"untouched", &model.Post{CreateAt: since - 10, UpdateAt: since + 5}, false, false, 0},
		{"edited at since", &model.Post{CreateAt: since - 10, EditAt: since}, true, false, since},
		{"edited before", &model.Post{CreateAt: since - 10, EditAt: since - 1, UpdateAt: since + 5}, false, false, 0},
		{"deleted", &model.Post{CreateAt: since - 10, EditAt: since + 3, DeleteAt: since + 7}, true, true, since + 7},
		{"deleted before", &model.Post{CreateAt: since - 10, DeleteAt: since - 1, EditAt: since + 1}, false, false, 0},
		{"an edit's archive", &model.Post{CreateAt: since - 10, DeleteAt: since + 7, OriginalId: model.NewId()}, false, false, 0},
		{"created and edited since", &model.Post{CreateAt: since + 1, EditAt: since + 2}, true, false, since + 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := missedChangeOf(tt.post, since)
			if ok != tt.want || c.deleted != tt.deleted || c.at != tt.at || (ok && c.post != tt.post) {
				t.Errorf("= deleted=%v at=%d, %v; want deleted=%v at=%d, %v", c.deleted, c.at, ok, tt.deleted, tt.at, tt.want)
			}
		})
	}
}
