package discordfake

// The guild's roles and members, and deleting messages, which depends on the bot's permission
// in the guild.

import (
	"net/http"
	"slices"
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
	roles := []any{}
	for i, role := range f.Roles {
		roles = append(roles, map[string]any{"id": role.ID, "name": role.Name, "color": 0, "hoist": false,
			"position": i, "permissions": "0", "managed": false, "mentionable": true})
	}
	writeJSON(w, 200, roles)
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
	writeJSON(w, 200, map[string]any{"user": userJSON(f.Users[id]), "roles": append([]string{}, roles...),
		"joined_at": "2026-01-01T00:00:00.000000+00:00", "deaf": false, "mute": false})
}

// Deleted returns the ids of the messages deleted so far, in order.
func (f *Fake) Deleted() []string {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]string(nil), f.deleted...)
}
