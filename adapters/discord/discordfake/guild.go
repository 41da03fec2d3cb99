package discordfake

// The guild's roles and members (and the member search), and deleting messages, which depends on the bot's permission
// in the guild.

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// deleteMessage deletes as Discord does: the bot's own messages always, others' only with
// Manage Messages, and never others' in a DM.
func (f *Fake) deleteMessage(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	if m.Author != BotID {
		if f.Channels[m.Channel].Type == 1 {
			apiError(w, 403, 50003, "Cannot execute action on a DM channel")
			return
		}
		if !f.ManageMessages {
			apiError(w, 403, 50013, "Missing Permissions")
			return
		}
	}
	delete(f.Messages, m.ID)
	f.deleted = append(f.deleted, m.ID)
	w.WriteHeader(http.StatusNoContent)
}

func (f *Fake) userGuilds(w http.ResponseWriter, _ *http.Request) {
	guilds := []any{}
	for _, id := range f.Guilds {
		guilds = append(guilds, map[string]any{"id": id, "name": "guild " + id, "icon": nil, "owner": false,
			"permissions": "0", "features": []any{}})
	}
	writeJSON(w, 200, guilds)
}

// guild answers 404 for a guild other than GuildID, or one the bot is not in.
func (f *Fake) guild(w http.ResponseWriter, r *http.Request) bool {
	if g := r.PathValue("g"); g != GuildID || !slices.Contains(f.Guilds, g) {
		apiError(w, 404, 10004, "Unknown Guild")
		return false
	}
	return true
}

func (f *Fake) guildRoles(w http.ResponseWriter, r *http.Request) {
	if !f.guild(w, r) {
		return
	}
	f.RoleLists++
	writeJSON(w, 200, f.rolesJSON())
}

func (f *Fake) rolesJSON() []any {
	roles := []any{}
	for i, role := range f.Roles {
		roles = append(roles, map[string]any{"id": role.ID, "name": role.Name, "color": 0, "hoist": false,
			"position": i, "permissions": strconv.FormatInt(role.Permissions, 10), "managed": false, "mentionable": true})
	}
	return roles
}

func (f *Fake) guildMember(w http.ResponseWriter, r *http.Request) {
	if !f.guild(w, r) {
		return
	}
	id := r.PathValue("u")
	roles, ok := f.Members[id]
	if !ok {
		apiError(w, 404, 10007, "Unknown Member")
		return
	}
	writeJSON(w, 200, f.memberJSON(id, roles))
}

func (f *Fake) memberJSON(id string, roles []string) map[string]any {
	var nick any
	if n, ok := f.Nicks[id]; ok {
		nick = n
	}
	return map[string]any{"user": userJSON(f.Users[id]), "nick": nick, "roles": append([]string{}, roles...),
		"joined_at": "2026-01-01T00:00:00.000000+00:00", "deaf": false, "mute": false}
}

// searchMembers serves the member search as documented: the members whose username or guild
// nickname starts with query (case ignored), at most limit of them (1 to 1000, default 1), in
// id order.
func (f *Fake) searchMembers(w http.ResponseWriter, r *http.Request) {
	if !f.guild(w, r) {
		return
	}
	q := strings.ToLower(r.URL.Query().Get("query"))
	limit := 1
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 1000 {
			apiError(w, 400, 50035, "Invalid Form Body")
			return
		}
		limit = n
	}
	ids := slices.Sorted(maps.Keys(f.Members))
	out := []any{}
	for _, id := range ids {
		name, nick := strings.ToLower(f.Users[id].Name), strings.ToLower(f.Nicks[id])
		if len(out) < limit && (strings.HasPrefix(name, q) || nick != "" && strings.HasPrefix(nick, q)) {
			out = append(out, f.memberJSON(id, f.Members[id]))
		}
	}
	writeJSON(w, 200, out)
}

// Deleted returns the ids of the messages deleted so far, in order.
func (f *Fake) Deleted() []string {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]string(nil), f.deleted...)
}
