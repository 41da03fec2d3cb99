package slack

import (
	"context"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// onChanged delivers a person's message edited (subtype message_changed) or deleted
// (message_deleted) to a handler that is an adapters.ChangeHandler. Slack sends these as
// message events, which reach the app in channels only when it subscribes to message.channels
// and message.groups (scopes channels:history, groups:history); with app_mention alone it
// hears them in direct messages only. Changes Slack makes itself (link unfurls, no edit mark)
// and those of bots are not delivered, nor changes made while the socket was down.
func (a *Adapter) onChanged(ctx context.Context, h adapters.Handler, self *identity, e *slackevents.MessageEvent) error {
	ch, ok := h.(adapters.ChangeHandler)
	if !ok {
		return nil
	}
	m := e.Message
	if e.SubType == "message_deleted" {
		m = e.PreviousMessage
	}
	if m == nil || m.User == "" || m.User == self.userID || m.BotID != "" {
		return nil
	}
	if e.SubType == "message_changed" && m.Edited == nil {
		return nil
	}
	ok, err := a.serves(ctx, e.Channel)
	if err != nil || !ok {
		return err
	}
	ts := m.Timestamp
	if e.SubType == "message_deleted" && e.DeletedTimeStamp != "" {
		ts = e.DeletedTimeStamp
	}
	ref := adapters.PostRef{Platform: platform, Channel: e.Channel, ID: ts, Thread: threadOf(m)}
	if e.SubType == "message_deleted" {
		ch.HandleDelete(ctx, a, ref)
		return nil
	}
	author, err := a.user(ctx, m.User)
	if err != nil {
		return fmt.Errorf("edited message %s: %w", ts, err)
	}
	if author.Bot {
		return nil
	}
	ch.HandleEdit(ctx, a, adapters.Message{Post: ref, Author: author, Text: a.plainText(ctx, m.Text, self),
		Direct: e.ChannelType == "im", At: parseTS(m.Edited.Timestamp)})
	return nil
}

// threadOf is the thread a message is in, "" at channel level (or for a thread's root).
func threadOf(m *slack.Msg) string {
	if m.ThreadTimestamp == m.Timestamp {
		return ""
	}
	return m.ThreadTimestamp
}
