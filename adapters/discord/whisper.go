package discord

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// Whisper sends doc to the direct message channel between the bot and to, opening it if
// needed (Discord has no message only one person of a guild channel sees that a bot may send
// unprompted). near is not used. Discord refuses a DM to someone who shares no guild with the
// bot or who turned off DMs from server members; Whisper returns that error.
func (a *Adapter) Whisper(ctx context.Context, to adapters.User, _ adapters.PostRef, doc adapters.Doc) error {
	if to.ID == "" {
		return errors.New("discord: whisper to nobody (empty user id)")
	}
	dm, err := a.s.UserChannelCreate(to.ID, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("discord: opening a direct message with %s: %w", to.ID, err)
	}
	a.channels.put(dm.ID, channelInfo{kind: dm.Type})
	if _, err := a.send(ctx, dm.ID, "", nil, doc); err != nil {
		return fmt.Errorf("discord: whispering to %s: %w", to.ID, err)
	}
	return nil
}
