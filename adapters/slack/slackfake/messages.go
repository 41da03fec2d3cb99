package slackfake

// The Web API methods on messages (chat.postMessage, chat.update, chat.delete, reactions.add,
// reactions.get) and what tests read of them.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

func (f *Fake) recordMessage(r *http.Request, ts string) (Call, error) {
	c := Call{Channel: r.PostForm.Get("channel"), TS: ts, ThreadTS: r.PostForm.Get("thread_ts"), Text: r.PostForm.Get("text")}
	if b := r.PostForm.Get("blocks"); b != "" {
		if err := json.Unmarshal([]byte(b), &c.Blocks); err != nil {
			return c, err
		}
	}
	return c, c.WithinLimits()
}

func (f *Fake) postMessage(r *http.Request) map[string]any {
	ch := r.PostForm.Get("channel")
	if name := strings.TrimPrefix(ch, "#"); name != ch || f.channels[ch] == "" {
		for id, n := range f.channels {
			if n == name {
				ch = id
			}
		}
	}
	if _, ok := f.channels[ch]; !ok && !strings.HasPrefix(ch, "D") {
		return fail("channel_not_found")
	}
	f.ts++
	ts := fmt.Sprintf("1700000100.%06d", f.ts)
	c, err := f.recordMessage(r, ts)
	if err != nil {
		return fail("invalid_blocks")
	}
	c.Channel = ch
	f.posts = append(f.posts, c)
	return map[string]any{"ok": true, "channel": ch, "ts": ts,
		"message": map[string]any{"type": "message", "user": BotID, "text": c.Text, "ts": ts}}
}

// update serves chat.update of one of the bot's messages; one it never posted, or one deleted,
// is message_not_found.
func (f *Fake) update(r *http.Request) map[string]any {
	ch, ts := r.PostForm.Get("channel"), r.PostForm.Get("ts")
	if !f.posted(ch, ts) || f.gone(ch, ts) {
		return fail("message_not_found")
	}
	c, err := f.recordMessage(r, ts)
	if err != nil {
		return fail("invalid_blocks")
	}
	f.updates = append(f.updates, c)
	return map[string]any{"ok": true, "channel": c.Channel, "ts": ts, "text": c.Text}
}

// delete serves chat.delete as Slack does: the bot token deletes only the bot's own messages
// (cant_delete_message otherwise), an admin's user token any message.
func (f *Fake) delete(r *http.Request, token string) map[string]any {
	ch, ts := r.PostForm.Get("channel"), r.PostForm.Get("ts")
	switch {
	case !f.exists(ch, ts):
		return fail("message_not_found")
	case token == BotToken && !f.posted(ch, ts):
		return fail("cant_delete_message")
	}
	by := map[string]string{BotToken: "bot", AdminUserToken: "admin"}[token]
	f.deleted = append(f.deleted, Deletion{Channel: ch, TS: ts, By: by})
	return map[string]any{"ok": true, "channel": ch, "ts": ts}
}

func (f *Fake) reactionsAdd(r *http.Request) map[string]any {
	c := Call{Channel: r.PostForm.Get("channel"), TS: r.PostForm.Get("timestamp"), Name: r.PostForm.Get("name")}
	for _, old := range f.reacted {
		if old.Channel == c.Channel && old.TS == c.TS && old.Name == c.Name {
			return fail("already_reacted")
		}
	}
	f.reacted = append(f.reacted, c)
	return map[string]any{"ok": true}
}

// reactionsGet serves reactions.get of a message; one that does not exist (any more) is
// message_not_found, as on Slack.
func (f *Fake) reactionsGet(r *http.Request) map[string]any {
	ch, ts := r.PostForm.Get("channel"), r.PostForm.Get("timestamp")
	if _, ok := f.channels[ch]; !ok && !strings.HasPrefix(ch, "D") {
		return fail("channel_not_found")
	}
	if !f.exists(ch, ts) {
		return fail("message_not_found")
	}
	return map[string]any{"ok": true, "type": "message", "channel": ch, "message": map[string]any{
		"type": "message", "ts": ts, "reactions": f.Reactions[ch+"/"+ts],
	}}
}

// exists reports whether the message ch/ts is there to be read: the bot posted it, a person sent
// it (Send) or a test gave it reactions (Reactions), and nobody deleted it.
func (f *Fake) exists(ch, ts string) bool {
	_, said := f.said[ch+"/"+ts]
	_, reacted := f.Reactions[ch+"/"+ts]
	return (f.posted(ch, ts) || said || reacted) && !f.gone(ch, ts)
}

// posted reports whether the bot posted the message ch/ts (chat.postMessage).
func (f *Fake) posted(ch, ts string) bool {
	return slices.ContainsFunc(f.posts, func(p Call) bool { return p.Channel == ch && p.TS == ts })
}

// gone reports whether the message ch/ts was deleted (chat.delete).
func (f *Fake) gone(ch, ts string) bool {
	return slices.ContainsFunc(f.deleted, func(d Deletion) bool { return d.Channel == ch && d.TS == ts })
}

// Recorded returns copies of the messages posted, the updates and the reactions the bot added.
func (f *Fake) Recorded() (posts, updates, reacted []Call) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]Call(nil), f.posts...), append([]Call(nil), f.updates...), append([]Call(nil), f.reacted...)
}

// Deleted returns the messages deleted so far, in order.
func (f *Fake) Deleted() []Deletion {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]Deletion(nil), f.deleted...)
}
