package mattermost

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// postNotFound is the id of the server's 404 to GET /posts/{id} for a post that is not there:
// deleted, or never made. Only this answer tells that a post is gone. The others are
// ambiguous (checked against Mattermost 6.7): an edit or a deletion of a deleted post is 403
// api.context.permissions.app_error, as for a permission the bot lacks; a reply under it is 400
// api.post.create_post.root_id.app_error, as for a root that is itself a reply; and a deleted
// post's reactions are still served, with 200.
const postNotFound = "app.post.get.app_error"

// missing asks the server for post id. It reports true when the server says there is no such
// post (or returns it marked deleted), false when the post is there, and an error when the
// server does not tell (a refused token, an outage).
func (a *Adapter) missing(ctx context.Context, id string) (bool, error) {
	p, resp, err := a.api.GetPost(ctx, id, "")
	var ae *model.AppError
	switch {
	case err == nil:
		return p.DeleteAt != 0, nil
	case statusOf(resp) == http.StatusNotFound && errors.As(err, &ae) && ae.Id == postNotFound:
		return true, nil
	}
	return false, fmt.Errorf("reading post %s: %w", id, err)
}

// gone marks err, the server's refusal of an operation on post id, as adapters.ErrNoSuchPost
// when missing confirms that the post is not there; any other error is returned as it is.
// Only a 400, 403 or 404 may stand for a missing post; others are returned without asking.
func (a *Adapter) gone(ctx context.Context, id string, resp *model.Response, err error) error {
	status := statusOf(resp)
	var ae *model.AppError
	if status == 0 && errors.As(err, &ae) {
		status = ae.StatusCode
	}
	switch status {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound:
	default:
		return err
	}
	if missing, mErr := a.missing(ctx, id); mErr != nil || !missing {
		return err
	}
	return fmt.Errorf("%w: %w", adapters.ErrNoSuchPost, err)
}
