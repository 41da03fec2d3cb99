package slackfake

// The Web API methods on conversations (conversations.info, conversations.members) and the
// ephemeral messages posted in them (chat.postEphemeral).

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
)

// Conversation is what Slack tells of a channel besides its name.
type Conversation struct {
	// Private is a private channel; IM a direct message; MPIM a group direct message.
	Private, IM, MPIM bool
	Archived          bool
	// Members are the ids conversations.members lists, in order.
	Members []string
}

// AddConversation adds channel id called name (empty for a direct message) to the workspace.
func (f *Fake) AddConversation(id, name string, c Conversation) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.channels[id] = name
	f.Conversations[id] = c
}

// conversationsInfo serves conversations.info with the flags the adapter reads.
func (f *Fake) conversationsInfo(r *http.Request) map[string]any {
	id := r.PostForm.Get("channel")
	name, ok := f.channels[id]
	if !ok {
		return fail("channel_not_found")
	}
	c := f.Conversations[id]
	return map[string]any{"ok": true, "channel": map[string]any{"id": id, "name": name,
		"is_channel": !c.IM && !c.MPIM, "is_private": c.Private || c.IM || c.MPIM,
		"is_im": c.IM, "is_mpim": c.MPIM, "is_archived": c.Archived}}
}

// conversationsMembers serves conversations.members a page at a time: limit ids (default 100,
// at most MembersPage when set), and the next page's cursor (the index it starts at) in
// response_metadata, empty on the last.
func (f *Fake) conversationsMembers(r *http.Request) map[string]any {
	id := r.PostForm.Get("channel")
	if _, ok := f.channels[id]; !ok {
		return fail("channel_not_found")
	}
	f.MemberLists++
	members := f.Conversations[id].Members
	limit, err := strconv.Atoi(r.PostForm.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	if f.MembersPage > 0 {
		limit = min(limit, f.MembersPage)
	}
	start := 0
	if c := r.PostForm.Get("cursor"); c != "" {
		if start, err = strconv.Atoi(c); err != nil || start < 0 || start > len(members) {
			return fail("invalid_cursor")
		}
	}
	end := min(start+limit, len(members))
	next := ""
	if end < len(members) {
		next = strconv.Itoa(end)
	}
	return map[string]any{"ok": true, "members": append([]string{}, members[start:end]...),
		"response_metadata": map[string]any{"next_cursor": next}}
}

// postEphemeral serves chat.postEphemeral. As on Slack the person must exist, and be a member
// of a channel whose members are known (user_not_in_channel otherwise).
func (f *Fake) postEphemeral(r *http.Request) map[string]any {
	ch, user := r.PostForm.Get("channel"), r.PostForm.Get("user")
	if _, ok := f.channels[ch]; !ok {
		return fail("channel_not_found")
	}
	if _, ok := f.Users[user]; !ok {
		return fail("user_not_found")
	}
	if m := f.Conversations[ch].Members; m != nil && !slices.Contains(m, user) {
		return fail("user_not_in_channel")
	}
	f.ts++
	ts := fmt.Sprintf("1700000100.%06d", f.ts)
	c, err := f.recordMessage(r, ts)
	if err != nil {
		return fail("invalid_blocks")
	}
	c.User = user
	f.ephemerals = append(f.ephemerals, c)
	return map[string]any{"ok": true, "message_ts": ts}
}

// Ephemerals returns the ephemeral messages the bot posted, in order.
func (f *Fake) Ephemerals() []Call {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.ephemerals)
}
