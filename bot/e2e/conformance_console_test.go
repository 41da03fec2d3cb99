package e2e_test

// The console for the conformance suite (conformance_test.go).

import (
	"context"
	"strconv"
	"testing"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
)

// consolePlatform is the harness's own console: no threads for people, no limits, no
// connection.
type consolePlatform struct{ h *eostest.Harness }

func (c *consolePlatform) start(t *testing.T, opts eostest.Options) *eostest.Harness {
	c.h = eostest.New(t, opts)
	return c.h
}

func (c *consolePlatform) say(t *testing.T, user, thread string, text string) string {
	t.Helper()
	after := c.h.Last()
	if thread != "" {
		n, err := strconv.Atoi(thread)
		if err != nil {
			t.Fatalf("console thread %q is not a post number", thread)
		}
		c.h.Reply(user, n, text)
	} else {
		c.h.Say(user, text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), eostest.Timeout)
	defer cancel()
	var id int
	_, err := c.h.Console.WaitFor(ctx, func(posts []console.Post) bool {
		for _, p := range posts[after:] {
			// The bot may have removed it already (a typed secret).
			if p.Author == user && (p.Text == text || p.Removed) {
				id = p.ID
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("the console never showed %q: %v", text, err)
	}
	if thread != "" {
		return thread
	}
	return strconv.Itoa(id)
}

func (c *consolePlatform) react(t *testing.T, user, post, emoji string) {
	t.Helper()
	id, err := strconv.Atoi(post)
	if err != nil {
		t.Fatal(err)
	}
	c.h.React(user, id, unicodeEmoji[emoji])
}

func (c *consolePlatform) thread(_ *testing.T, root string) []post {
	var out []post
	for _, p := range c.h.Console.Posts() {
		if p.Author == "eos" && strconv.Itoa(p.Thread) == root {
			out = append(out, post{ID: strconv.Itoa(p.ID), Text: p.Text + "\n" + p.Attachment, Edited: p.Edits > 0})
		}
	}
	return out
}

func (c *consolePlatform) posts(*testing.T) []post {
	var out []post
	for _, p := range c.h.Console.Posts() {
		if p.Author == "eos" {
			q := post{ID: strconv.Itoa(p.ID), Text: p.Text + "\n" + p.Attachment, Edited: p.Edits > 0}
			if p.Thread != 0 {
				q.Root = strconv.Itoa(p.Thread)
			}
			out = append(out, q)
		}
	}
	return out
}

func (c *consolePlatform) gone(t *testing.T, id string) bool {
	t.Helper()
	for _, p := range c.h.Console.Posts() {
		if strconv.Itoa(p.ID) == id {
			return p.Removed
		}
	}
	t.Fatalf("the console has no post %s", id)
	return false
}

func (*consolePlatform) limit() int                             { return 0 }
func (*consolePlatform) withinLimit(post) error                 { return nil }
func (*consolePlatform) dropConnection(*testing.T, func()) bool { return false }
func (*consolePlatform) deletes() bool                          { return true }
