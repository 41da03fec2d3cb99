package discord

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// onEdited delivers a person's message edited (MESSAGE_UPDATE with an edit time; updates
// without one are Discord's own, such as link embeds) in a served channel to a handler that is
// an adapters.ChangeHandler. The text is as HandleMessage gets it (the leading mention written
// "@eos"); an edit that took the mention out is delivered all the same. Edits and deletions
// made while the gateway was down are not caught up.
func (a *Adapter) onEdited(ctx context.Context, h adapters.Handler, self *discordgo.User, m *discordgo.Message) {
	ch, ok := h.(adapters.ChangeHandler)
	if !ok || m == nil || m.Author == nil || m.Author.ID == self.ID || m.Author.Bot || m.WebhookID != "" || m.EditedTimestamp == nil {
		return
	}
	direct := m.GuildID == ""
	if !a.serves(ctx, m.ChannelID, !direct) {
		return
	}
	text, _ := addressed(m.Content, self.ID)
	ch.HandleEdit(ctx, a, adapters.Message{Post: a.postRef(ctx, m.ChannelID, m.ID, direct), Author: a.users.put(m.Author), Text: text,
		Direct: direct, At: *m.EditedTimestamp})
}

// onDeleted delivers a deleted message in a served channel to a ChangeHandler. Discord does not
// say whose message it was; the handler knows which messages asked for something.
func (a *Adapter) onDeleted(ctx context.Context, h adapters.Handler, m *discordgo.Message) {
	ch, ok := h.(adapters.ChangeHandler)
	if !ok || m == nil {
		return
	}
	direct := m.GuildID == ""
	if !a.serves(ctx, m.ChannelID, !direct) {
		return
	}
	ch.HandleDelete(ctx, a, a.postRef(ctx, m.ChannelID, m.ID, direct))
}

// postRef is the reference of message id in channel, with its thread, as onMessage makes it.
func (a *Adapter) postRef(ctx context.Context, channel, id string, direct bool) adapters.PostRef {
	ref := adapters.PostRef{Platform: platform, Channel: channel, ID: id}
	if !direct {
		ref.Thread = a.threadOf(ctx, channel)
	}
	return ref
}
