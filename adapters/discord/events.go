package discord

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// dispatch turns one gateway event into a Message, Reaction, edit or deletion for h. Problems are logged:
// one bad event must not end the connection.
func (a *Adapter) dispatch(ctx context.Context, h adapters.Handler, self *discordgo.User, ev any) {
	var err error
	switch e := ev.(type) {
	case *discordgo.MessageCreate:
		err = a.onMessage(ctx, h, self, e.Message)
	case *discordgo.MessageReactionAdd:
		var member *discordgo.User
		if e.Member != nil {
			member = e.Member.User
		}
		err = a.onReaction(ctx, h, self, e.MessageReaction, member, false)
	case *discordgo.MessageReactionRemove:
		err = a.onReaction(ctx, h, self, e.MessageReaction, nil, true)
	case *discordgo.MessageUpdate:
		a.onEdited(ctx, h, self, e.Message)
	case *discordgo.MessageDelete:
		a.onDeleted(ctx, h, e.Message)
	}
	if err != nil {
		a.log.Error("dropping event", "event", fmt.Sprintf("%T", ev), "err", err)
	}
}

// onMessage hands m to h when it is addressed to the bot: it starts with a mention of the bot
// or arrives in a direct message, in a served channel, from a person.
func (a *Adapter) onMessage(ctx context.Context, h adapters.Handler, self *discordgo.User, m *discordgo.Message) error {
	if m == nil || m.Author == nil || m.Author.ID == self.ID || m.Author.Bot || m.WebhookID != "" {
		return nil
	}
	if m.Type != discordgo.MessageTypeDefault && m.Type != discordgo.MessageTypeReply {
		return nil
	}
	direct := m.GuildID == ""
	text, mentioned := addressed(m.Content, self.ID)
	if !direct && !mentioned {
		return nil
	}
	if !a.serves(ctx, m.ChannelID, !direct) {
		return nil
	}
	ref := adapters.PostRef{Platform: platform, Channel: m.ChannelID, ID: m.ID}
	if !direct {
		ref.Thread = a.threadOf(ctx, m.ChannelID)
	}
	h.HandleMessage(ctx, a, adapters.Message{
		Post:   ref,
		Author: a.users.put(m.Author),
		Text:   text,
		Direct: direct,
		At:     m.Timestamp,
	})
	return nil
}

// addressed reports whether content starts with a mention of the bot, and returns the text
// the engine's grammar expects: the mention written as "@eos".
func addressed(content, botID string) (string, bool) {
	s := strings.TrimSpace(content)
	for _, mention := range []string{"<@" + botID + ">", "<@!" + botID + ">"} {
		if rest, ok := strings.CutPrefix(s, mention); ok {
			return strings.TrimSpace("@eos " + strings.TrimSpace(rest)), true
		}
	}
	return s, false
}

// onReaction hands a reaction in a served channel to h, except the bot's own. Other bots'
// reactions are delivered with User.Bot set: the engine decides what they count for. user is
// the reacting user when the event carries it (guild reactions do).
func (a *Adapter) onReaction(ctx context.Context, h adapters.Handler, self *discordgo.User, r *discordgo.MessageReaction, user *discordgo.User, removed bool) error {
	if r == nil || r.UserID == self.ID {
		return nil
	}
	guild := r.GuildID != ""
	if !a.serves(ctx, r.ChannelID, guild) {
		return nil
	}
	var (
		u   adapters.User
		err error
	)
	if user != nil && user.ID == r.UserID {
		u = a.users.put(user)
	} else if u, err = a.user(ctx, r.UserID); err != nil {
		return fmt.Errorf("reaction on %s: %w", r.MessageID, err)
	}
	ref := adapters.PostRef{Platform: platform, Channel: r.ChannelID, ID: r.MessageID}
	if guild {
		ref.Thread = a.threadOf(ctx, r.ChannelID)
	}
	h.HandleReaction(ctx, a, adapters.Reaction{
		Post:    ref,
		User:    u,
		Emoji:   canonical(r.Emoji.Name),
		Removed: removed,
		At:      time.Now(),
	})
	return nil
}

// threadOf is channel when it is a thread (replies then stay in it), "" otherwise.
func (a *Adapter) threadOf(ctx context.Context, channel string) string {
	info, err := a.channel(ctx, channel)
	if err != nil {
		a.log.Warn("event delivered without knowing whether its channel is a thread", "channel", channel, "err", err)
		return ""
	}
	if info.thread() {
		return channel
	}
	return ""
}

// serves reports whether the bot answers in channel: every channel when Config.Channels is
// empty, otherwise a listed channel or a thread in one.
func (a *Adapter) serves(ctx context.Context, channel string, guild bool) bool {
	if a.served == nil || a.served[channel] {
		return true
	}
	if !guild {
		return false
	}
	info, err := a.channel(ctx, channel)
	if err != nil {
		a.log.Warn("ignoring an event in a channel that could not be looked up", "channel", channel, "err", err)
		return false
	}
	return info.thread() && a.served[info.parent]
}
