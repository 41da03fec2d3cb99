package mattermost

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// Delete removes post. Removing someone else's post needs the delete_others_posts permission
// in its channel: make the bot a team admin (or grant the permission in the team's or the
// channel's scheme); without it the server refuses and Delete returns adapters.ErrNotPermitted.
// The server refuses the same way a post that is not there (any more); Delete tells them apart
// by asking for the post, and returns adapters.ErrNoSuchPost for that one.
//
// Mattermost removes a thread's replies with its root post: delete a request that started a
// thread and the bot's answers in that thread go too.
func (a *Adapter) Delete(ctx context.Context, post adapters.PostRef) error {
	resp, err := a.api.DeletePost(ctx, post.ID)
	if err == nil {
		return nil
	}
	if err := a.gone(ctx, post.ID, resp, err); errors.Is(err, adapters.ErrNoSuchPost) {
		return fmt.Errorf("deleting post %s: %w", post.ID, err)
	}
	err = refusal(statusOf(resp), err)
	if errors.Is(err, adapters.ErrNotPermitted) {
		return fmt.Errorf("deleting post %s (the bot needs delete_others_posts, which team admins have): %w", post.ID, err)
	}
	return fmt.Errorf("deleting post %s: %w", post.ID, err)
}

// refusal marks err as adapters.ErrNotPermitted when the server refused the bot: 403 (a
// permission the bot's role lacks) or 501 (a feature the server's license lacks).
func refusal(status int, err error) error {
	if status == 0 {
		var ae *model.AppError
		if errors.As(err, &ae) {
			status = ae.StatusCode
		}
	}
	switch status {
	case http.StatusForbidden, http.StatusNotImplemented:
		return fmt.Errorf("%w: %w", adapters.ErrNotPermitted, err)
	}
	return err
}
