// Package adapters owns the platform-neutral chat model: who said what where (Message, Reaction,
// PostRef, User), the rich message Eos posts (Doc), and the small interfaces a chat platform
// implements (Adapter, plus the optional Editor, Threader, Reactor, ReactionReader, Deleter,
// GroupResolver, UserResolver, Whisperer, ChannelViewer and Connection), and the optional ChangeHandler through which a
// handler hears of posts edited or deleted. Cursors is the one interface a store implements
// for the adapters: where each channel's catch-up starts after a restart or a failover. What
// the platforms share lives here too: the one packer that cuts a long text into messages
// (Packing, parametrised by each platform's limit and how it counts), the reconnect loop and
// its backoff, and the names of the platforms (Platforms).
//
// It imports nothing of Eos. Each platform lives in its own sub-package and imports only this one;
// the engine (package bot) never learns which platform it talks to.
package adapters

import (
	"context"
	"errors"
	"strings"
	"time"
)

// User is a person or bot on a chat platform.
type User struct {
	// ID is the platform's immutable identifier. The approval policy judges people by it
	// (with the platform), never by Name.
	ID string `json:"id"`
	// Name is the handle people type after @, without the @, as it was when the event came.
	// It is for display and the audit log; people can change it.
	Name string `json:"name"`
	// Bot is true for bot accounts; Eos ignores messages and reactions from bots.
	Bot bool `json:"bot,omitempty"`
}

// PostRef points at one post on one platform. It is stored in bbolt, so it must stay plain data.
type PostRef struct {
	// Platform is the adapter's Name.
	Platform string `json:"platform"`
	// Channel is the channel (or conversation) id.
	Channel string `json:"channel"`
	// ID is the post's id on the platform.
	ID string `json:"id"`
	// Thread is the id of the thread's root post, empty for a post at channel level.
	Thread string `json:"thread,omitempty"`
}

// Root is the post a reply to p belongs under: p's thread root, or p itself.
func (p PostRef) Root() string {
	if p.Thread != "" {
		return p.Thread
	}
	return p.ID
}

// Message is a post addressed to Eos: it mentions the bot or arrives in a direct message.
type Message struct {
	Post   PostRef
	Author User
	// Text is the post's text as typed, mention included.
	Text string
	// Direct is true for a direct message to the bot.
	Direct bool
	At     time.Time
}

// Reaction is an emoji added to or removed from a post.
type Reaction struct {
	Post PostRef
	User User
	// Emoji is the canonical short name without colons: "+1", "white_check_mark", "x", "-1",
	// "eyes". Adapters translate platform names and Unicode emoji to these.
	Emoji string
	// Removed is true when the reaction was taken back.
	Removed bool
	At      time.Time
}

// Handler receives what an adapter hears. Calls may come from several goroutines.
type Handler interface {
	HandleMessage(ctx context.Context, a Adapter, m Message)
	HandleReaction(ctx context.Context, a Adapter, r Reaction)
}

// ChangeHandler is implemented by handlers that want to hear when a person edits or deletes a
// post after it was delivered, so that a plan is never approved for a request that now says
// something else or nothing at all. An adapter whose platform reports such changes checks for
// it by type assertion and calls it from Run, like Handler's methods. Adapters deliver the
// changes of people's posts in the channels they serve, without the mention filter of
// HandleMessage (an edit may have removed the mention; the handler knows which posts matter).
// An adapter that catches up after a reconnection or a restart delivers the changes made
// meanwhile too, and may then deliver a change it delivered before: handling one twice must
// change nothing more. A platform that cannot report changes simply never calls it.
type ChangeHandler interface {
	// HandleEdit receives a post's new text; m is the post as it reads now, At the edit's time.
	HandleEdit(ctx context.Context, a Adapter, m Message)
	// HandleDelete receives a post that was deleted.
	HandleDelete(ctx context.Context, a Adapter, post PostRef)
}

// Adapter connects Eos to one chat platform.
type Adapter interface {
	// Name identifies the platform in PostRefs and logs ("console", "mattermost", ...).
	Name() string
	// Run connects, delivers events to h until ctx ends, and reconnects on its own when the
	// connection drops. It returns nil when ctx is cancelled.
	Run(ctx context.Context, h Handler) error
	// Post sends doc to a channel, at channel level.
	Post(ctx context.Context, channel string, doc Doc) (PostRef, error)
}

// Threader is implemented by platforms with threads: Reply posts doc in the thread of parent.
// Without it the engine posts replies at channel level.
type Threader interface {
	Reply(ctx context.Context, parent PostRef, doc Doc) (PostRef, error)
}

// Editor is implemented by platforms that can edit a post in place. Without it the engine
// posts each progress update as a new post.
type Editor interface {
	Edit(ctx context.Context, post PostRef, doc Doc) error
}

// Reactor is implemented by platforms on which the bot can react to a post (👀 on a request).
type Reactor interface {
	React(ctx context.Context, post PostRef, emoji string) error
}

// ReactionReader lists the reactions a post has now; used at start-up to find approvals given
// while Eos was down.
type ReactionReader interface {
	Reactions(ctx context.Context, post PostRef) ([]Reaction, error)
}

// Deleter is implemented by platforms on which the bot can remove someone else's post. The
// engine uses it to take down a message in which a person typed a secret. Delete returns
// ErrNotPermitted when the platform or the bot's role does not allow it.
type Deleter interface {
	Delete(ctx context.Context, post PostRef) error
}

// GroupResolver is implemented by platforms that have user groups (Slack user groups, Mattermost
// groups, Discord roles). The approval policy names a group as "group:NAME"; the engine asks
// the platform whether the user belongs to it. ErrNoSuchGroup says the group does not exist.
type GroupResolver interface {
	MemberOf(ctx context.Context, user User, group string) (bool, error)
}

// UserResolver is implemented by platforms that can say who a handle names now. The approval
// policy lists people by handle ("bob"); the engine resolves a handle to the platform's
// immutable ID at the moment it judges a reaction, and compares IDs, so a person who renames
// themselves gains nothing and loses nothing. LookupUser returns ErrNoSuchUser when no one has
// the handle; any other error means the platform could not answer, and the engine then counts
// the handle as nobody (fail closed).
type UserResolver interface {
	LookupUser(ctx context.Context, handle string) (User, error)
}

// Connection is implemented by adapters that hold a connection to their platform (a websocket,
// a socket-mode session, a gateway). Connected returns nil while it is up, and otherwise why
// not ("reconnecting: websocket closed"). /healthz reports it.
type Connection interface {
	Connected() error
}

// ErrNotPermitted is returned by an optional operation the platform refuses the bot.
var ErrNotPermitted = errors.New("not permitted for the bot on this platform")

// ErrNoSuchPost is returned by an operation on a post that no longer exists: deleted, or, on
// the console, made in an earlier session.
var ErrNoSuchPost = errors.New("no such post")

// ErrNoSuchUser is returned by UserResolver.LookupUser for a handle nobody has.
var ErrNoSuchUser = errors.New("no such user")

// ErrNoSuchGroup is returned by GroupResolver.MemberOf for a group the platform does not know.
var ErrNoSuchGroup = errors.New("no such group")

// Vote is what a reaction means to an approval.
type Vote int

const (
	// NoVote is any emoji that neither approves nor rejects.
	NoVote Vote = iota
	// Approve is ✅, 👍 (+1, thumbsup, white_check_mark, heavy_check_mark).
	Approve
	// Reject is ❌, 👎 (x, -1, thumbsdown, no_entry).
	Reject
)

// VoteOf maps a canonical emoji name to its meaning.
func VoteOf(emoji string) Vote {
	switch emoji {
	case "+1", "thumbsup", "white_check_mark", "heavy_check_mark", "ballot_box_with_check":
		return Approve
	case "-1", "thumbsdown", "x", "no_entry", "no_entry_sign":
		return Reject
	}
	return NoVote
}

// emojiNames maps Unicode emoji (as typed in the console or sent by Discord) to canonical names.
var emojiNames = map[string]string{
	"👍": "+1", "👎": "-1", "✅": "white_check_mark", "✔️": "heavy_check_mark", "✔": "heavy_check_mark",
	"❌": "x", "⛔": "no_entry", "👀": "eyes", "🔧": "wrench",
	"📥": "inbox_tray", "🔕": "no_bell",
}

// CanonicalEmoji turns ":+1:", "👍" or "thumbsup" into the canonical short name ("+1"). A skin
// tone is no part of the meaning: "👍🏽" (Discord), "+1_medium_skin_tone" (Mattermost) and
// "+1::skin-tone-4" (Slack) are "+1", as the platforms send them for a person whose emoji
// picker has a skin tone set.
func CanonicalEmoji(s string) string {
	if len(s) > 2 && s[0] == ':' && s[len(s)-1] == ':' {
		s = s[1 : len(s)-1]
	}
	s = withoutSkinTone(s)
	if n, ok := emojiNames[s]; ok {
		return n
	}
	switch s {
	case "thumbsup", "thumbs_up":
		return "+1"
	case "thumbsdown", "thumbs_down":
		return "-1"
	}
	return s
}

// skinToneSuffixes are how platforms name an emoji's skin tone after its name.
// The longer first: "_medium_light_skin_tone" also ends in "_light_skin_tone".
var skinToneSuffixes = []string{"_medium_light_skin_tone", "_medium_dark_skin_tone", "_medium_skin_tone", "_light_skin_tone", "_dark_skin_tone"}

// withoutSkinTone is emoji s without its skin tone (Unicode's modifiers U+1F3FB to U+1F3FF,
// Mattermost's "_…_skin_tone" suffixes, Slack's "::skin-tone-N") when what is left is an emoji
// that takes one (👍, 👎). Any other name stays as it is: ✅ has no skin tones, so
// "white_check_mark_light_skin_tone" can only be a custom emoji someone named so, showing any
// picture, and an approval must be the reaction people see.
func withoutSkinTone(s string) string {
	if base := toneless(s); base != s && takesSkinTone(base) {
		return base
	}
	return s
}

// takesSkinTone reports whether emoji base (a name, or Unicode) has skin-tone variants: the
// hands among the voting emoji.
func takesSkinTone(base string) bool {
	switch base {
	case "👍", "👎", "+1", "-1", "thumbsup", "thumbsdown", "thumbs_up", "thumbs_down":
		return true
	}
	return false
}

// toneless is s with any skin-tone spelling removed.
func toneless(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 0x1F3FB && r <= 0x1F3FF {
			return -1
		}
		return r
	}, s)
	if base, _, ok := strings.Cut(s, "::skin-tone-"); ok {
		return base
	}
	for _, suffix := range skinToneSuffixes {
		if base, ok := strings.CutSuffix(s, suffix); ok && base != "" {
			return base
		}
	}
	return s
}

// Whisperer is implemented by platforms that can send one person a message nobody else sees:
// a direct message (Mattermost, Discord), an ephemeral message in the channel (Slack), the
// console's own terminal. Eos sends sign-in links for the status page only this way; on a
// platform without it, `@eos web` says so and sends nothing. near is the post the person
// asked in (an ephemeral message appears beside it); to is judged by its ID, never its Name.
type Whisperer interface {
	Whisper(ctx context.Context, to User, near PostRef, doc Doc) error
}

// ChannelViewer is implemented by platforms that can say whether a person may read a channel
// now (a member of a private channel, anyone in the team for a public one, a role with the
// right to view a Discord channel). The status page shows a person only the plans and runs
// of channels the platform confirms they can read; an error counts as "no" (fail closed).
type ChannelViewer interface {
	CanView(ctx context.Context, user User, channel string) (bool, error)
}
