package slack

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack/slackevents"
)

// incoming is the part of an app_mention or message event the adapter uses.
type incoming struct {
	channel, user, botID, subtype, text, ts, threadTS string
	direct                                            bool
}

// dispatch turns one Events API event into a Message, Reaction, edit or deletion for h. Problems are returned
// for logging: one bad event must not end the connection.
func (a *Adapter) dispatch(ctx context.Context, h adapters.Handler, self *identity, data any) error {
	switch e := data.(type) {
	case *slackevents.AppMentionEvent:
		return a.deliverMessage(ctx, h, self, incoming{
			channel: e.Channel, user: e.User, botID: e.BotID, text: e.Text, ts: e.TimeStamp, threadTS: e.ThreadTimeStamp,
		})
	case *slackevents.MessageEvent:
		if e.SubType == "message_changed" || e.SubType == "message_deleted" {
			return a.onChanged(ctx, h, self, e) // changes.go
		}
		// In channels the bot hears only mentions (app_mention); a message event counts only
		// in a direct message.
		if e.ChannelType != "im" {
			return nil
		}
		return a.deliverMessage(ctx, h, self, incoming{
			channel: e.Channel, user: e.User, botID: e.BotID, subtype: e.SubType, text: e.Text,
			ts: e.TimeStamp, threadTS: e.ThreadTimeStamp, direct: true,
		})
	case *slackevents.ReactionAddedEvent:
		return a.deliverReaction(ctx, h, self, e.User, e.Reaction, e.Item, e.EventTimestamp, false)
	case *slackevents.ReactionRemovedEvent:
		return a.deliverReaction(ctx, h, self, e.User, e.Reaction, e.Item, e.EventTimestamp, true)
	case *slackevents.UserChangeEvent:
		// Delivered when the app subscribes to user_change (scope users:read): a rename or a
		// deactivation shows at once in the names of later events and in LookupUser.
		a.noteUser(adapters.User{ID: e.User.ID, Name: e.User.Name, Bot: e.User.IsBot})
		if e.User.Deleted {
			a.members.seen(e.User.ID, "")
		}
	}
	return nil
}

// deliverMessage hands m to h when a person wrote it in a served channel. Each message is
// delivered once, even when Slack sends it both as a mention and as a direct message, or
// redelivers it.
func (a *Adapter) deliverMessage(ctx context.Context, h adapters.Handler, self *identity, m incoming) error {
	switch {
	case m.user == "" || m.user == self.userID || m.botID != "":
		return nil
	case m.subtype != "" && m.subtype != "thread_broadcast" && m.subtype != "file_share":
		return nil // edits, deletions, joins and the like are not requests
	}
	ok, err := a.serves(ctx, m.channel)
	if err != nil || !ok {
		return err
	}
	if !a.seen.put(m.channel+"/"+m.ts, struct{}{}) {
		return nil
	}
	author, err := a.user(ctx, m.user)
	if err != nil {
		return fmt.Errorf("message %s: %w", m.ts, err)
	}
	if author.Bot {
		return nil
	}
	thread := m.threadTS
	if thread == m.ts {
		thread = ""
	}
	h.HandleMessage(ctx, a, adapters.Message{
		Post:   adapters.PostRef{Platform: platform, Channel: m.channel, ID: m.ts, Thread: thread},
		Author: author,
		Text:   a.plainText(ctx, m.text, self),
		Direct: m.direct,
		At:     parseTS(m.ts),
	})
	return nil
}

// deliverReaction hands a reaction on a message in a served channel to h, except the bot's own.
// Other bots' reactions are delivered with User.Bot set: the engine decides what they count for.
func (a *Adapter) deliverReaction(ctx context.Context, h adapters.Handler, self *identity, userID, name string, item slackevents.Item, eventTS string, removed bool) error {
	if item.Type != "message" || userID == self.userID {
		return nil
	}
	ok, err := a.serves(ctx, item.Channel)
	if err != nil || !ok {
		return err
	}
	user, err := a.user(ctx, userID)
	if err != nil {
		return fmt.Errorf("reaction on %s: %w", item.Timestamp, err)
	}
	// The thread is known for the bot's own posts (previews), the ones approvals are given on.
	thread, _ := a.threads.get(item.Channel + "/" + item.Timestamp)
	h.HandleReaction(ctx, a, adapters.Reaction{
		Post:    adapters.PostRef{Platform: platform, Channel: item.Channel, ID: item.Timestamp, Thread: thread},
		User:    user,
		Emoji:   canonicalEmoji(name),
		Removed: removed,
		At:      parseTS(eventTS),
	})
	return nil
}

// canonicalEmoji turns a Slack reaction name ("+1::skin-tone-3", "thumbsup") into the canonical
// short name ("+1").
func canonicalEmoji(name string) string {
	if base, _, ok := strings.Cut(name, "::skin-tone-"); ok {
		name = base
	}
	return adapters.CanonicalEmoji(name)
}

// slackEmoji is the name reactions.add expects for an emoji given as a canonical name,
// ":name:" or Unicode.
func slackEmoji(emoji string) string {
	return adapters.CanonicalEmoji(emoji)
}

// parseTS turns a Slack timestamp ("1700000000.000100") into a time; zero if malformed.
func parseTS(ts string) time.Time {
	sec, frac, _ := strings.Cut(ts, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return time.Time{}
	}
	var us int64
	if frac != "" {
		frac = (frac + "000000")[:6]
		us, _ = strconv.ParseInt(frac, 10, 64)
	}
	return time.Unix(s, us*1000)
}
