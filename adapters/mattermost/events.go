package mattermost

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// dispatch turns one websocket event into a Message, Reaction, edit or deletion for h. Problems are logged:
// one bad event must not end the connection.
func (a *Adapter) dispatch(ctx context.Context, h adapters.Handler, self *model.User, ev *model.WebSocketEvent) {
	var err error
	switch ev.EventType() {
	case model.WebsocketEventPosted:
		err = a.onPosted(ctx, h, self, ev)
	case model.WebsocketEventReactionAdded:
		err = a.onReaction(ctx, h, self, ev, false)
	case model.WebsocketEventReactionRemoved:
		err = a.onReaction(ctx, h, self, ev, true)
	case model.WebsocketEventPostEdited:
		err = a.onChanged(ctx, h, self, ev, false)
	case model.WebsocketEventPostDeleted:
		err = a.onChanged(ctx, h, self, ev, true)
	case model.WebsocketEventUserUpdated:
		err = a.onUserUpdated(ev)
	}
	if err != nil {
		a.log.Error("dropping event", "event", string(ev.EventType()), "err", err)
	}
}

func (a *Adapter) onPosted(ctx context.Context, h adapters.Handler, self *model.User, ev *model.WebSocketEvent) error {
	var post model.Post
	if err := decodeField(ev, "post", &post); err != nil {
		return err
	}
	chType, _ := ev.GetData()["channel_type"].(string)
	if err := a.deliverPost(ctx, h, self, &post, model.ChannelType(chType)); err != nil {
		return err
	}
	a.advance(ctx, post.ChannelId, post.CreateAt)
	return nil
}

// deliverPost hands post to h when it is addressed to the bot: it mentions the bot or arrives
// in a direct message, in a served channel, from a person. Each post is delivered once.
func (a *Adapter) deliverPost(ctx context.Context, h adapters.Handler, self *model.User, post *model.Post, chType model.ChannelType) error {
	a.mu.Lock()
	a.lastSeen = max(a.lastSeen, post.CreateAt)
	a.mu.Unlock()
	if post.UserId == self.Id || post.Type != "" || post.DeleteAt != 0 || fromBot(post) {
		return nil
	}
	direct := chType == model.ChannelTypeDirect
	if !direct && !mentions(post.Message, self.Username) {
		return nil
	}
	if !a.serves(post.ChannelId) || !a.recent.add(post.Id) {
		return nil
	}
	author, err := a.user(ctx, post.UserId)
	if err != nil {
		return fmt.Errorf("post %s: %w", post.Id, err)
	}
	if author.Bot {
		return nil
	}
	h.HandleMessage(ctx, a, adapters.Message{
		Post:   adapters.PostRef{Platform: platform, Channel: post.ChannelId, ID: post.Id, Thread: post.RootId},
		Author: author,
		Text:   post.Message,
		Direct: direct,
		At:     time.UnixMilli(post.CreateAt),
	})
	return nil
}

// onReaction delivers a reaction in a served channel, except the bot's own. Other bots'
// reactions are delivered with User.Bot set: the engine decides what they count for.
func (a *Adapter) onReaction(ctx context.Context, h adapters.Handler, self *model.User, ev *model.WebSocketEvent, removed bool) error {
	var r model.Reaction
	if err := decodeField(ev, "reaction", &r); err != nil {
		return err
	}
	if r.UserId == self.Id {
		return nil
	}
	channel := ev.GetBroadcast().ChannelId
	if channel == "" {
		channel = r.ChannelId
	}
	if err := a.deliverReaction(ctx, h, &r, channel, "", removed); err != nil {
		return err
	}
	a.advance(ctx, channel, r.CreateAt)
	return nil
}

// deliverReaction hands one reaction to h. thread is the post's root when known; otherwise
// it is looked up, so replies land in the right thread.
func (a *Adapter) deliverReaction(ctx context.Context, h adapters.Handler, r *model.Reaction, channel, thread string, removed bool) error {
	if !a.serves(channel) {
		return nil
	}
	user, err := a.user(ctx, r.UserId)
	if err != nil {
		return fmt.Errorf("reaction on %s: %w", r.PostId, err)
	}
	ref := adapters.PostRef{Platform: platform, Channel: channel, ID: r.PostId, Thread: thread}
	if thread == "" {
		if post, _, err := a.api.GetPost(ctx, r.PostId, ""); err != nil {
			a.log.Warn("reaction delivered without its thread", "post", r.PostId, "err", err)
		} else {
			ref.Thread = post.RootId
		}
	}
	h.HandleReaction(ctx, a, adapters.Reaction{
		Post:    ref,
		User:    user,
		Emoji:   adapters.CanonicalEmoji(r.EmojiName),
		Removed: removed,
		At:      time.UnixMilli(r.CreateAt),
	})
	return nil
}

// decodeField decodes the JSON text the server puts in an event's data field.
func decodeField(ev *model.WebSocketEvent, field string, v any) error {
	raw, ok := ev.GetData()[field].(string)
	if !ok {
		return fmt.Errorf("event has no %q field", field)
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return fmt.Errorf("decoding %q: %w", field, err)
	}
	return nil
}

func fromBot(p *model.Post) bool {
	v, _ := p.GetProp(model.PostPropsFromBot).(string)
	return v == "true"
}

// mentions reports whether text contains @username as a whole mention, as Mattermost
// highlights it: case-insensitive, not inside a longer name ("@eosbot") or an address
// ("x@eos"); a trailing full stop or other punctuation is allowed ("@eos.").
func mentions(text, username string) bool {
	if username == "" {
		return false
	}
	lower, want := strings.ToLower(text), "@"+strings.ToLower(username)
	for i := 0; ; {
		j := strings.Index(lower[i:], want)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(want)
		i = start + 1
		if start > 0 {
			if r, _ := utf8.DecodeLastRuneInString(lower[:start]); isNameRune(r) {
				continue
			}
		}
		rest := lower[end:]
		r, n := utf8.DecodeRuneInString(rest)
		if r == '.' {
			r, _ = utf8.DecodeRuneInString(rest[n:])
		}
		if rest == "" || !isNameRune(r) {
			return true
		}
	}
}

// isNameRune reports whether r may continue a Mattermost username.
func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'
}
