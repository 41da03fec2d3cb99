package mattermost

import (
	"context"
	"fmt"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// onChanged delivers a person's post edited (post_edited) or deleted (post_deleted) in a
// served channel to a handler that is an adapters.ChangeHandler. Edits are delivered whether
// or not the text mentions the bot: the edit may have taken the mention out, and the handler
// knows which posts asked for something. Changes made while the bot was disconnected are
// delivered by the catch-up (catchupchanges.go).
func (a *Adapter) onChanged(ctx context.Context, h adapters.Handler, self *model.User, ev *model.WebSocketEvent, deleted bool) error {
	ch, ok := h.(adapters.ChangeHandler)
	if !ok {
		return nil
	}
	var post model.Post
	if err := decodeField(ev, "post", &post); err != nil {
		return err
	}
	if deleted {
		// The event's post is the one read before the deletion: its DeleteAt is not set, and
		// there is no time to move the cursor to.
		return a.deliverChange(ctx, ch, self, &post, true, 0)
	}
	at := post.EditAt
	if at == 0 {
		at = post.UpdateAt
	}
	if err := a.deliverChange(ctx, ch, self, &post, false, at); err != nil {
		return err
	}
	if post.EditAt != 0 && post.UserId != self.Id {
		// A catch-up by the next process then starts after the edit (less the margin) rather
		// than delivering it again.
		a.advance(ctx, post.ChannelId, post.EditAt)
	}
	return nil
}

// deliverChange hands ch the edit (made at at, the server's milliseconds) or the deletion of
// post when it is a person's post in a served channel. Each change is delivered once by this
// process, whether it is heard on the websocket, in a catch-up, or both: an edit is known by
// its post and time, a deletion by its post.
func (a *Adapter) deliverChange(ctx context.Context, ch adapters.ChangeHandler, self *model.User, post *model.Post, deleted bool, at int64) error {
	if post.UserId == self.Id || post.Type != "" || fromBot(post) || !a.serves(post.ChannelId) {
		return nil
	}
	key := fmt.Sprintf("edit %s %d", post.Id, at)
	if deleted {
		key = "delete " + post.Id
	}
	if !a.recent.add(key) {
		return nil
	}
	ref := adapters.PostRef{Platform: platform, Channel: post.ChannelId, ID: post.Id, Thread: post.RootId}
	if deleted {
		ch.HandleDelete(ctx, a, ref)
		return nil
	}
	author, err := a.user(ctx, post.UserId)
	if err != nil {
		return fmt.Errorf("edited post %s: %w", post.Id, err)
	}
	if author.Bot {
		return nil
	}
	ch.HandleEdit(ctx, a, adapters.Message{Post: ref, Author: author, Text: post.Message, At: time.UnixMilli(at)})
	return nil
}
