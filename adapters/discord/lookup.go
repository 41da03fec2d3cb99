package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// searchLimit is the most members one search returns (Discord's maximum).
const searchLimit = 1000

// errAmbiguousUser is a handle that names more than one person.
var errAmbiguousUser = errors.New("names more than one user")

// LookupUser says who handle names now: a user id (a snowflake, which never changes), or a
// username (the @ optional, case ignored), which Discord keeps unique since the 2023 username
// change. Names are found through the guild's member search
// (GET /guilds/{id}/members/search, no privileged intent needed), which also returns members
// whose guild nickname starts with the handle; only an exact username counts, never a
// nickname or global display name, which anyone can set to anything. Nothing is cached: a
// rename counts at once.
//
// A handle that matches two people (a legacy username with a discriminator, or digits that are
// one person's id and another's username) is refused with an error naming both, never
// resolved to either. A handle nobody has is adapters.ErrNoSuchUser.
func (a *Adapter) LookupUser(ctx context.Context, handle string) (adapters.User, error) {
	h := strings.TrimPrefix(strings.TrimSpace(handle), "@")
	if h == "" {
		return adapters.User{}, fmt.Errorf("discord user %q: %w", handle, adapters.ErrNoSuchUser)
	}
	var found []*discordgo.User
	if isSnowflake(h) {
		u, err := a.s.User(h, discordgo.WithContext(ctx))
		switch {
		case codeOf(err) == discordgo.ErrCodeUnknownUser || statusOf(err) == 404:
		case err != nil:
			return adapters.User{}, fmt.Errorf("looking up discord user %s: %w", h, refusal(err))
		default:
			found = append(found, u)
		}
	}
	byName, err := a.searchUsername(ctx, h)
	if err != nil {
		return adapters.User{}, err
	}
	for _, u := range byName {
		if len(found) == 0 || found[0].ID != u.ID {
			found = append(found, u)
		}
	}
	switch len(found) {
	case 0:
		return adapters.User{}, fmt.Errorf("discord user %q: %w", h, adapters.ErrNoSuchUser)
	case 1:
		return a.users.put(found[0]), nil
	}
	who := make([]string, len(found))
	for i, u := range found {
		who[i] = fmt.Sprintf("%s (id %s)", u.String(), u.ID)
	}
	return adapters.User{}, fmt.Errorf("discord handle %q %w: %s; name them by id", h, errAmbiguousUser, strings.Join(who, ", "))
}

// searchUsername returns the guild's members whose username is name.
func (a *Adapter) searchUsername(ctx context.Context, name string) ([]*discordgo.User, error) {
	guild, err := a.guildID(ctx)
	if err != nil {
		return nil, err
	}
	members, err := a.s.GuildMembersSearch(guild, name, searchLimit, discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("searching guild %s for %q: %w", guild, name, refusal(err))
	}
	var found []*discordgo.User
	for _, m := range members {
		if m.User != nil && strings.EqualFold(m.User.Username, name) {
			found = append(found, m.User)
		}
	}
	if len(found) == 0 && len(members) >= searchLimit {
		return nil, fmt.Errorf("searching guild %s for %q: more than %d members start with it and none is it; name them by id",
			guild, name, searchLimit)
	}
	return found, nil
}

// isSnowflake reports whether s looks like a Discord id: 15 to 20 digits.
func isSnowflake(s string) bool {
	return len(s) >= 15 && len(s) <= 20 && strings.Trim(s, "0123456789") == ""
}
