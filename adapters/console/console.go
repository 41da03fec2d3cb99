// Package console is the terminal chat: the adapter `make run` and `eos chat` use, and the one
// the tests drive. Every post gets a number so a person can react from the keyboard
// (`/react 2 +1`); the same lines can be piped in from a script.
//
// It imports only adapters.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
)

// Config configures the console.
type Config struct {
	// In is read line by line: chat text, or a command (/react N EMOJI, /unreact N EMOJI,
	// /reply N TEXT, /edit N TEXT, /delete N, /as NAME, /wait, /help, /quit). Edits and deletions reach a
	// handler that is an adapters.ChangeHandler.
	In io.Reader
	// Out receives the transcript.
	Out io.Writer
	// User is who types; /as changes it. Default "you".
	User string
	// Channel is the one channel's name. Default "local".
	Channel string
	// BotName is how the bot's posts are labelled. Default "eos".
	BotName string
	// Prompt prints "you> " before each line read (interactive use).
	Prompt bool
	// Echo prints each line read as a numbered post (scripted use, so transcripts read well).
	Echo bool
	// Idle, when set, is called by /wait and at the end of input: it returns when the bot
	// has finished what it started (runs in flight).
	Idle func(ctx context.Context) error
	// Settle, when set, is called before a /react or /unreact: it returns when the bot has
	// answered everything typed so far (not when its runs finish), so a reaction typed or piped
	// right after a request finds the preview it names, as a person who sees the preview
	// before reacting would.
	Settle func(ctx context.Context) error
	// Groups are the console's user groups, for approval policies that name "group:NAME":
	// group name → member names (without @). A name not listed here is no group.
	Groups map[string][]string
}

// Post is one post as the console keeps it.
type Post struct {
	ID     int
	Thread int // root post id, 0 at channel level
	Author string
	Text   string
	// Edits counts how often the post was edited.
	Edits int
	// Removed is true once the post was deleted; Text is then RemovedText (the bot removed it)
	// or DeletedText (its author did, with /delete).
	Removed   bool
	Reactions []adapters.Reaction
	// Attachment is the attached file's text, if any.
	Attachment string
}

// Adapter is the console chat.
type Adapter struct {
	cfg Config

	// session tells this adapter's post references from those of an earlier one: posts are
	// numbered from 1 in every session, and a reference kept in the store (a pending plan's
	// preview) must never reach a post of a later session that happens to have its number.
	session string

	mu       sync.Mutex
	posts    []*Post
	whispers []Whisper
	changed  chan struct{} // closed and replaced on every change
	out      *bufio.Writer
}

var (
	_ adapters.Adapter        = (*Adapter)(nil)
	_ adapters.Threader       = (*Adapter)(nil)
	_ adapters.Editor         = (*Adapter)(nil)
	_ adapters.Reactor        = (*Adapter)(nil)
	_ adapters.ReactionReader = (*Adapter)(nil)
	_ adapters.Deleter        = (*Adapter)(nil)
	_ adapters.GroupResolver  = (*Adapter)(nil)
	_ adapters.UserResolver   = (*Adapter)(nil)
	_ adapters.Whisperer      = (*Adapter)(nil)
	_ adapters.ChannelViewer  = (*Adapter)(nil)
)

// New makes a console adapter.
func New(cfg Config) *Adapter {
	if cfg.User == "" {
		cfg.User = "you"
	}
	if cfg.Channel == "" {
		cfg.Channel = "local"
	}
	if cfg.BotName == "" {
		cfg.BotName = "eos"
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	return &Adapter{cfg: cfg, session: newSession(), changed: make(chan struct{}), out: bufio.NewWriter(cfg.Out)}
}

// Name is "console".
func (a *Adapter) Name() string { return "console" }

// Ref is the reference the bot gets for post p.
func (a *Adapter) Ref(p Post) adapters.PostRef { return a.ref(p.ID, p.Thread) }

func (a *Adapter) ref(id, thread int) adapters.PostRef {
	r := adapters.PostRef{Platform: a.Name(), Channel: a.cfg.Channel, ID: a.postID(id)}
	if thread != 0 {
		r.Thread = a.postID(thread)
	}
	return r
}

// user is the console user called name. The console has no accounts: who types is whoever
// /as names, so the name is the identity. Its id is the name without @ or surrounding space,
// in lower case, so that "bob", "@bob" and "Bob" are one person, with one id in every session
// (the name keeps the spelling typed).
func user(name string) adapters.User {
	name = strings.TrimPrefix(strings.TrimSpace(name), "@")
	return adapters.User{ID: userID(name), Name: name}
}

// userID is the console's id of the person called name.
func userID(name string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "@"))
}

// LookupUser returns the console user called handle (the @ optional): anyone may type as
// anyone with /as, so every name is someone. An empty handle is adapters.ErrNoSuchUser.
func (a *Adapter) LookupUser(_ context.Context, handle string) (adapters.User, error) {
	u := user(handle)
	if u.ID == "" {
		return adapters.User{}, fmt.Errorf("console user %q: %w", handle, adapters.ErrNoSuchUser)
	}
	return u, nil
}

// Run reads lines until the input ends or ctx is done. At the end of input it waits for the
// bot to go idle (Config.Idle) and returns nil.
func (a *Adapter) Run(ctx context.Context, h adapters.Handler) error {
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(a.cfg.In)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		readErr <- sc.Err()
	}()
	for {
		a.prompt()
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			if err != nil {
				return fmt.Errorf("reading console input: %w", err)
			}
			return a.idle(ctx)
		case line := <-lines:
			if quit := a.handleLine(ctx, h, line); quit {
				return a.idle(ctx)
			}
		}
	}
}

func (a *Adapter) idle(ctx context.Context) error {
	if a.cfg.Idle == nil {
		return nil
	}
	return a.cfg.Idle(ctx)
}

func (a *Adapter) prompt() {
	if a.cfg.Prompt {
		a.mu.Lock()
		fmt.Fprintf(a.out, "%s> ", a.cfg.User)
		a.out.Flush()
		a.mu.Unlock()
	}
}

// handleLine acts on one line; it reports whether the user asked to quit.
func (a *Adapter) handleLine(ctx context.Context, h adapters.Handler, line string) bool {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return false
	}
	if !strings.HasPrefix(line, "/") || strings.HasPrefix(line, "/eos") {
		h.HandleMessage(ctx, a, a.Say(line))
		return false
	}
	cmd, rest, _ := strings.Cut(line, " ")
	args := strings.Fields(rest)
	switch cmd {
	case "/quit", "/exit":
		return true
	case "/as":
		if len(args) != 1 {
			a.note("usage: /as NAME — type as another person")
			return false
		}
		a.mu.Lock()
		a.cfg.User = strings.TrimPrefix(args[0], "@")
		a.mu.Unlock()
		a.note("now typing as @" + a.cfg.User)
	case "/react", "/unreact":
		if a.cfg.Settle != nil {
			if err := a.cfg.Settle(ctx); err != nil {
				a.note("react: " + err.Error())
				return false
			}
		}
		r, err := a.reaction(args, cmd == "/unreact")
		if err != nil {
			a.note(err.Error())
			return false
		}
		h.HandleReaction(ctx, a, r)
	case "/edit", "/delete":
		a.change(ctx, h, cmd, rest)
	case "/reply":
		a.reply(ctx, h, rest)
	case "/wait":
		if err := a.idle(ctx); err != nil {
			a.note("wait: " + err.Error())
		}
	case "/help":
		a.note("type a message (\"@eos help\"), or: /react N EMOJI, /unreact N EMOJI, /reply N TEXT, /edit N TEXT, /delete N, /as NAME, /wait, /quit")
	default:
		a.note(fmt.Sprintf("unknown console command %s — /help lists them", cmd))
	}
	return false
}

// Say records a message typed by the current user and returns it as the bot would receive it.
func (a *Adapter) Say(text string) adapters.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.add(a.cfg.User, 0, text)
	if a.cfg.Echo {
		a.print(p, "")
	}
	return adapters.Message{Post: a.ref(p.ID, 0), Author: user(a.cfg.User), Text: text, Direct: true, At: time.Now()}
}

func (a *Adapter) reaction(args []string, removed bool) (adapters.Reaction, error) {
	if len(args) != 2 {
		return adapters.Reaction{}, fmt.Errorf("usage: /react N EMOJI — for example /react 2 +1 (approve) or /react 2 x (reject)")
	}
	id, err := strconv.Atoi(strings.TrimPrefix(args[0], "#"))
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil || id < 1 || id > len(a.posts) {
		return adapters.Reaction{}, fmt.Errorf("there is no post %s (posts are numbered 1 to %d)", args[0], len(a.posts))
	}
	return a.put(a.posts[id-1], a.cfg.User, args[1], removed), nil
}

// note prints a console message that is not a post.
func (a *Adapter) note(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.out, "  (%s)\n", s)
	a.out.Flush()
}
