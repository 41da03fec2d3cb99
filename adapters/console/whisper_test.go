package console

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

// whisperer answers every message with a whisper to its author, as `@eos web` does.
type whisperer struct {
	recorder
	err error
}

func (w *whisperer) HandleMessage(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	if err := a.(adapters.Whisperer).Whisper(ctx, m.Author, m.Post, adapters.NewDoc(adapters.Text{Text: "link for " + m.Author.Name + "\nsecond line"})); err != nil {
		w.err = err
	}
}

// A whisper is labelled as meant for one person, takes no post number (nobody can react to
// it), and is kept for tests with the post it answers.
func TestWhisperIsLabelledAndNotAPost(t *testing.T) {
	var out strings.Builder
	c := New(Config{In: strings.NewReader("/as Alice\n@eos web\n@eos status"), Out: &out, Echo: true})
	h := &whisperer{}
	if err := c.Run(context.Background(), h); err != nil || h.err != nil {
		t.Fatal(err, h.err)
	}
	posts := c.Posts()
	if len(posts) != 2 || posts[0].Author != "Alice" || posts[1].Author != "Alice" {
		t.Fatalf("posts = %+v, want only Alice's two", posts)
	}
	ws := c.Whispers()
	if len(ws) != 2 || ws[0].To != (adapters.User{ID: "alice", Name: "Alice"}) || ws[0].Near != c.Ref(posts[0]) ||
		ws[0].Text != "link for Alice\nsecond line" || ws[1].Near != c.Ref(posts[1]) {
		t.Fatalf("whispers = %+v", ws)
	}
	want := "[1] Alice: @eos web\n" +
		"  eos → @Alice, privately: link for Alice\n" +
		"                           second line\n" +
		"[2] Alice: @eos status\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("transcript:\n%s\nwant it to contain:\n%s", out.String(), want)
	}
	if err := c.Whisper(context.Background(), adapters.User{Name: "nobody"}, c.Ref(posts[0]), adapters.Doc{}); err == nil {
		t.Error("a whisper to a user without an id was sent")
	}
}

// Anyone can read the console's one channel; no other channel exists.
func TestCanViewTheOneChannel(t *testing.T) {
	c := New(Config{Channel: "ops"})
	ctx := context.Background()
	for _, tc := range []struct {
		user    adapters.User
		channel string
		want    bool
	}{
		{adapters.User{ID: "bob", Name: "bob"}, "ops", true},
		{adapters.User{ID: "bob", Name: "bob"}, "local", false},
		{adapters.User{ID: "bob", Name: "bob"}, "", false},
		{adapters.User{}, "ops", false},
	} {
		if got, err := c.CanView(ctx, tc.user, tc.channel); err != nil || got != tc.want {
			t.Errorf("CanView(%+v, %q) = %v, %v; want %v", tc.user, tc.channel, got, err, tc.want)
		}
	}
}
