package console

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/adapters"
)

// recorder is a Handler that answers every message in its thread, like the bot does.
type recorder struct {
	mu        sync.Mutex
	messages  []adapters.Message
	reactions []adapters.Reaction
}

func (r *recorder) HandleMessage(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	r.mu.Lock()
	r.messages = append(r.messages, m)
	r.mu.Unlock()
	a.(adapters.Threader).Reply(ctx, m.Post, adapters.NewDoc(adapters.Heading{Text: "heard " + m.Text}, adapters.Table{Header: []string{"a", "bb"}, Rows: [][]string{{"long", "x"}}}))
}

func (r *recorder) HandleReaction(_ context.Context, _ adapters.Adapter, re adapters.Reaction) {
	r.mu.Lock()
	r.reactions = append(r.reactions, re)
	r.mu.Unlock()
}

func TestScriptedConversation(t *testing.T) {
	script := strings.Join([]string{
		"@eos create grafana",
		"/as bob",
		"/react 2 👍",
		"/react 9 +1",
		"/unreact 2 +1",
		"/frobnicate",
		"# a comment",
		"/quit",
		"@eos never read",
	}, "\n")
	var out strings.Builder
	idle := 0
	c := New(Config{In: strings.NewReader(script), Out: &out, User: "alice", Echo: true, Idle: func(context.Context) error { idle++; return nil }})
	h := &recorder{}
	if err := c.Run(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	first := c.Ref(c.Posts()[0]).ID
	if len(h.messages) != 1 || h.messages[0].Author.Name != "alice" || h.messages[0].Post.ID != first || !h.messages[0].Direct {
		t.Fatalf("messages = %+v", h.messages)
	}
	if len(h.reactions) != 2 || h.reactions[0].Emoji != "+1" || h.reactions[0].User.Name != "bob" || h.reactions[0].Post.Thread != first ||
		!h.reactions[1].Removed {
		t.Fatalf("reactions = %+v", h.reactions)
	}
	if idle != 1 {
		t.Errorf("Idle called %d times, want once at /quit", idle)
	}
	want := []string{
		"[1] alice: @eos create grafana",
		"[2] ↳1 eos: heard @eos create grafana",
		"            a    | bb",
		"            long | x",
		"  (now typing as @bob)",
		"  (there is no post 9 (posts are numbered 1 to 2))",
		"  (unknown console command /frobnicate — /help lists them)",
	}
	for _, w := range want {
		if !strings.Contains(out.String(), w+"\n") {
			t.Errorf("transcript lacks %q:\n%s", w, out.String())
		}
	}
	if strings.Contains(out.String(), "never read") {
		t.Error("a line after /quit was read")
	}
}

func TestEditAndReactions(t *testing.T) {
	var out strings.Builder
	c := New(Config{Out: &out})
	ctx := context.Background()
	ref, _ := c.Post(ctx, "local", adapters.NewDoc(adapters.Text{Text: "Run 1 · Terraform ⏳"}))
	if err := c.Edit(ctx, ref, adapters.NewDoc(adapters.Text{Text: "Run 1 · done"})); err != nil {
		t.Fatal(err)
	}
	if err := c.React(ctx, ref, "eyes"); err != nil {
		t.Fatal(err)
	}
	if err := c.Edit(ctx, adapters.PostRef{ID: "7"}, adapters.Doc{}); err == nil {
		t.Error("editing a missing post succeeded")
	}
	posts := c.Posts()
	if len(posts) != 1 || posts[0].Text != "Run 1 · done" || posts[0].Edits != 1 {
		t.Fatalf("posts = %+v", posts)
	}
	rs, _ := c.Reactions(ctx, ref)
	if len(rs) != 1 || rs[0].Emoji != "eyes" || rs[0].User.Name != "eos" {
		t.Fatalf("reactions = %+v", rs)
	}
	if !strings.Contains(out.String(), "[1] eos (edited): Run 1 · done\n") {
		t.Errorf("edit not shown:\n%s", out.String())
	}
}

// A reference kept from an earlier session (a pending plan's preview in the store) must not
// reach the post of this session that has the same number: a ✅ there would approve a plan
// nobody in this session has seen.
func TestRefsOfAnEarlierSessionAreNoPosts(t *testing.T) {
	ctx := context.Background()
	earlier := New(Config{})
	old, _ := earlier.Post(ctx, "local", adapters.NewDoc(adapters.Text{Text: "Plan 1 · preview"}))

	c := New(Config{})
	c.Post(ctx, "local", adapters.NewDoc(adapters.Text{Text: "help"}))
	if _, err := c.Reactions(ctx, old); !errors.Is(err, adapters.ErrNoSuchPost) {
		t.Errorf("Reactions on an earlier session's post: %v, want ErrNoSuchPost", err)
	}
	if err := c.Edit(ctx, old, adapters.NewDoc(adapters.Text{Text: "Plan 1 · expired"})); !errors.Is(err, adapters.ErrNoSuchPost) {
		t.Errorf("Edit of an earlier session's post: %v, want ErrNoSuchPost", err)
	}
	if _, err := c.Reply(ctx, old, adapters.NewDoc(adapters.Text{Text: "in the thread"})); !errors.Is(err, adapters.ErrNoSuchPost) {
		t.Errorf("Reply to an earlier session's post: %v, want ErrNoSuchPost", err)
	}
	if err := c.Delete(ctx, old); !errors.Is(err, adapters.ErrNoSuchPost) {
		t.Errorf("Delete of an earlier session's post: %v, want ErrNoSuchPost", err)
	}
	if posts := c.Posts(); len(posts) != 1 || posts[0].Text != "help" || posts[0].Edits != 0 || posts[0].Removed {
		t.Fatalf("the earlier session's reference reached this session's post 1: %+v", posts)
	}
	if _, err := c.Reactions(ctx, c.Ref(c.Posts()[0])); err != nil {
		t.Errorf("Reactions on this session's post: %v", err)
	}
}

func TestWaitForGivesUpWithTheTranscript(t *testing.T) {
	c := New(Config{})
	c.Post(context.Background(), "local", adapters.NewDoc(adapters.Text{Text: "hello"}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.WaitFor(ctx, func(ps []Post) bool { return len(ps) > 5 })
	if err == nil || !strings.Contains(err.Error(), "[1] eos: hello") {
		t.Fatalf("err = %v", err)
	}
}

// On the console the name typed with /as is the identity: the same name, however it is
// typed, is the same id in every session, and LookupUser resolves a handle to that id.
func TestTheNameIsTheIdentity(t *testing.T) {
	script := "/as @Bob\n@eos status\n/react 1 +1\n/as bob\n/unreact 1 +1\n/as alice\n/react 1 +1\n"
	c := New(Config{In: strings.NewReader(script)})
	h := &recorder{}
	if err := c.Run(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	if len(h.messages) != 1 || h.messages[0].Author != (adapters.User{ID: "bob", Name: "Bob"}) {
		t.Fatalf("messages = %+v, want one by Bob with the id bob", h.messages)
	}
	if len(h.reactions) != 3 || h.reactions[0].User.ID != "bob" || h.reactions[1].User.ID != "bob" || h.reactions[2].User.ID != "alice" {
		t.Fatalf("reactions = %+v", h.reactions)
	}
	// bob's /unreact took back what @Bob gave: only alice's reaction is left.
	if rs := c.Posts()[0].Reactions; len(rs) != 1 || rs[0].User.ID != "alice" {
		t.Errorf("reactions left on the post: %+v, want only alice's", rs)
	}

	later := New(Config{})
	for _, handle := range []string{"bob", "@bob", " BOB "} {
		if u, err := later.LookupUser(context.Background(), handle); err != nil || u.ID != h.messages[0].Author.ID {
			t.Errorf("LookupUser(%q) in another session = %+v, %v; want the id %q", handle, u, err, h.messages[0].Author.ID)
		}
	}
	for _, handle := range []string{"", "@", "  "} {
		if u, err := later.LookupUser(context.Background(), handle); !errors.Is(err, adapters.ErrNoSuchUser) {
			t.Errorf("LookupUser(%q) = %+v, %v; want ErrNoSuchUser", handle, u, err)
		}
	}
}

// An edit is printed as what changed in the post: a preview whose status line changes shows
// that line alone, not the whole preview again (three copies of every plan before).
func TestAnEditPrintsOnlyWhatChanged(t *testing.T) {
	var out strings.Builder
	c := New(Config{Out: &out, BotName: "eos"})
	ctx := context.Background()
	ref, _ := c.Post(ctx, "local", adapters.NewDoc(adapters.Text{Text: "Plan 1 · create grafana\nlayer | what changes\nReact ✅ to approve"}))
	if err := c.Edit(ctx, ref, adapters.NewDoc(adapters.Text{Text: "Plan 1 · create grafana\nlayer | what changes\n1 of 2: @bob ✅ · React ✅ to approve"})); err != nil {
		t.Fatal(err)
	}
	if err := c.Edit(ctx, ref, adapters.NewDoc(adapters.Text{Text: "Plan 1 · create grafana\nlayer | what changes\n1 of 2: @bob ✅ · React ✅ to approve"})); err != nil {
		t.Fatal(err)
	}
	want := "[1] eos (edited): 1 of 2: @bob ✅ · React ✅ to approve\n[1] eos (edited): (no visible change)\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("edits printed as:\n%s\nwant them to end with:\n%s", out.String(), want)
	}
	if n := strings.Count(out.String(), "Plan 1 · create grafana"); n != 1 {
		t.Errorf("the unchanged heading was printed %d times, want once", n)
	}
	if got := c.Posts()[0].Text; !strings.HasPrefix(got, "Plan 1 · create grafana\n") {
		t.Errorf("the post itself lost its text: %q", got)
	}
}
