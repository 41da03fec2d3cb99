package discord

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

const (
	// roleTTL is how long the guild's list of roles is trusted.
	roleTTL = time.Minute
	// roleRetry is how old the list must be before an unknown role name asks Discord again.
	roleRetry = 5 * time.Second
)

// roleCache holds the guild's roles (GET /guilds/{id}/roles).
type roleCache struct {
	now func() time.Time

	// mu is held while Discord is asked, so concurrent misses ask once.
	mu    sync.Mutex
	guild string // Config.Guild, or the bot's only guild once learned
	roles []*discordgo.Role
	at    time.Time // when roles was read; zero before the first read
}

// MemberOf reports whether user has the guild role named group (the @ optional, case
// ignored). The guild's roles are kept for a minute and read again when a name is not found;
// the member's roles are read on every call, so a role just given counts at once. A user who
// is not in the guild belongs to no role; a role that does not exist is
// adapters.ErrNoSuchGroup. Discord lets the bot read members without the privileged Server
// Members intent.
func (a *Adapter) MemberOf(ctx context.Context, user adapters.User, group string) (bool, error) {
	role, guild, err := a.role(ctx, group)
	if err != nil {
		return false, err
	}
	m, err := a.s.GuildMember(guild, user.ID, discordgo.WithContext(ctx))
	switch {
	case codeOf(err) == discordgo.ErrCodeUnknownMember:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("reading the roles of %s in guild %s: %w", user.Name, guild, refusal(err))
	}
	return role.ID == guild || slices.Contains(m.Roles, role.ID), nil // the @everyone role has the guild's id
}

// role finds the role named name in the guild, and the guild.
func (a *Adapter) role(ctx context.Context, name string) (*discordgo.Role, string, error) {
	c := a.roles
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.guild == "" {
		guild, err := a.onlyGuild(ctx)
		if err != nil {
			return nil, "", err
		}
		c.guild = guild
	}
	age := c.now().Sub(c.at)
	if c.at.IsZero() || age > roleTTL {
		if err := a.readRoles(ctx); err != nil {
			return nil, "", err
		}
		age = 0
	}
	r := findRole(c.roles, name)
	if r == nil && age > roleRetry {
		if err := a.readRoles(ctx); err != nil {
			return nil, "", err
		}
		r = findRole(c.roles, name)
	}
	if r == nil {
		return nil, "", fmt.Errorf("discord role %q in guild %s: %w", name, c.guild, adapters.ErrNoSuchGroup)
	}
	return r, c.guild, nil
}

// readRoles refreshes the cache; a.roles.mu must be held.
func (a *Adapter) readRoles(ctx context.Context) error {
	c := a.roles
	roles, err := a.s.GuildRoles(c.guild, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("reading the roles of guild %s: %w", c.guild, refusal(err))
	}
	c.roles, c.at = roles, c.now()
	return nil
}

// onlyGuild is the one guild the bot is in.
func (a *Adapter) onlyGuild(ctx context.Context) (string, error) {
	guilds, err := a.s.UserGuilds(2, "", "", false, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("listing the bot's guilds: %w", err)
	}
	switch len(guilds) {
	case 1:
		return guilds[0].ID, nil
	case 0:
		return "", errors.New("the bot is in no guild, so there are no roles to approve by")
	}
	return "", errors.New("the bot is in several guilds: set the guild whose roles approve (Config.Guild)")
}

// findRole finds the role called name, with or without its @, case ignored.
func findRole(roles []*discordgo.Role, name string) *discordgo.Role {
	name = strings.TrimPrefix(strings.TrimSpace(name), "@")
	if name == "" {
		return nil
	}
	for _, r := range roles {
		if strings.EqualFold(strings.TrimPrefix(r.Name, "@"), name) {
			return r
		}
	}
	return nil
}

// refusal marks err as adapters.ErrNotPermitted when Discord refused the bot.
func refusal(err error) error {
	if refused(err) {
		return fmt.Errorf("%w: %w", adapters.ErrNotPermitted, err)
	}
	return err
}
