package console

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

// changeRecorder is a recorder that also hears edits and deletions.
type changeRecorder struct {
	recorder
	edits   []adapters.Message
	deletes []adapters.PostRef
}

var _ adapters.ChangeHandler = (*changeRecorder)(nil)

func (r *changeRecorder) HandleEdit(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.edits = append(r.edits, m)
}

func (r *changeRecorder) HandleDelete(_ context.Context, _ adapters.Adapter, post adapters.PostRef) {
	r.deletes = append(r.deletes, post)
}

// /edit and /delete change a person's post and tell a ChangeHandler; the bot's posts, posts
// that do not exist and a deleted post are refused with a note.
func TestEditAndDeleteCommands(t *testing.T) {
	script := strings.Join([]string{
		"@eos create grafana", // 1, answered by 2
		"/edit 1 @eos create jenkins",
		"/edit 2 hijacked", // the bot's
		"/edit 9 nothing",  // no such post
		"/edit 1",          // no text
		"/as bob",
		"@eos status", // 3, answered by 4
		"/delete 3",
		"/delete 3", // deleted already
		"/edit 3 back",
	}, "\n")
	var out strings.Builder
	c := New(Config{In: strings.NewReader(script), Out: &out, User: "alice", Echo: true})
	h := &changeRecorder{}
	if err := c.Run(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	posts := c.Posts()
	if len(h.edits) != 1 || h.edits[0].Text != "@eos create jenkins" || h.edits[0].Post != c.Ref(posts[0]) || h.edits[0].Author.Name != "alice" {
		t.Fatalf("edits = %+v, want alice's one edit of post 1", h.edits)
	}
	if len(h.deletes) != 1 || h.deletes[0] != c.Ref(posts[2]) {
		t.Fatalf("deletes = %+v, want post 3", h.deletes)
	}
	if posts[0].Text != "@eos create jenkins" || posts[0].Edits != 1 || !posts[2].Removed || posts[2].Text != DeletedText {
		t.Errorf("posts after the changes: 1 = %q (%d edits), 3 = %q (removed %v)", posts[0].Text, posts[0].Edits, posts[2].Text, posts[2].Removed)
	}
	if strings.HasPrefix(posts[1].Text, "hijacked") {
		t.Error("the bot's post was edited")
	}
	for _, want := range []string{"[1] alice (edited): @eos create jenkins", "post 2 is the bot's", "there is no post 9", "usage: /edit N TEXT",
		"post 3 is deleted already", "[3] bob: " + DeletedText} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}
}

// A handler that is no ChangeHandler hears nothing of edits, and the post changes all the same.
func TestEditWithoutChangeHandler(t *testing.T) {
	c := New(Config{In: strings.NewReader("hello\n/edit 1 bye"), User: "alice"})
	if err := c.Run(context.Background(), &recorder{}); err != nil {
		t.Fatal(err)
	}
	if got := c.Posts()[0].Text; got != "bye" {
		t.Errorf("post 1 = %q after /edit, want bye", got)
	}
}
