package mattermost

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

const (
	// maxRunes is the longest message the server accepts in one post.
	maxRunes = model.PostMessageMaxRunesV2
	// noteReserve is kept free for the line that points at the attachment or the thread.
	noteReserve = 512
	// overflowName names the file holding the full rendering of a Doc too long for one post.
	overflowName = "eos-message.md"
)

// file is a text that goes with a post as an uploaded file, or as thread replies when the
// upload fails.
type file struct {
	name, text string
	markdown   bool // text is already markdown; otherwise it is shown as preformatted text
}

// outgoing is a Doc laid out for Mattermost.
type outgoing struct {
	doc      adapters.Doc
	full     string
	overflow bool
	files    []file
}

func layout(doc adapters.Doc) outgoing {
	o := outgoing{doc: doc, full: Render(doc)}
	if utf8.RuneCountInString(o.full)+noteReserve > maxRunes {
		o.overflow = true
		o.files = append(o.files, file{name: overflowName, text: o.full, markdown: true})
	}
	if at := doc.Attachment; at != nil && at.Text != "" {
		name := at.Name
		if name == "" {
			name = "eos-attachment.txt"
		}
		o.files = append(o.files, file{name: name, text: at.Text})
	}
	return o
}

// message is the post's text: the files are either attached to this post (attached) or
// follow in its thread.
func (o outgoing) message(attached bool) string {
	var note string
	switch {
	case len(o.files) == 0 || attached && !o.overflow:
		return o.full
	case attached:
		note = "Too long for one post: the full text is attached as " + overflowName + "."
	default:
		names := make([]string, len(o.files))
		for i, f := range o.files {
			names[i] = f.name
		}
		note = "Continued in the thread: " + strings.Join(names, ", ") + "."
	}
	body := o.full
	if o.overflow {
		body = summary(o.doc, maxRunes-noteReserve)
	}
	return body + "\n\n" + italic(note)
}

// Post sends doc to a channel, at channel level.
// channel may be an id or "team/channel" (as in the configuration of scheduled digests).
func (a *Adapter) Post(ctx context.Context, channel string, doc adapters.Doc) (adapters.PostRef, error) {
	if team, name, ok := strings.Cut(channel, "/"); ok {
		ch, _, err := a.api.GetChannelByNameForTeamName(ctx, name, team, "")
		if err != nil {
			return adapters.PostRef{}, fmt.Errorf("mattermost: channel %s: %w", channel, err)
		}
		channel = ch.Id
	}
	return a.send(ctx, channel, "", doc)
}

// Reply posts doc in the thread of parent. The server refuses a reply under a deleted root
// post; Reply returns adapters.ErrNoSuchPost then.
func (a *Adapter) Reply(ctx context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	return a.send(ctx, parent.Channel, parent.Root(), doc)
}

func (a *Adapter) send(ctx context.Context, channel, root string, doc adapters.Doc) (adapters.PostRef, error) {
	o := layout(doc)
	ids, upErr := a.upload(ctx, channel, o.files)
	p, resp, err := a.api.CreatePost(ctx, &model.Post{
		ChannelId: channel, RootId: root, Message: o.message(upErr == nil), FileIds: ids,
	})
	if err != nil && root != "" {
		return adapters.PostRef{}, fmt.Errorf("posting in thread %s of channel %s: %w", root, channel, a.gone(ctx, root, resp, err))
	}
	if err != nil {
		return adapters.PostRef{}, fmt.Errorf("posting in channel %s: %w", channel, err)
	}
	ref := adapters.PostRef{Platform: platform, Channel: p.ChannelId, ID: p.Id, Thread: p.RootId}
	if upErr != nil {
		a.log.Warn("attachment upload failed, continuing in the thread", "post", p.Id, "err", upErr)
		if err := a.continueInThread(ctx, channel, ref.Root(), o.files); err != nil {
			return ref, err
		}
	}
	return ref, nil
}

// Edit replaces the text of post with doc. The server cannot change the files of a post, so
// a doc too long for one post, or one with an Attachment, sends its files as a new reply in
// the thread; the engine should attach files only once, not on every progress update.
func (a *Adapter) Edit(ctx context.Context, post adapters.PostRef, doc adapters.Doc) error {
	o := layout(doc)
	msg := o.message(false)
	if _, resp, err := a.api.PatchPost(ctx, post.ID, &model.PostPatch{Message: &msg}); err != nil {
		return fmt.Errorf("editing post %s: %w", post.ID, a.gone(ctx, post.ID, resp, err))
	}
	if len(o.files) == 0 {
		return nil
	}
	ids, err := a.upload(ctx, post.Channel, o.files)
	if err != nil {
		a.log.Warn("attachment upload failed, continuing in the thread", "post", post.ID, "err", err)
		return a.continueInThread(ctx, post.Channel, post.Root(), o.files)
	}
	_, _, err = a.api.CreatePost(ctx, &model.Post{ChannelId: post.Channel, RootId: post.Root(), FileIds: ids})
	if err != nil {
		return fmt.Errorf("attaching the full text of post %s: %w", post.ID, err)
	}
	return nil
}

// upload stores files on the server for one post and returns their ids.
func (a *Adapter) upload(ctx context.Context, channel string, files []file) ([]string, error) {
	ids := make([]string, 0, len(files))
	for _, f := range files {
		res, _, err := a.api.UploadFile(ctx, []byte(f.text), channel, f.name)
		if err != nil {
			return nil, fmt.Errorf("uploading %s: %w", f.name, err)
		}
		if len(res.FileInfos) != 1 {
			return nil, fmt.Errorf("uploading %s: the server returned %d files", f.name, len(res.FileInfos))
		}
		ids = append(ids, res.FileInfos[0].Id)
	}
	return ids, nil
}

// continueInThread posts files as replies under root, each cut at line boundaries into posts
// the server accepts.
func (a *Adapter) continueInThread(ctx context.Context, channel, root string, files []file) error {
	var errs []error
	for _, f := range files {
		text := f.text
		if !f.markdown {
			text = fence(text)
		}
		for i, piece := range split(text, maxRunes) {
			if _, _, err := a.api.CreatePost(ctx, &model.Post{ChannelId: channel, RootId: root, Message: piece}); err != nil {
				errs = append(errs, fmt.Errorf("posting part %d of %s in thread %s: %w", i+1, f.name, root, err))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// React adds emoji to post as the bot. emoji may be a canonical name, ":name:" or Unicode.
func (a *Adapter) React(ctx context.Context, post adapters.PostRef, emoji string) error {
	self, err := a.identity(ctx)
	if err != nil {
		return err
	}
	name := adapters.CanonicalEmoji(emoji)
	_, _, err = a.api.SaveReaction(ctx, &model.Reaction{UserId: self.Id, PostId: post.ID, EmojiName: name})
	if err != nil {
		return fmt.Errorf("reacting %s to post %s: %w", name, post.ID, err)
	}
	return nil
}

// Reactions lists the reactions post has now, the bot's own included (User.Bot tells them
// apart). A deleted post is adapters.ErrNoSuchPost: the server still serves its reactions, so
// Reactions first asks for the post itself.
func (a *Adapter) Reactions(ctx context.Context, post adapters.PostRef) ([]adapters.Reaction, error) {
	switch missing, err := a.missing(ctx, post.ID); {
	case err != nil:
		return nil, fmt.Errorf("reading reactions of post %s: %w", post.ID, err)
	case missing:
		return nil, fmt.Errorf("reading reactions of post %s: %w", post.ID, adapters.ErrNoSuchPost)
	}
	list, _, err := a.api.GetReactions(ctx, post.ID)
	if err != nil {
		return nil, fmt.Errorf("reading reactions of post %s: %w", post.ID, err)
	}
	out := make([]adapters.Reaction, 0, len(list))
	for _, r := range list {
		u, err := a.user(ctx, r.UserId)
		if err != nil {
			return nil, fmt.Errorf("reading reactions of post %s: %w", post.ID, err)
		}
		out = append(out, adapters.Reaction{
			Post: post, User: u, Emoji: adapters.CanonicalEmoji(r.EmojiName), At: time.UnixMilli(r.CreateAt),
		})
	}
	return out, nil
}
