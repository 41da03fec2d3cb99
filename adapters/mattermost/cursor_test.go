package mattermost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"
)

// The first catch-up of a channel starts at its stored cursor less the margin, never further
// back than CatchUpMax (and says so); a channel without a cursor, and every later catch-up,
// starts where it did without cursors.
func TestFirstCatchUpStartsAtTheStoredCursor(t *testing.T) {
	const margin = int64(catchUpMargin / time.Millisecond)
	hours := func(h int) int64 { return time.Now().Add(-time.Duration(h) * time.Hour).UnixMilli() }
	tests := []struct {
		name       string
		catchUpMax time.Duration
		want       time.Duration // the bound in effect
	}{
		{"default", 0, 24 * time.Hour},
		{"set", 30 * time.Minute, 30 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, recent, fresh := model.NewId(), model.NewId(), model.NewId()
			store := newMemCursors()
			store.set(old, hours(48))
			recentAt := time.Now().Add(-tt.want / 2).UnixMilli()
			store.set(recent, recentAt)
			var logs bytes.Buffer
			f := newFakeAPI(botUser, aliceUser)
			tooOld := &model.Post{Id: model.NewId(), ChannelId: old, UserId: aliceUser.Id, Message: "@eos too old",
				CreateAt: time.Now().Add(-tt.want - time.Hour).UnixMilli(), UpdateAt: hours(0)}
			inside := &model.Post{Id: model.NewId(), ChannelId: old, UserId: aliceUser.Id, Message: "@eos inside the bound",
				CreateAt: time.Now().Add(-tt.want * 3 / 4).UnixMilli()}
			f.listed[old] = []*model.Post{tooOld, inside}
			a := fakeAdapterConfig(t, f, Config{Cursors: store, CatchUpMax: tt.catchUpMax,
				Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			a.served = map[string]model.ChannelType{old: model.ChannelTypeOpen, recent: model.ChannelTypeOpen, fresh: model.ChannelTypeOpen}
			runStart := time.Now().UnixMilli()
			a.lastSeen = runStart

			var c collector
			before := time.Now()
			a.catchUp(context.Background(), &c, botUser)
			after := time.Now()

			if got := f.sinceAsked[old]; len(got) != 1 || got[0] < before.Add(-tt.want).UnixMilli() || got[0] > after.Add(-tt.want).UnixMilli() {
				t.Errorf("channel with a 48 h old cursor read since %v, want %s ago", got, tt.want)
			}
			if got := f.sinceAsked[recent]; !slices.Equal(got, []int64{recentAt - margin}) {
				t.Errorf("channel with a recent cursor read since %v, want [%d] (cursor less the margin)", got, recentAt-margin)
			}
			if got := f.sinceAsked[fresh]; !slices.Equal(got, []int64{runStart - margin}) {
				t.Errorf("channel without a cursor read since %v, want [%d] (Run's start less the margin)", got, runStart-margin)
			}
			if len(c.msgs) != 1 || c.msgs[0].Text != inside.Message {
				t.Errorf("delivered %+v, want only %q", c.msgs, inside.Message)
			}
			if n := strings.Count(logs.String(), "catch-up cut at CatchUpMax"); n != 1 || !strings.Contains(logs.String(), "channel="+old) {
				t.Errorf("want one warning about the cut, for channel %s; logs:\n%s", old, logs.String())
			}
			if got := store.get(old); got != inside.CreateAt {
				t.Errorf("after the catch-up the cursor is %d, want the delivered post's %d", got, inside.CreateAt)
			}
			if got := store.get(fresh); got != 0 {
				t.Errorf("a channel with nothing delivered got cursor %d", got)
			}

			// A reconnection reads every channel from the newest post heard, not the cursors.
			a.catchUp(context.Background(), &c, botUser)
			last := inside.CreateAt
			if runStart > last {
				last = runStart
			}
			for _, ch := range []string{old, recent, fresh} {
				if got := f.sinceAsked[ch]; len(got) != 2 || got[1] != last-margin {
					t.Errorf("channel %s read since %v on reconnecting, want %d second", ch, got, last-margin)
				}
			}
			if len(c.msgs) != 1 {
				t.Errorf("the reconnection delivered again: %+v", c.msgs)
			}
		})
	}
}

// A channel whose first catch-up failed keeps its starting point for the next one, although
// live posts have moved its cursor meanwhile.
func TestFailedFirstCatchUpKeepsItsStart(t *testing.T) {
	ch := model.NewId()
	store := newMemCursors()
	cursor := time.Now().Add(-time.Hour).UnixMilli()
	store.set(ch, cursor)
	a := fakeAdapterConfig(t, newFakeAPI(botUser, aliceUser), Config{Cursors: store, Logger: slog.New(slog.DiscardHandler)})
	ctx := context.Background()
	want := cursor - catchUpMargin.Milliseconds()
	if got := a.cursors.start(ctx, ch, time.Now().UnixMilli()); got != want {
		t.Fatalf("first start = %d, want %d", got, want)
	}
	a.advance(ctx, ch, time.Now().UnixMilli())
	if got := a.cursors.start(ctx, ch, time.Now().UnixMilli()); got != want {
		t.Errorf("start after a failed first catch-up and a live post = %d, want still %d", got, want)
	}
	a.cursors.caughtUp(ch)
	if fallback := time.Now().UnixMilli(); a.cursors.start(ctx, ch, fallback) != fallback {
		t.Errorf("start after the first catch-up read the channel is not the fallback")
	}
}

// The cursor follows the newest post or reaction delivered, whatever order they arrive in,
// and only for served channels.
func TestCursorNeverMovesBack(t *testing.T) {
	ch, other := model.NewId(), model.NewId()
	const stored = int64(1_700_000_000_000)
	store := newMemCursors()
	store.set(ch, stored)
	f := newFakeAPI(botUser, aliceUser)
	a := fakeAdapterConfig(t, f, Config{Cursors: store, Logger: slog.New(slog.DiscardHandler)})
	a.served = map[string]model.ChannelType{ch: model.ChannelTypeOpen}
	root := &model.Post{Id: model.NewId(), ChannelId: ch, UserId: aliceUser.Id, CreateAt: stored - 10_000}
	f.listed[ch] = []*model.Post{root}
	var c collector
	post := func(channel string, at int64, text string) {
		p := &model.Post{Id: model.NewId(), ChannelId: channel, UserId: aliceUser.Id, Message: text, CreateAt: at}
		a.dispatch(context.Background(), &c, botUser, wsEvent(t, model.WebsocketEventPosted, channel, "post", p))
	}
	react := func(at int64, removed bool) {
		r := &model.Reaction{UserId: aliceUser.Id, PostId: root.Id, EmojiName: "+1", CreateAt: at}
		typ := model.WebsocketEventReactionAdded
		if removed {
			typ = model.WebsocketEventReactionRemoved
		}
		a.dispatch(context.Background(), &c, botUser, wsEvent(t, typ, ch, "reaction", r))
	}

	post(ch, stored-2000, "@eos within the margin, delivered again by a new process")
	post(ch, stored+1000, "@eos newer")
	post(ch, stored+500, "stamped earlier, heard later")
	react(stored+800, false)
	react(stored+3000, false)
	react(stored+100, true) // a removal carries the reaction's CreateAt
	post(other, stored+9000, "@eos in a channel the bot does not serve")

	if got, want := store.saved(), []int64{stored + 1000, stored + 3000}; !slices.Equal(got, want) {
		t.Errorf("SetCursor calls %v, want %v", got, want)
	}
	if got := store.get(other); got != 0 {
		t.Errorf("an unserved channel got cursor %d", got)
	}
	if len(c.msgs) != 2 || len(c.reacts) != 3 {
		t.Errorf("delivered %d messages and %d reactions, want 2 and 3", len(c.msgs), len(c.reacts))
	}
}

// A store that cannot save does not stop delivery; the next delivery saves.
func TestCursorSaveFailureIsLogged(t *testing.T) {
	ch := model.NewId()
	store := newMemCursors()
	store.setErr = errors.New("disk full")
	var logs bytes.Buffer
	a := fakeAdapterConfig(t, newFakeAPI(botUser, aliceUser), Config{Cursors: store, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	var c collector
	at := time.Now().UnixMilli()
	deliver := func(at int64) {
		p := &model.Post{Id: model.NewId(), ChannelId: ch, UserId: aliceUser.Id, Message: "@eos status", CreateAt: at}
		a.dispatch(context.Background(), &c, botUser, wsEvent(t, model.WebsocketEventPosted, ch, "post", p))
	}
	deliver(at)
	if len(c.msgs) != 1 || !strings.Contains(logs.String(), "cursor not saved") || !strings.Contains(logs.String(), "disk full") {
		t.Errorf("delivered %d, logs:\n%s\nwant the post delivered and the failure logged", len(c.msgs), logs.String())
	}
	store.mu.Lock()
	store.setErr = nil
	store.mu.Unlock()
	deliver(at - 1)
	if got := store.get(ch); got != at-1 {
		t.Errorf("cursor %d after the store recovered, want %d", got, at-1)
	}
}

// wsEvent is a websocket event of typ in channel carrying v as JSON in field.
func wsEvent(t *testing.T, typ model.WebsocketEventType, channel, field string, v any) *model.WebSocketEvent {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	ev := model.NewWebSocketEvent(typ, "", channel, "", nil, "")
	ev.Add(field, string(data))
	ev.Add("channel_type", string(model.ChannelTypeOpen))
	return ev
}
