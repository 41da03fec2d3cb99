package console

import (
	"context"
	"strings"
	"testing"
)

// /reply N TEXT says TEXT in post N's thread (the thread of N's root when N is a reply), and
// the bot answers there; a post that does not exist or a reply without text is refused with a
// note and reaches no handler.
func TestReplyCommand(t *testing.T) {
	script := strings.Join([]string{
		"@eos create grafana", // 1, answered by 2 in 1's thread
		"/as bob",
		"/reply 2 @eos why", // 3 in 1's thread (2 is a reply), answered by 4 there
		"/reply 9 @eos why", // no such post
		"/reply 1",          // no text
	}, "\n")
	var out strings.Builder
	c := New(Config{In: strings.NewReader(script), Out: &out, User: "alice", Echo: true})
	h := &recorder{}
	if err := c.Run(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	if len(h.messages) != 2 {
		t.Fatalf("the handler heard %d messages, want the request and one reply: %+v", len(h.messages), h.messages)
	}
	m := h.messages[1]
	if m.Text != "@eos why" || m.Author.Name != "bob" || m.Post.Thread != c.Ref(c.Posts()[0]).ID {
		t.Errorf("the reply reached the bot as %+v, want bob's text in post 1's thread", m)
	}
	posts := c.Posts()
	if len(posts) != 4 || posts[2].Thread != 1 || posts[3].Thread != 1 {
		t.Errorf("posts = %+v, want the reply and the bot's answer in post 1's thread", posts)
	}
	for _, want := range []string{"[3] ↳1 bob: @eos why", "there is no post 9", "usage: /reply N TEXT"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out.String())
		}
	}
}
