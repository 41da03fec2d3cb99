package mattermost

import (
	"context"
	"errors"
	"fmt"

	"github.com/eosbot/eos/adapters"
)

// Whisper sends doc to the direct channel between the bot and to (opening it if needed),
// rendered like any post. near is not used: Mattermost has no message only one person of a
// channel sees that a bot may send, so the answer goes where only to reads it.
func (a *Adapter) Whisper(ctx context.Context, to adapters.User, _ adapters.PostRef, doc adapters.Doc) error {
	if to.ID == "" {
		return errors.New("mattermost: whisper to nobody (empty user id)")
	}
	self, err := a.identity(ctx)
	if err != nil {
		return err
	}
	dm, _, err := a.api.CreateDirectChannel(ctx, self.Id, to.ID)
	if err != nil {
		return fmt.Errorf("opening the direct channel with %s: %w", to.ID, err)
	}
	if _, err := a.send(ctx, dm.Id, "", doc); err != nil {
		return fmt.Errorf("whispering to %s: %w", to.ID, err)
	}
	return nil
}
