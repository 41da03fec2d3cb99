package slack

import (
	"context"
	"errors"
	"fmt"

	"github.com/eosbot/eos/adapters"
)

// Whisper posts doc as ephemeral messages (chat.postEphemeral) that only to sees, in the
// channel of near and in near's thread when near is a reply. Slack keeps an ephemeral message
// for the person's session only, and refuses one to someone outside the channel
// (user_not_in_channel). A doc too long for one message goes as several, in order.
func (a *Adapter) Whisper(ctx context.Context, to adapters.User, near adapters.PostRef, doc adapters.Doc) error {
	if to.ID == "" || near.Channel == "" {
		return errors.New("slack: whisper needs a person's id and the channel they asked in")
	}
	msgs := Render(doc)
	for i, m := range msgs {
		if _, err := a.api.PostEphemeralContext(ctx, near.Channel, to.ID, messageOptions(m, near.Thread)...); err != nil {
			return fmt.Errorf("slack: whispering part %d of %d to %s in channel %s: %w", i+1, len(msgs), to.ID, near.Channel, err)
		}
	}
	return nil
}
