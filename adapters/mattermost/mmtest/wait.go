package mmtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"
)

// pollEvery is how often the waits ask the server again, and askTimeout bounds one question.
const (
	pollEvery  = 200 * time.Millisecond
	askTimeout = 10 * time.Second
)

// poll calls try until it reports done, or fails the test after Timeout with what try last
// saw. Errors count as "not yet": the server may be restarting.
func poll(t testing.TB, what string, try func(ctx context.Context) (done bool, seen string, err error)) {
	t.Helper()
	deadline := time.Now().Add(Timeout)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	var seen string
	var lastErr error
	for {
		ctx, cancel := context.WithTimeout(context.Background(), askTimeout)
		done, s, err := try(ctx)
		cancel()
		switch {
		case done:
			return
		case err != nil:
			lastErr = err
		default:
			seen, lastErr = s, nil
		}
		if time.Now().After(deadline) {
			if lastErr != nil {
				seen += fmt.Sprintf("(then the server failed: %v)\n", lastErr)
			}
			t.Fatalf("waiting for %s: not within %s; last seen:\n%s", what, Timeout, seen)
		}
		<-tick.C
	}
}

// Thread returns the posts of root's thread, root first, oldest first.
func (s *Server) Thread(ctx context.Context, root string) ([]*model.Post, error) {
	list, _, err := s.Admin.GetPostThread(ctx, root, "", false)
	if err != nil {
		return nil, fmt.Errorf("reading thread %s: %w", root, err)
	}
	posts := make([]*model.Post, 0, len(list.Posts))
	for _, p := range list.Posts {
		posts = append(posts, p)
	}
	slices.SortFunc(posts, func(x, y *model.Post) int { return int(x.CreateAt - y.CreateAt) })
	return posts, nil
}

// WaitPost waits for a post in root's thread (root included) for which match holds, and
// returns it as the server has it then.
func (s *Server) WaitPost(t testing.TB, root string, match func(*model.Post) bool) *model.Post {
	t.Helper()
	var found *model.Post
	poll(t, "a post in thread "+root, func(ctx context.Context) (bool, string, error) {
		posts, err := s.Thread(ctx, root)
		if err != nil {
			return false, "", err
		}
		var b strings.Builder
		for _, p := range posts {
			if match(p) {
				found = p
				return true, "", nil
			}
			fmt.Fprintf(&b, "  %s (edited %t): %q\n", s.username(p.UserId), p.EditAt > 0, p.Message)
		}
		return false, b.String(), nil
	})
	return found
}

// WaitReaction waits for a reaction on post for which match holds.
func (s *Server) WaitReaction(t testing.TB, post string, match func(*model.Reaction) bool) *model.Reaction {
	t.Helper()
	var found *model.Reaction
	poll(t, "a reaction on post "+post, func(ctx context.Context) (bool, string, error) {
		list, _, err := s.Admin.GetReactions(ctx, post)
		if err != nil {
			return false, "", fmt.Errorf("reading reactions of %s: %w", post, err)
		}
		var seen []string
		for _, r := range list {
			if match(r) {
				found = r
				return true, "", nil
			}
			seen = append(seen, s.username(r.UserId)+" "+r.EmojiName)
		}
		return false, strings.Join(seen, ", "), nil
	})
	return found
}

// Post reads a post back from the server.
func (s *Server) Post(t testing.TB, id string) *model.Post {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	p, _, err := s.Admin.GetPost(ctx, id, "")
	if err != nil {
		t.Fatalf("reading post %s: %v", id, err)
	}
	return p
}

// username names a seeded account for failure messages.
func (s *Server) username(id string) string {
	for _, u := range []*model.User{s.Alice.User, s.Bob.User, s.Carol.User, s.Bot, s.OtherBot.User} {
		if u.Id == id {
			return u.Username
		}
	}
	return id
}

// Say posts text as p in channel (in thread root when set).
func (p *Person) Say(t testing.TB, channel, root, text string) *model.Post {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	post, _, err := p.Client.CreatePost(ctx, &model.Post{ChannelId: channel, RootId: root, Message: text})
	if err != nil {
		t.Fatalf("%s posting %q: %v", p.User.Username, text, err)
	}
	return post
}

// React adds p's emoji (a name such as "+1") to post.
func (p *Person) React(t testing.TB, post, emoji string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if _, _, err := p.Client.SaveReaction(ctx, &model.Reaction{UserId: p.User.Id, PostId: post, EmojiName: emoji}); err != nil {
		t.Fatalf("%s reacting %s on %s: %v", p.User.Username, emoji, post, err)
	}
}

// Unreact removes p's emoji from post.
func (p *Person) Unreact(t testing.TB, post, emoji string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if _, err := p.Client.DeleteReaction(ctx, &model.Reaction{UserId: p.User.Id, PostId: post, EmojiName: emoji}); err != nil {
		t.Fatalf("%s removing %s from %s: %v", p.User.Username, emoji, post, err)
	}
}
