package bot

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// threadFake is a platform with threads that records each post: in which thread, or at
// channel level, and which posts it deleted.
type threadFake struct {
	replies []adapters.PostRef // the parent of each reply
	docs    []adapters.Doc
	channel []string // the channel of each post at channel level
	deleted []adapters.PostRef
}

func (f *threadFake) Name() string                                { return "fake" }
func (f *threadFake) Run(context.Context, adapters.Handler) error { return nil }
func (f *threadFake) Post(_ context.Context, ch string, doc adapters.Doc) (adapters.PostRef, error) {
	f.channel, f.docs = append(f.channel, ch), append(f.docs, doc)
	return adapters.PostRef{Platform: "fake", Channel: ch, ID: "p"}, nil
}
func (f *threadFake) Reply(_ context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	f.replies, f.docs = append(f.replies, parent), append(f.docs, doc)
	return adapters.PostRef{Platform: "fake", Channel: parent.Channel, ID: "r", Thread: parent.Root()}, nil
}
func (f *threadFake) Delete(_ context.Context, post adapters.PostRef) error {
	f.deleted = append(f.deleted, post)
	return nil
}

// What a handler returns is posted once, in the thread it names (the post it answers unless
// it names another), nothing when it is silent, and with the message taken down when it
// holds a typed secret.
func TestAHandlersAnswerIsPostedOnceWhereItSays(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "eos.db"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := &Engine{st: st, log: slog.New(slog.DiscardHandler)}
	e.cfg.Now = func() time.Time { return time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	msg := adapters.PostRef{Platform: "fake", Channel: "c1", ID: "m1", Thread: "t1"}
	preview := adapters.PostRef{Platform: "fake", Channel: "c1", ID: "v1", Thread: "t1"}
	r := adapters.Reaction{Post: preview, User: adapters.User{ID: "u2", Name: "bob"}, Emoji: "white_check_mark"}
	c := conv{adapter: nil, msg: adapters.Message{Post: msg, Author: adapters.User{ID: "u1", Name: "alice"}}}

	for _, tc := range []struct {
		name    string
		post    func(f *threadFake)
		replies []adapters.PostRef
		deleted int
	}{
		{"silent reaction", func(f *threadFake) { e.answerReaction(ctx, f, r, answer{}) }, nil, 0},
		{"reaction", func(f *threadFake) { e.answerReaction(ctx, f, r, said(render.Reply("noted"))) }, []adapters.PostRef{preview}, 0},
		{"reaction answered elsewhere", func(f *threadFake) {
			e.answerReaction(ctx, f, r, answer{doc: render.Reply("noted"), to: msg})
		}, []adapters.PostRef{msg}, 0},
		{"silent message", func(f *threadFake) { c.adapter = f; e.answerMessage(ctx, c, answer{}) }, nil, 0},
		{"message", func(f *threadFake) { c.adapter = f; e.answerMessage(ctx, c, said(render.Reply("done"))) }, []adapters.PostRef{msg}, 0},
		{"message with a typed secret", func(f *threadFake) {
			c.adapter = f
			e.answerMessage(ctx, c, answer{doc: render.Reply("Secrets are never typed in chat."), takeDown: true})
		}, []adapters.PostRef{msg}, 1},
	} {
		f := &threadFake{}
		tc.post(f)
		if len(f.replies) != len(tc.replies) || len(f.channel) != 0 {
			t.Errorf("%s: replies under %v and %d at channel level, want replies under %v only", tc.name, f.replies, len(f.channel), tc.replies)
			continue
		}
		for i := range tc.replies {
			if f.replies[i] != tc.replies[i] {
				t.Errorf("%s: reply %d under %v, want under %v", tc.name, i, f.replies[i], tc.replies[i])
			}
		}
		if len(f.deleted) != tc.deleted {
			t.Errorf("%s: deleted %v, want %d posts", tc.name, f.deleted, tc.deleted)
		}
		if tc.deleted > 0 && !strings.Contains(f.docs[0].Plain(), "I deleted your message") {
			t.Errorf("%s: the answer does not say the message was taken down:\n%s", tc.name, f.docs[0].Plain())
		}
	}
}
