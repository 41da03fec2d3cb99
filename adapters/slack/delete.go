package slack

import (
	"context"
	"errors"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// Delete removes post (chat.delete). A bot token may delete only the bot's own messages, so a
// person's message is deleted with Config.AdminUserToken when it is set; without it Slack
// refuses (cant_delete_message) and Delete returns adapters.ErrNotPermitted. A deleted thread
// parent leaves "This message was deleted." above its replies. A post already deleted is
// adapters.ErrNoSuchPost.
func (a *Adapter) Delete(ctx context.Context, post adapters.PostRef) error {
	api, hint := a.api, "a bot may delete only its own messages; set AdminUserToken"
	if a.admin != nil {
		api, hint = a.admin, "AdminUserToken is not a workspace admin's, or lacks chat:write"
	}
	_, _, err := api.DeleteMessageContext(ctx, post.Channel, post.ID)
	if err == nil {
		return nil
	}
	if refused(err) {
		return fmt.Errorf("deleting post %s in channel %s (%s): %w: %w", post.ID, post.Channel, hint, adapters.ErrNotPermitted, err)
	}
	return fmt.Errorf("deleting post %s in channel %s: %w", post.ID, post.Channel, gone(err))
}

// refused reports whether err is Slack refusing the token an action (rather than a failure).
func refused(err error) bool {
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) {
		return false
	}
	switch se.Err {
	case "cant_delete_message", "compliance_exports_prevent_deletion", "missing_scope",
		"restricted_action", "not_allowed_token_type", "no_permission":
		return true
	}
	return false
}
