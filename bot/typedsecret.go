package bot

import (
	"context"
	"errors"
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// turnAway answers a message Eos refuses before its handler looks at the flags (a mistake,
// an environment nobody declared). A message that holds a typed secret (intents.MaskSecrets:
// any spelling of a secret flag Eos understands) is taken down as well; the answer shows the
// message only masked.
func (e *Engine) turnAway(c conv, doc adapters.Doc) answer {
	_, typed := e.parser.MaskSecrets(c.msg.Text)
	return answer{doc: doc, takeDown: typed}
}

// takeDown posts answer about a message in which someone typed a secret. It takes the message
// down where the platform lets the bot, follows answer with a sentence saying whether the bot
// took it down or the author must, and records the refusal without the value. The answer is
// posted where it survives the deletion: a platform that removes a thread with its root
// (Mattermost) would take a reply down with the message.
func (e *Engine) takeDown(ctx context.Context, c conv, answer adapters.Doc) {

	err := adapters.ErrNotPermitted
	if d, ok := c.adapter.(adapters.Deleter); ok {
		err = d.Delete(ctx, c.msg.Post)
	}
	outcome, sentence := "message deleted", "I deleted your message; treat the value as exposed and do not use it."
	switch {
	case err == nil:
	case errors.Is(err, adapters.ErrNotPermitted):
		outcome = "message not deleted: not permitted"
		sentence = "I am not allowed to delete messages here: please delete yours, and treat the value as exposed."
	default:
		outcome = "message not deleted: " + err.Error()
		e.log.Warn("deleting a message with a typed secret", "platform", c.adapter.Name(), "post", c.msg.Post.ID, "err", err)
		sentence = "I could not delete your message: please delete it, and treat the value as exposed."
	}
	e.audit(ctx, store.Entry{Kind: "refusal", User: c.user(), Platform: c.adapter.Name(), Text: "secret typed in chat; " + outcome})
	blocks := append(slices.Clone(answer.Blocks), adapters.Text{Text: sentence})
	if err != nil || c.msg.Post.Thread != "" {
		e.say(ctx, c.adapter, c.msg.Post, adapters.NewDoc(blocks...))
		return
	}
	// The message was a thread's root, gone with its thread: answer at channel level, naming
	// its author.
	if t, ok := blocks[0].(adapters.Text); ok {
		blocks[0] = adapters.Text{Text: "@" + c.user() + " " + t.Text}
	} else {
		blocks = append([]adapters.Block{adapters.Text{Text: "@" + c.user()}}, blocks...)
	}
	if _, perr := c.adapter.Post(ctx, c.msg.Post.Channel, adapters.NewDoc(blocks...)); perr != nil {
		e.log.Error("posting", "platform", c.adapter.Name(), "err", perr)
	}
}
