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
// knows which posts asked for something. Changes made while the bot was disconnected are not
// caught up.
func (a *Adapter) onChanged(ctx context.Context, h adapters.Handler, self *model.User, ev *model.WebSocketEvent, deleted bool) error {
	ch, ok := h.(adapters.ChangeHandler)
	if !ok {
		return nil
	}
	var post model.Post
	if err := decodeField(ev, "post", &post); err != nil {
		return err
	}
	if post.UserId == self.Id || post.Type != "" || fromBot(&post) || !a.serves(post.ChannelId) {
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
	at := post.EditAt
	if at == 0 {
		at = post.UpdateAt
	}
	ch.HandleEdit(ctx, a, adapters.Message{Post: ref, Author: author, Text: post.Message, At: time.UnixMilli(at)})
	return nil
}
