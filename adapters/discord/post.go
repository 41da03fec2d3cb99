package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

const (
	// maxMessages is the most messages one Doc is split into; a longer Doc is posted as its
	// first message and the full text attached as overflowName.
	maxMessages = 4
	// overflowName names the file holding the full rendering of a Doc too long for messages.
	overflowName = "eos-message.md"
	// overflowNote ends the first message when the full text is attached.
	overflowNote = "-# Too long for Discord: the full text is attached as " + overflowName + "."
	// threadArchive is how long an idle thread stays open, in minutes (one day).
	threadArchive = 1440
)

// allowedMentions lets a message ping the users it names with <@id>, never @everyone, @here
// or a role, whatever text a Doc carries.
var allowedMentions = &discordgo.MessageAllowedMentions{
	Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers},
}

// outgoing is a Doc laid out as Discord messages: the first carries the files.
type outgoing struct {
	pieces []string
	files  []*discordgo.File
}

func layout(doc adapters.Doc) outgoing {
	var o outgoing
	cs := chunks(doc)
	o.pieces = split(cs, maxLength)
	if len(o.pieces) > maxMessages {
		first := split(cs, maxLength-length(overflowNote)-2)[0]
		o.pieces = []string{first + "\n\n" + overflowNote}
		o.files = append(o.files, textFile(overflowName, Render(doc)))
	}
	if at := doc.Attachment; at != nil && at.Text != "" {
		name := at.Name
		if name == "" {
			name = "eos-attachment.txt"
		}
		o.files = append(o.files, textFile(name, at.Text))
	}
	if len(o.pieces) == 0 && len(o.files) > 0 {
		o.pieces = []string{"-# attached:"}
	}
	return o
}

func textFile(name, text string) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "text/plain; charset=utf-8", Reader: strings.NewReader(text)}
}

// Post sends doc to a channel, at channel level.
func (a *Adapter) Post(ctx context.Context, channel string, doc adapters.Doc) (adapters.PostRef, error) {
	info, err := a.channel(ctx, channel)
	if err != nil {
		a.log.Warn("posting without knowing the channel's kind", "channel", channel, "err", err)
	}
	thread := ""
	if info.thread() {
		thread = channel
	}
	return a.send(ctx, channel, thread, nil, doc)
}

// Reply posts doc in the thread of parent. A request at channel level gets a thread started
// from it (its id is the request's id, so later replies find it); where no thread can be
// started (direct messages, Config.Threads off, missing permission) the answer is a reply to
// the request, in its channel. A request deleted meanwhile is adapters.ErrNoSuchPost; a reply
// in the thread of a deleted request is not, since the thread outlives its starter message.
func (a *Adapter) Reply(ctx context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	if parent.Thread != "" {
		return a.send(ctx, parent.Thread, parent.Thread, nil, doc)
	}
	info, err := a.channel(ctx, parent.Channel)
	if err != nil {
		a.log.Warn("replying without knowing the channel's kind", "channel", parent.Channel, "err", err)
	}
	if info.thread() {
		return a.send(ctx, parent.Channel, parent.Channel, nil, doc)
	}
	if a.cfg.threads() && info.canThread() {
		thread, err := a.startThread(ctx, parent, threadName(doc))
		if err == nil {
			return a.send(ctx, thread, thread, nil, doc)
		}
		if errors.Is(err, adapters.ErrNoSuchPost) {
			return adapters.PostRef{}, fmt.Errorf("replying to message %s: %w", parent.ID, err)
		}
		a.log.Warn("no thread for the request, replying in the channel", "post", parent.ID, "err", err)
	}
	ref := &discordgo.MessageReference{MessageID: parent.ID, ChannelID: parent.Channel}
	post, err := a.send(ctx, parent.Channel, "", ref, doc)
	if err != nil {
		return post, fmt.Errorf("replying to message %s: %w", parent.ID, gone(err))
	}
	return post, nil
}

// startThread starts a thread from the message parent and returns the thread's channel id.
func (a *Adapter) startThread(ctx context.Context, parent adapters.PostRef, name string) (string, error) {
	ch, err := a.s.MessageThreadStartComplex(parent.Channel, parent.ID, &discordgo.ThreadStart{
		Name: name, AutoArchiveDuration: threadArchive,
	}, discordgo.WithContext(ctx))
	switch {
	case codeOf(err) == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage:
		// A thread started from a message has the message's id.
		a.channels.put(parent.ID, channelInfo{kind: discordgo.ChannelTypeGuildPublicThread, parent: parent.Channel})
		return parent.ID, nil
	case err != nil:
		return "", fmt.Errorf("starting a thread from message %s: %w", parent.ID, gone(err))
	}
	a.channels.put(ch.ID, channelInfo{kind: ch.Type, parent: parent.Channel})
	return ch.ID, nil
}

// threadName names a thread after the Doc's heading (Discord allows 1 to 100 characters).
func threadName(doc adapters.Doc) string {
	name := "eos"
	for _, b := range doc.Blocks {
		if h, ok := b.(adapters.Heading); ok && oneLine(h.Text) != "" {
			name = oneLine(h.Text)
			break
		}
	}
	if len([]rune(name)) > 100 {
		name = string([]rune(name)[:99]) + "…"
	}
	return name
}

// send posts doc in channel as one message, followed by more when it is too long for one.
// The first message carries the files and the reference; its PostRef is returned.
func (a *Adapter) send(ctx context.Context, channel, thread string, ref *discordgo.MessageReference, doc adapters.Doc) (adapters.PostRef, error) {
	o := layout(doc)
	if len(o.pieces) == 0 {
		return adapters.PostRef{}, fmt.Errorf("posting in channel %s: %w", channel, errEmpty)
	}
	msg := &discordgo.MessageSend{Content: o.pieces[0], Files: o.files, Reference: ref, AllowedMentions: allowedMentions}
	m, err := a.s.ChannelMessageSendComplex(channel, msg, discordgo.WithContext(ctx))
	if err != nil && len(o.files) > 0 {
		// The files may be what Discord refused (too large): post their text instead.
		a.log.Warn("attaching files failed, posting their text", "channel", channel, "err", err)
		msg.Files = nil
		if m, err = a.s.ChannelMessageSendComplex(channel, msg, discordgo.WithContext(ctx)); err == nil {
			o.pieces = append(o.pieces[1:], filesAsText(doc, o.files)...)
			err = a.followUp(ctx, channel, o.pieces)
			return a.ref(m, thread), err
		}
	}
	if err != nil {
		return adapters.PostRef{}, fmt.Errorf("posting in channel %s: %w", channel, err)
	}
	return a.ref(m, thread), a.followUp(ctx, channel, o.pieces[1:])
}

func (a *Adapter) ref(m *discordgo.Message, thread string) adapters.PostRef {
	return adapters.PostRef{Platform: platform, Channel: m.ChannelID, ID: m.ID, Thread: thread}
}

// followUp posts the rest of a long Doc after its first message.
func (a *Adapter) followUp(ctx context.Context, channel string, pieces []string) error {
	for i, p := range pieces {
		_, err := a.s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Content: p, AllowedMentions: allowedMentions},
			discordgo.WithContext(ctx))
		if err != nil {
			return fmt.Errorf("posting part %d of %d in channel %s: %w", i+2, len(pieces)+1, channel, err)
		}
	}
	return nil
}

// filesAsText is the text of files as messages: the full rendering is the Doc's blocks, the
// attachment a code block.
func filesAsText(doc adapters.Doc, files []*discordgo.File) []string {
	var cs []chunk
	for _, f := range files {
		if f.Name == overflowName {
			cs = append(cs, chunks(doc)...)
		} else if doc.Attachment != nil {
			cs = append(cs, chunk{body: []string{"-# " + f.Name}}, codeChunk(doc.Attachment.Text))
		}
	}
	return split(cs, maxLength)
}

// Edit replaces the text of post with doc. Discord cannot put a longer text in the message,
// so the rest of a Doc too long for one message, and its Attachment, follow as new messages
// in the same channel; the engine should attach files only once, not on every update. A
// deleted post is adapters.ErrNoSuchPost.
func (a *Adapter) Edit(ctx context.Context, post adapters.PostRef, doc adapters.Doc) error {
	o := layout(doc)
	if len(o.pieces) == 0 {
		return fmt.Errorf("editing message %s: %w", post.ID, errEmpty)
	}
	edit := discordgo.NewMessageEdit(post.Channel, post.ID).SetContent(o.pieces[0])
	edit.AllowedMentions = allowedMentions
	if _, err := a.s.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("editing message %s: %w", post.ID, gone(err))
	}
	rest := o.pieces[1:]
	if len(o.files) == 0 {
		return a.followUp(ctx, post.Channel, rest)
	}
	if len(rest) == 0 {
		rest = []string{"-# attached:"}
	}
	_, err := a.s.ChannelMessageSendComplex(post.Channel, &discordgo.MessageSend{
		Content: rest[0], Files: o.files, AllowedMentions: allowedMentions,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("attaching the full text of message %s: %w", post.ID, err)
	}
	return a.followUp(ctx, post.Channel, rest[1:])
}

// React adds emoji to post as the bot. emoji may be a canonical name, ":name:" or Unicode.
func (a *Adapter) React(ctx context.Context, post adapters.PostRef, emoji string) error {
	u, ok := unicodeOf(emoji)
	if !ok {
		return fmt.Errorf("reacting to message %s: no Unicode emoji for %q", post.ID, emoji)
	}
	if err := a.s.MessageReactionAdd(post.Channel, post.ID, u, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("reacting %s to message %s: %w", emoji, post.ID, err)
	}
	return nil
}

// Reactions lists the reactions post has now, the bot's own included (User.Bot tells them
// apart). Discord keeps no time for a reaction; At is left zero. A deleted post is
// adapters.ErrNoSuchPost.
func (a *Adapter) Reactions(ctx context.Context, post adapters.PostRef) ([]adapters.Reaction, error) {
	m, err := a.s.ChannelMessage(post.Channel, post.ID, discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading message %s: %w", post.ID, gone(err))
	}
	var out []adapters.Reaction
	for _, r := range m.Reactions {
		if r.Emoji == nil || r.Emoji.ID != "" {
			continue // a guild's custom emoji never approves or rejects
		}
		emoji := canonical(r.Emoji.Name)
		users, err := a.reactors(ctx, post, r.Emoji.Name)
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			out = append(out, adapters.Reaction{Post: post, User: a.users.put(u), Emoji: emoji})
		}
	}
	return out, nil
}

// reactors lists every user who reacted to post with emoji, page by page.
func (a *Adapter) reactors(ctx context.Context, post adapters.PostRef, emoji string) ([]*discordgo.User, error) {
	const page = 100
	var all []*discordgo.User
	after := ""
	for {
		users, err := a.s.MessageReactions(post.Channel, post.ID, emoji, page, "", after, discordgo.WithContext(ctx))
		if err != nil {
			return nil, fmt.Errorf("reading %s reactions of message %s: %w", emoji, post.ID, gone(err))
		}
		all = append(all, users...)
		if len(users) < page {
			return all, nil
		}
		after = users[len(users)-1].ID
	}
}

// canonical is the canonical name of an emoji Discord sends (Unicode, or a custom emoji's name).
func canonical(emoji string) string {
	if n, ok := namesOfUnicode[emoji]; ok {
		return n
	}
	return adapters.CanonicalEmoji(emoji)
}

// unicodeOf is the Unicode emoji Discord expects for a canonical name (or the emoji itself).
func unicodeOf(emoji string) (string, bool) {
	if u, ok := unicodeNames[adapters.CanonicalEmoji(emoji)]; ok {
		return u, true
	}
	for _, r := range emoji {
		if r > 0x7f {
			return emoji, true
		}
	}
	return "", false
}

var unicodeNames = map[string]string{
	"+1": "👍", "-1": "👎", "white_check_mark": "✅", "heavy_check_mark": "✔️", "x": "❌",
	"no_entry": "⛔", "eyes": "👀", "wrench": "🔧", "ballot_box_with_check": "☑️",
	"no_entry_sign": "🚫", "hourglass": "⌛", "warning": "⚠️",
	"inbox_tray": "📥", "no_bell": "🔕",
}

// errEmpty is returned for a Doc with nothing to show: Discord refuses empty messages.
var errEmpty = errors.New("the message is empty")

// namesOfUnicode reverses unicodeNames, for the emoji adapters.CanonicalEmoji does not know.
var namesOfUnicode = func() map[string]string {
	m := make(map[string]string, len(unicodeNames))
	for n, u := range unicodeNames {
		m[u] = n
	}
	return m
}()
