package slack

import (
	"context"
	"errors"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// Post sends doc to a channel, at channel level. channel is an id or a name ("infra", "#infra").
// A doc too long for one message continues in the new post's thread.
func (a *Adapter) Post(ctx context.Context, channel string, doc adapters.Doc) (adapters.PostRef, error) {
	return a.send(ctx, channel, "", doc)
}

// Reply posts doc in the thread of parent (thread_ts is parent's thread root, or parent itself).
// Slack accepts a reply to a deleted parent (chat.postMessage has no error for it), so Reply
// never returns adapters.ErrNoSuchPost.
func (a *Adapter) Reply(ctx context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	return a.send(ctx, parent.Channel, parent.Root(), doc)
}

func (a *Adapter) send(ctx context.Context, channel, root string, doc adapters.Doc) (adapters.PostRef, error) {
	msgs := Render(doc)
	ch, ts, err := a.api.PostMessageContext(ctx, channel, messageOptions(msgs[0], root)...)
	if err != nil {
		return adapters.PostRef{}, fmt.Errorf("posting in channel %s: %w", channel, err)
	}
	ref := adapters.PostRef{Platform: platform, Channel: ch, ID: ts, Thread: root}
	a.threads.put(ch+"/"+ts, root)
	return ref, a.continueInThread(ctx, ch, ref.Root(), msgs[1:])
}

// Edit replaces post with doc (chat.update). What does not fit in one message is posted as new
// replies in the post's thread, so the engine should send long texts and attachments once, not
// on every progress update. A post that no longer exists is adapters.ErrNoSuchPost.
func (a *Adapter) Edit(ctx context.Context, post adapters.PostRef, doc adapters.Doc) error {
	msgs := Render(doc)
	_, _, _, err := a.api.UpdateMessageContext(ctx, post.Channel, post.ID,
		slack.MsgOptionText(msgs[0].Text, true), slack.MsgOptionBlocks(msgs[0].Blocks...))
	if err != nil {
		return fmt.Errorf("editing post %s in channel %s: %w", post.ID, post.Channel, gone(err))
	}
	return a.continueInThread(ctx, post.Channel, post.Root(), msgs[1:])
}

// continueInThread posts the continuation messages of a long doc under root, in order; it
// stops at the first failure, since a later part without an earlier one would mislead.
func (a *Adapter) continueInThread(ctx context.Context, channel, root string, msgs []Message) error {
	for i, m := range msgs {
		ch, ts, err := a.api.PostMessageContext(ctx, channel, messageOptions(m, root)...)
		if err != nil {
			return fmt.Errorf("posting part %d of %d in thread %s: %w", i+2, len(msgs)+1, root, err)
		}
		a.threads.put(ch+"/"+ts, root)
	}
	return nil
}

func messageOptions(m Message, thread string) []slack.MsgOption {
	opts := []slack.MsgOption{
		slack.MsgOptionText(m.Text, true),
		slack.MsgOptionBlocks(m.Blocks...),
		slack.MsgOptionDisableLinkUnfurl(),
	}
	if thread != "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	return opts
}

// React adds emoji to post as the bot (reactions.add). emoji may be a canonical name, ":name:" or
// Unicode. Reacting twice with the same emoji is not an error.
func (a *Adapter) React(ctx context.Context, post adapters.PostRef, emoji string) error {
	name := slackEmoji(emoji)
	err := a.api.AddReactionContext(ctx, name, slack.NewRefToMessage(post.Channel, post.ID))
	var se slack.SlackErrorResponse
	if err != nil && !(errors.As(err, &se) && se.Err == "already_reacted") {
		return fmt.Errorf("reacting %s to post %s: %w", name, post.ID, err)
	}
	return nil
}

// Reactions lists the reactions post has now (reactions.get), one per user and emoji, the bot's
// own included (User.Bot tells them apart). Slack does not say when a reaction was given, so At
// is zero. A post that was deleted, or never existed, is adapters.ErrNoSuchPost.
func (a *Adapter) Reactions(ctx context.Context, post adapters.PostRef) ([]adapters.Reaction, error) {
	item, err := a.api.GetReactionsContext(ctx, slack.NewRefToMessage(post.Channel, post.ID), slack.GetReactionsParameters{Full: true})
	if err != nil {
		return nil, fmt.Errorf("reading reactions of post %s: %w", post.ID, gone(err))
	}
	var out []adapters.Reaction
	for _, r := range item.Reactions {
		for _, id := range r.Users {
			u, err := a.user(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("reading reactions of post %s: %w", post.ID, err)
			}
			out = append(out, adapters.Reaction{Post: post, User: u, Emoji: canonicalEmoji(r.Name)})
		}
	}
	return out, nil
}

// gone marks err as adapters.ErrNoSuchPost when it is Slack saying the message does not exist
// (message_not_found: deleted, or never posted), and returns any other error unchanged.
func gone(err error) error {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) && se.Err == "message_not_found" {
		return fmt.Errorf("%w: %w", adapters.ErrNoSuchPost, err)
	}
	return err
}
