package console

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
)

// add appends a post; a.mu must be held.
func (a *Adapter) add(author string, thread int, text string) *Post {
	p := &Post{ID: len(a.posts) + 1, Thread: thread, Author: author, Text: text}
	a.posts = append(a.posts, p)
	a.notify()
	return p
}

// notify wakes everyone waiting for a change; a.mu must be held.
func (a *Adapter) notify() {
	close(a.changed)
	a.changed = make(chan struct{})
}

// print writes a post to the transcript; a.mu must be held.
func (a *Adapter) print(p *Post, mark string) {
	prefix := fmt.Sprintf("[%d] ", p.ID)
	if p.Thread != 0 {
		prefix += fmt.Sprintf("↳%d ", p.Thread)
	}
	prefix += p.Author + mark + ": "
	pad := strings.Repeat(" ", len([]rune(prefix)))
	lines := strings.Split(p.Text, "\n")
	fmt.Fprintln(a.out, prefix+lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintln(a.out, pad+l)
	}
	if p.Attachment != "" {
		fmt.Fprintf(a.out, "%s(attached: %d lines, shown below)\n", pad, strings.Count(p.Attachment, "\n")+1)
		for _, l := range strings.Split(p.Attachment, "\n") {
			fmt.Fprintln(a.out, pad+"  "+l)
		}
	}
	a.out.Flush()
}

func (a *Adapter) post(thread int, doc adapters.Doc) adapters.PostRef {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.add(a.cfg.BotName, thread, doc.Plain())
	if doc.Attachment != nil {
		p.Attachment = doc.Attachment.Text
	}
	a.print(p, "")
	return a.ref(p.ID, thread)
}

// Post posts doc at channel level.
func (a *Adapter) Post(_ context.Context, _ string, doc adapters.Doc) (adapters.PostRef, error) {
	return a.post(0, doc), nil
}

// Reply posts doc in the thread of parent.
func (a *Adapter) Reply(_ context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	a.mu.Lock()
	root, err := a.number(parent.Root())
	a.mu.Unlock()
	if err != nil {
		return adapters.PostRef{}, err
	}
	return a.post(root, doc), nil
}

// find is the post ref stands for; a.mu must be held.
func (a *Adapter) find(ref adapters.PostRef) (*Post, error) {
	n, err := a.number(ref.ID)
	if err != nil {
		return nil, err
	}
	return a.posts[n-1], nil
}

// Edit replaces a post's text and prints what changed in it, marked edited: only the lines
// that are new, so a preview whose status line is edited shows one line, not the whole
// preview again.
func (a *Adapter) Edit(_ context.Context, ref adapters.PostRef, doc adapters.Doc) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.find(ref)
	if err != nil {
		return err
	}
	old := p.Text
	p.Text = doc.Plain()
	p.Edits++
	a.notify()
	a.print(&Post{ID: p.ID, Thread: p.Thread, Author: p.Author, Text: changedLines(old, p.Text)}, " (edited)")
	return nil
}

// changedLines are the lines of now that were not in was, in order; "(no visible change)"
// when there are none.
func changedLines(was, now string) string {
	seen := map[string]int{}
	for _, l := range strings.Split(was, "\n") {
		seen[l]++
	}
	var out []string
	for _, l := range strings.Split(now, "\n") {
		if seen[l] > 0 {
			seen[l]--
			continue
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return "(no visible change)"
	}
	return strings.Join(out, "\n")
}

// React adds the bot's reaction to a post.
func (a *Adapter) React(_ context.Context, ref adapters.PostRef, emoji string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.find(ref)
	if err != nil {
		return err
	}
	p.Reactions = append(p.Reactions, adapters.Reaction{Post: ref, User: user(a.cfg.BotName), Emoji: emoji})
	a.notify()
	fmt.Fprintf(a.out, "  (%s reacted :%s: to [%d])\n", a.cfg.BotName, emoji, p.ID)
	a.out.Flush()
	return nil
}

// ReactAs puts person name's emoji on the post ref, as /react does, and returns the reaction
// to deliver: for a program that drives the console without typing (tests, benchmarks).
func (a *Adapter) ReactAs(ref adapters.PostRef, name, emoji string) (adapters.Reaction, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.find(ref)
	if err != nil {
		return adapters.Reaction{}, err
	}
	return a.put(p, name, emoji, false), nil
}

// put puts person name's emoji on post p, or takes it off (removed), and returns the reaction
// to deliver; a.mu is held.
func (a *Adapter) put(p *Post, name, emoji string, removed bool) adapters.Reaction {
	r := adapters.Reaction{Post: a.ref(p.ID, p.Thread), User: user(name), Emoji: adapters.CanonicalEmoji(emoji), Removed: removed, At: time.Now()}
	if removed {
		p.Reactions = slices.DeleteFunc(p.Reactions, func(old adapters.Reaction) bool { return old.User.ID == r.User.ID && old.Emoji == r.Emoji })
	} else {
		p.Reactions = append(p.Reactions, r)
	}
	a.notify()
	return r
}

// Reactions lists the reactions a post has.
func (a *Adapter) Reactions(_ context.Context, ref adapters.PostRef) ([]adapters.Reaction, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.find(ref)
	if err != nil {
		return nil, err
	}
	return append([]adapters.Reaction(nil), p.Reactions...), nil
}

// Posts returns a copy of every post so far.
func (a *Adapter) Posts() []Post {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Post, len(a.posts))
	for i, p := range a.posts {
		out[i] = *p
		out[i].Reactions = append([]adapters.Reaction(nil), p.Reactions...)
	}
	return out
}

// WaitFor blocks until cond holds for the posts, or ctx ends (then it returns ctx's error
// with the last posts in the message, so a failing test shows what the bot said).
func (a *Adapter) WaitFor(ctx context.Context, cond func([]Post) bool) ([]Post, error) {
	for {
		a.mu.Lock()
		ch := a.changed
		a.mu.Unlock()
		posts := a.Posts()
		if cond(posts) {
			return posts, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			var b strings.Builder
			for _, p := range posts {
				fmt.Fprintf(&b, "\n[%d] %s: %s", p.ID, p.Author, p.Text)
			}
			return posts, fmt.Errorf("%w; posts so far:%s", ctx.Err(), b.String())
		}
	}
}
