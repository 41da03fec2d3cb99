package discord

import (
	"context"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// Delete removes post. Deleting someone else's message needs the Manage Messages permission
// in its channel, and is never allowed in a direct message: Discord refuses (403, Missing
// Permissions) and Delete returns adapters.ErrNotPermitted. A thread started from the message
// stays. A message already deleted is adapters.ErrNoSuchPost.
func (a *Adapter) Delete(ctx context.Context, post adapters.PostRef) error {
	err := a.s.ChannelMessageDelete(post.Channel, post.ID, discordgo.WithContext(ctx))
	if err == nil {
		return nil
	}
	if refused(err) {
		return fmt.Errorf("deleting message %s (the bot needs Manage Messages in the channel): %w: %w", post.ID, adapters.ErrNotPermitted, err)
	}
	return fmt.Errorf("deleting message %s: %w", post.ID, gone(err))
}

// refused reports whether err is Discord refusing the bot an action.
func refused(err error) bool {
	switch codeOf(err) {
	case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess, discordgo.ErrCodeCannotExecuteActionOnDMChannel:
		return true
	}
	return statusOf(err) == http.StatusForbidden
}
