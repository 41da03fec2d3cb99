package slack

import (
	"context"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// membersPage is how many members one conversations.members call asks for (Slack's maximum
// is 1,000; it recommends no more than 200).
const membersPage = 200

// CanView reports whether user may read channel now, asking Slack each time:
//
//   - a deactivated account reads nothing (users.info, deleted);
//   - a private channel, a direct or a group direct message only its members read
//     (conversations.members, every page);
//   - a public channel every full member of the workspace reads, joined or not; a guest
//     (is_restricted, is_ultra_restricted) only if a member. An archived channel, too, only
//     its members.
//
// Any error Slack answers with is returned, and the engine counts it as "no". The bot must be
// in a private channel to ask about it (channel_not_found otherwise).
func (a *Adapter) CanView(ctx context.Context, user adapters.User, channel string) (bool, error) {
	u, err := a.api.GetUserInfoContext(ctx, user.ID)
	if err != nil {
		return false, fmt.Errorf("slack: can %s view %s: users.info: %w", user.ID, channel, err)
	}
	if u.Deleted {
		return false, nil
	}
	ch, err := a.api.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channel})
	if err != nil {
		return false, fmt.Errorf("slack: can %s view %s: conversations.info: %w", user.ID, channel, err)
	}
	closed := ch.IsPrivate || ch.IsGroup || ch.IsIM || ch.IsMpIM || ch.IsArchived
	if !closed && !u.IsRestricted && !u.IsUltraRestricted {
		return true, nil
	}
	return a.inConversation(ctx, channel, u.ID)
}

// inConversation reports whether user is among the members of channel.
func (a *Adapter) inConversation(ctx context.Context, channel, user string) (bool, error) {
	params := &slack.GetUsersInConversationParameters{ChannelID: channel, Limit: membersPage}
	for {
		ids, next, err := a.api.GetUsersInConversationContext(ctx, params)
		if err != nil {
			return false, fmt.Errorf("slack: is %s in %s: conversations.members: %w", user, channel, err)
		}
		for _, id := range ids {
			if id == user {
				return true, nil
			}
		}
		if next == "" {
			return false, nil
		}
		params.Cursor = next
	}
}
