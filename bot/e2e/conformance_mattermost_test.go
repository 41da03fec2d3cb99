package e2e_test

// Mattermost for the conformance suite (conformance_test.go): a real server, found through
// mmtest.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
)

// mmMaxRunes is Mattermost's limit on a post's message (model.PostMessageMaxRunesV2).
const mmMaxRunes = model.PostMessageMaxRunesV2

// mattermostPlatform is a channel of its own on the real server.
type mattermostPlatform struct {
	s  *mmtest.Server
	ch *model.Channel
}

func (m *mattermostPlatform) start(t *testing.T, opts eostest.Options) *eostest.Harness {
	m.s = mmtest.Real(t)
	m.ch = m.s.Channel(t, "conformance")
	return startMMBot(t, m.s, m.ch, opts).Harness
}

func (m *mattermostPlatform) person(t *testing.T, name string) *mmtest.Person {
	t.Helper()
	p := map[string]*mmtest.Person{"alice": m.s.Alice, "bob": m.s.Bob, "carol": m.s.Carol}[name]
	if p == nil {
		t.Fatalf("mmtest has no %s", name)
	}
	return p
}

func (m *mattermostPlatform) say(t *testing.T, user, thread, text string) string {
	t.Helper()
	p := m.person(t, user).Say(t, m.ch.Id, thread, text)
	if thread != "" {
		return thread
	}
	return p.Id
}

func (m *mattermostPlatform) react(t *testing.T, user, post, emoji string) {
	t.Helper()
	m.person(t, user).React(t, post, emoji)
}

func (m *mattermostPlatform) thread(t *testing.T, root string) []post {
	t.Helper()
	posts, err := m.s.Thread(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return m.botPosts(t, posts)
}

// botPosts are the bot's posts among posts, as people read them.
func (m *mattermostPlatform) botPosts(t *testing.T, posts []*model.Post) []post {
	t.Helper()
	var out []post
	for _, p := range posts {
		if p.UserId != m.s.Bot.Id {
			continue
		}
		// A plan too long for one post comes as an attached file: read it like a person would.
		text := p.Message
		for _, id := range p.FileIds {
			data, _, err := m.s.Admin.GetFile(context.Background(), id)
			if err != nil {
				t.Fatalf("reading file %s of post %s: %v", id, p.Id, err)
			}
			text += "\n" + string(data)
		}
		out = append(out, post{ID: p.Id, Text: text, Edited: p.EditAt != 0, Root: p.RootId, raw: p.Message})
	}
	return out
}

func (m *mattermostPlatform) posts(t *testing.T) []post {
	t.Helper()
	list, _, err := m.s.Admin.GetPostsForChannel(context.Background(), m.ch.Id, 0, 200, "", false, false)
	if err != nil {
		t.Fatalf("reading channel %s: %v", m.ch.Name, err)
	}
	posts := make([]*model.Post, 0, len(list.Order))
	for _, id := range slices.Backward(list.Order) { // Order is newest first
		posts = append(posts, list.Posts[id])
	}
	return m.botPosts(t, posts)
}

func (m *mattermostPlatform) gone(t *testing.T, id string) bool {
	t.Helper()
	p, resp, err := m.s.Admin.GetPost(context.Background(), id, "")
	switch {
	case resp != nil && resp.StatusCode == http.StatusNotFound:
		return true
	case err != nil:
		t.Fatalf("reading post %s: %v", id, err)
	}
	return p.DeleteAt != 0
}

// The bot is a team admin (mmtest): it may delete people's posts.
func (*mattermostPlatform) deletes() bool { return true }

func (*mattermostPlatform) limit() int { return mmMaxRunes }

func (*mattermostPlatform) withinLimit(p post) error {
	msg, _ := p.raw.(string)
	if n := utf8.RuneCountInString(msg); n > mmMaxRunes {
		return fmt.Errorf("%d characters, more than %d", n, mmMaxRunes)
	}
	return nil
}

// dropConnection stops the server, so the adapter can but wait, and starts it again.
func (m *mattermostPlatform) dropConnection(t *testing.T, whileDown func()) bool {
	m.s.Outage(t, whileDown)
	return true
}
