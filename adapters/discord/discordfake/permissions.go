package discordfake

// What the guild tells of permissions (the guild object with its roles and owner, channels'
// permission overwrites) and opening a direct message with a user.

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
)

// Overwrite is one permission overwrite of a channel: for a role (ID a role id, the guild's
// id for @everyone) or, with Member set, for one member.
type Overwrite struct {
	ID          string
	Member      bool
	Allow, Deny int64
}

func overwritesJSON(os []Overwrite) []any {
	out := []any{}
	for _, o := range os {
		kind := 0
		if o.Member {
			kind = 1
		}
		out = append(out, map[string]any{"id": o.ID, "type": kind,
			"allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10)})
	}
	return out
}

// getGuild serves GET /guilds/{id}: the guild with its owner and roles.
func (f *Fake) getGuild(w http.ResponseWriter, r *http.Request) {
	if !f.guild(w, r) {
		return
	}
	owner := f.Owner
	if owner == "" {
		owner = "1" // nobody the tests know
	}
	writeJSON(w, 200, map[string]any{"id": GuildID, "name": "guild " + GuildID, "owner_id": owner,
		"roles": f.rolesJSON(), "emojis": []any{}, "features": []any{}})
}

// createDM serves POST /users/@me/channels: the DM channel with recipient_id, opened on first
// use and the same one afterwards, as on Discord.
func (f *Fake) createDM(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Recipient string `json:"recipient_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, 400, 50035, "Invalid Form Body")
		return
	}
	if _, ok := f.Users[body.Recipient]; !ok {
		apiError(w, 400, 50033, "Invalid Recipient(s)")
		return
	}
	for _, c := range f.Channels {
		if c.Type == 1 && slices.Equal(c.Recipients, []string{body.Recipient}) {
			writeJSON(w, 200, f.channelJSON(c))
			return
		}
	}
	c := &Channel{ID: f.id(), Type: 1, Recipients: []string{body.Recipient}}
	f.Channels[c.ID] = c
	writeJSON(w, 200, f.channelJSON(c))
}
