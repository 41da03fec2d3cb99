package enginetest_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
)

// chatFake is a small chat platform whose people have IDs apart from their handles, so that
// tests can rename someone, or have two platforms share a handle: the console cannot (there
// the handle is the identity). It implements Adapter, Threader, Editor and UserResolver.
type chatFake struct {
	name string

	mu      sync.Mutex
	handles map[string]adapters.User // handle → the user who holds it now
	posts   []fakePost
	changed chan struct{}
	h       adapters.Handler
	running chan struct{}
	stopped chan struct{}
	once    sync.Once
	// self is the adapter events come from: a fake that embeds this one, or nil for this one.
	self adapters.Adapter
	// onLookup, when set, runs (once) before the next LookupUser answers: a test's way to
	// change the world at that moment.
	onLookup func()
}

type fakePost struct {
	Ref    adapters.PostRef
	Author string
	Text   string
}

var (
	_ adapters.Threader     = (*chatFake)(nil)
	_ adapters.Editor       = (*chatFake)(nil)
	_ adapters.UserResolver = (*chatFake)(nil)
)

func newChatFake(name string, users ...adapters.User) *chatFake {
	c := &chatFake{name: name, handles: map[string]adapters.User{}, changed: make(chan struct{}), running: make(chan struct{}), stopped: make(chan struct{})}
	for _, u := range users {
		c.handles[u.Name] = u
	}
	return c
}

func (c *chatFake) Name() string { return c.name }

func (c *chatFake) Run(ctx context.Context, h adapters.Handler) error {
	c.mu.Lock()
	c.h = h
	c.mu.Unlock()
	close(c.running)
	select {
	case <-ctx.Done():
	case <-c.stopped:
	}
	return nil
}

func (c *chatFake) adapter() adapters.Adapter {
	if c.self != nil {
		return c.self
	}
	return c
}

// stop ends Run, as a platform that went away; the harness's engine then stops.
func (c *chatFake) stop() { c.once.Do(func() { close(c.stopped) }) }

func (c *chatFake) add(ref adapters.PostRef, author, text string) adapters.PostRef {
	c.mu.Lock()
	defer c.mu.Unlock()
	ref.Platform, ref.ID = c.name, fmt.Sprintf("p%d", len(c.posts)+1)
	c.posts = append(c.posts, fakePost{Ref: ref, Author: author, Text: text})
	close(c.changed)
	c.changed = make(chan struct{})
	return ref
}

func (c *chatFake) Post(_ context.Context, channel string, doc adapters.Doc) (adapters.PostRef, error) {
	return c.add(adapters.PostRef{Channel: channel}, "eos", doc.Plain()), nil
}

func (c *chatFake) Reply(_ context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	return c.add(adapters.PostRef{Channel: parent.Channel, Thread: parent.Root()}, "eos", doc.Plain()), nil
}

func (c *chatFake) Edit(_ context.Context, ref adapters.PostRef, doc adapters.Doc) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.posts {
		if c.posts[i].Ref.ID == ref.ID {
			c.posts[i].Text = doc.Plain()
			close(c.changed)
			c.changed = make(chan struct{})
			return nil
		}
	}
	return adapters.ErrNoSuchPost
}

func (c *chatFake) LookupUser(_ context.Context, handle string) (adapters.User, error) {
	c.mu.Lock()
	hook := c.onLookup
	c.onLookup = nil
	c.mu.Unlock()
	if hook != nil {
		hook()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if u, ok := c.handles[strings.TrimPrefix(handle, "@")]; ok {
		return u, nil
	}
	return adapters.User{}, adapters.ErrNoSuchUser
}

// rename gives the user with id a new handle; the old one is free afterwards.
func (c *chatFake) rename(id, handle string) adapters.User {
	c.mu.Lock()
	defer c.mu.Unlock()
	for old, u := range c.handles {
		if u.ID == id {
			delete(c.handles, old)
			u.Name = handle
			c.handles[handle] = u
			return u
		}
	}
	panic("no user " + id)
}

func (c *chatFake) user(handle string) adapters.User {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.handles[handle]
}

// say delivers a message from u in channel and returns its post.
func (c *chatFake) say(t *testing.T, u adapters.User, channel, text string) adapters.PostRef {
	t.Helper()
	<-c.running
	ref := c.add(adapters.PostRef{Channel: channel}, u.Name, text)
	c.h.HandleMessage(context.Background(), c.adapter(), adapters.Message{Post: ref, Author: u, Text: text, At: time.Now()})
	return ref
}

// sayIn delivers text from u as a reply in the thread of post parent.
func (c *chatFake) sayIn(t *testing.T, u adapters.User, parent adapters.PostRef, text string) adapters.PostRef {
	t.Helper()
	<-c.running
	ref := c.add(adapters.PostRef{Channel: parent.Channel, Thread: parent.Root()}, u.Name, text)
	c.h.HandleMessage(context.Background(), c.adapter(), adapters.Message{Post: ref, Author: u, Text: text, At: time.Now()})
	return ref
}

// react delivers u's emoji on post.
func (c *chatFake) react(u adapters.User, post adapters.PostRef, emoji string) {
	<-c.running
	c.h.HandleReaction(context.Background(), c.adapter(), adapters.Reaction{Post: post, User: u, Emoji: emoji, At: time.Now()})
}

// wait returns the first bot post after the first n posts whose text holds every one of texts.
func (c *chatFake) wait(t *testing.T, n int, texts ...string) fakePost {
	t.Helper()
	deadline := time.After(eostest.Timeout)
	for {
		c.mu.Lock()
		changed := c.changed
		for _, p := range c.posts[min(n, len(c.posts)):] {
			if p.Author == "eos" && eostest.ContainsAll(p.Text, texts...) {
				c.mu.Unlock()
				return p
			}
		}
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no post with %q on %s after %s; posts:\n%s", texts, c.name, eostest.Timeout, c.dump())
		}
	}
}

// count is how many posts there are.
func (c *chatFake) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.posts)
}

// texts are the bot's posts after the first n.
func (c *chatFake) texts(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, p := range c.posts[min(n, len(c.posts)):] {
		if p.Author == "eos" {
			out = append(out, p.Text)
		}
	}
	return out
}

func (c *chatFake) dump() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, p := range c.posts {
		fmt.Fprintf(&b, "[%s %s] %s: %s\n", p.Ref.ID, p.Ref.Thread, p.Author, p.Text)
	}
	return b.String()
}
