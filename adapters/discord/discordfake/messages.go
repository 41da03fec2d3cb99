package discordfake

// Messages over REST: creating (with files), reading and editing them, starting threads from
// them, reacting to them; and what tests add and read of them.

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf16"
)

// MessageJSON is m as Discord sends a message object; call it holding Mu.
func (f *Fake) MessageJSON(m *Message) map[string]any {
	out := map[string]any{
		"id": m.ID, "channel_id": m.Channel, "content": m.Content, "type": 0,
		"author": userJSON(f.Users[m.Author]), "timestamp": "2026-11-23T08:00:00.000000+00:00",
		"edited_timestamp": nil, "tts": false, "mention_everyone": false, "mentions": []any{},
		"attachments": []any{}, "embeds": []any{}, "pinned": false,
	}
	if g := f.Channels[m.Channel].Guild; g != "" {
		out["guild_id"] = g
	}
	var reactions []any
	for emoji, users := range m.Reactions {
		reactions = append(reactions, map[string]any{
			"count": len(users), "me": slices.Contains(users, BotID), "emoji": map[string]any{"id": nil, "name": emoji},
		})
	}
	if reactions != nil {
		out["reactions"] = reactions
	}
	return out
}

func (f *Fake) createMessage(w http.ResponseWriter, r *http.Request) {
	ch, ok := f.Channels[r.PathValue("ch")]
	if !ok {
		apiError(w, 404, 10003, "Unknown Channel")
		return
	}
	var body struct {
		Content   string `json:"content"`
		Reference *struct {
			MessageID       string `json:"message_id"`
			FailIfNotExists *bool  `json:"fail_if_not_exists"`
		} `json:"message_reference"`
	}
	files := map[string]string{}
	payload := io.Reader(r.Body)
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			apiError(w, 400, 50035, "Invalid Form Body")
			return
		}
		payload = strings.NewReader(r.FormValue("payload_json"))
		for field, fhs := range r.MultipartForm.File {
			if !strings.HasPrefix(field, "files[") {
				continue
			}
			for _, fh := range fhs {
				rd, _ := fh.Open()
				b, _ := io.ReadAll(rd)
				rd.Close()
				files[fh.Filename] = string(b)
			}
		}
	}
	if len(files) > 0 && f.RejectFiles {
		apiError(w, http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
		return
	}
	if err := json.NewDecoder(payload).Decode(&body); err != nil {
		apiError(w, 400, 50109, "The request body contains invalid JSON.")
		return
	}
	if n := len(utf16.Encode([]rune(body.Content))); n == 0 && len(files) == 0 || n > MaxContent {
		apiError(w, 400, 50035, "Invalid Form Body: content must be 1 to 2000 characters")
		return
	}
	m := &Message{ID: f.id(), Channel: ch.ID, Author: BotID, Content: body.Content, Files: files}
	if ref := body.Reference; ref != nil {
		if to, ok := f.Messages[ref.MessageID]; ok && to.Channel == ch.ID {
			m.Reference = ref.MessageID
		} else if ref.FailIfNotExists == nil || *ref.FailIfNotExists {
			// A reply to a message that is not there (any more), as Discord refuses it.
			writeJSON(w, 400, map[string]any{"code": 50035, "message": "Invalid Form Body",
				"errors": map[string]any{"message_reference": map[string]any{
					"_errors": []any{map[string]any{"code": "REPLIES_UNKNOWN_MESSAGE", "message": "Unknown message"}}}}})
			return
		}
	}
	f.Messages[m.ID] = m
	f.posted = append(f.posted, m)
	writeJSON(w, 200, f.MessageJSON(m))
}

// message finds the message a request names, answering as Discord does when there is none:
// Unknown Channel for a channel that does not exist, Unknown Message for a message not (or no
// longer) in the channel.
func (f *Fake) message(w http.ResponseWriter, r *http.Request) (*Message, bool) {
	if _, ok := f.Channels[r.PathValue("ch")]; !ok {
		apiError(w, 404, 10003, "Unknown Channel")
		return nil, false
	}
	m, ok := f.Messages[r.PathValue("id")]
	if !ok || m.Channel != r.PathValue("ch") {
		apiError(w, 404, 10008, "Unknown Message")
		return nil, false
	}
	return m, true
}

func (f *Fake) getMessage(w http.ResponseWriter, r *http.Request) {
	if m, ok := f.message(w, r); ok {
		writeJSON(w, 200, f.MessageJSON(m))
	}
}

func (f *Fake) editMessage(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	if m.Author != BotID {
		apiError(w, 403, 50005, "Cannot edit a message authored by another user")
		return
	}
	var body struct {
		Content *string `json:"content"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, 400, 50109, "The request body contains invalid JSON.")
		return
	}
	if body.Content != nil {
		if n := len(utf16.Encode([]rune(*body.Content))); n > MaxContent {
			apiError(w, 400, 50035, "Invalid Form Body: content must be 2000 or fewer in length")
			return
		}
		m.Content = *body.Content
	}
	m.Edits++
	writeJSON(w, 200, f.MessageJSON(m))
}

func (f *Fake) startThread(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	parent := f.Channels[m.Channel]
	switch {
	case parent.Type == 1:
		apiError(w, 400, 50003, "Cannot execute action on a DM channel")
		return
	case f.Channels[m.ID] != nil:
		apiError(w, 400, 160004, "A thread has already been created for this message")
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	if n := len([]rune(body.Name)); n < 1 || n > 100 {
		apiError(w, 400, 50035, "Invalid Form Body: name must be 1 to 100 characters")
		return
	}
	// A thread started from a message has the message's id.
	th := &Channel{ID: m.ID, Guild: parent.Guild, Parent: parent.ID, Type: 11}
	f.Channels[th.ID] = th
	f.Threads = append(f.Threads, parent.ID+"/"+m.ID+" "+body.Name)
	writeJSON(w, 201, f.channelJSON(th))
}

func (f *Fake) addReaction(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	emoji := r.PathValue("emoji")
	if m.Reactions == nil {
		m.Reactions = map[string][]string{}
	}
	if !slices.Contains(m.Reactions[emoji], BotID) {
		m.Reactions[emoji] = append(m.Reactions[emoji], BotID)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (f *Fake) listReactions(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	users := []any{}
	for _, id := range m.Reactions[r.PathValue("emoji")] {
		users = append(users, userJSON(f.Users[id]))
	}
	writeJSON(w, 200, users)
}

// AddMessage stores a message someone wrote (before it is dispatched on the gateway).
func (f *Fake) AddMessage(channel, author, content string) *Message {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	m := &Message{ID: f.id(), Channel: channel, Author: author, Content: content}
	f.Messages[m.ID] = m
	return m
}

// BotMessages returns copies of what the bot posted, in order.
func (f *Fake) BotMessages() []Message {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	out := make([]Message, len(f.posted))
	for i, m := range f.posted {
		out[i] = *m
	}
	return out
}
