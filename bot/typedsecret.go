package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// secretTyped answers a message in which someone typed a secret. It takes the message down
// where the platform lets the bot, says so (or asks the author to delete it), and records the
// refusal without the value. The answer is posted where it survives the deletion: a platform
// that removes a thread with its root (Mattermost) would take a reply down with the message.
func (e *Engine) secretTyped(ctx context.Context, c conv, refusal string) {
	err := adapters.ErrNotPermitted
	if d, ok := c.a.(adapters.Deleter); ok {
		err = d.Delete(ctx, c.m.Post)
	}
	outcome := "message deleted"
	switch {
	case err == nil:
		refusal += " I deleted your message; treat the value as exposed and do not use it."
	case errors.Is(err, adapters.ErrNotPermitted):
		outcome = "message not deleted: not permitted"
		refusal += " I am not allowed to delete messages here: please delete yours, and treat the value as exposed."
	default:
		outcome = "message not deleted: " + err.Error()
		e.log.Warn("deleting a message with a typed secret", "platform", c.a.Name(), "post", c.m.Post.ID, "err", err)
		refusal += " I could not delete your message: please delete it, and treat the value as exposed."
	}
	e.audit(store.Entry{Kind: "refusal", User: c.user(), Platform: c.a.Name(), Text: "secret typed in chat; " + outcome})
	if err == nil && c.m.Post.Thread == "" {
		// The message was a thread's root; answer at channel level, naming its author.
		if _, perr := c.a.Post(ctx, c.m.Post.Channel, reply(fmt.Sprintf("@%s %s", c.user(), refusal))); perr != nil {
			e.log.Error("posting", "platform", c.a.Name(), "err", perr)
		}
		return
	}
	e.say(ctx, c.a, c.m.Post, reply(refusal))
}
