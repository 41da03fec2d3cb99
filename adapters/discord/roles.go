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

	guildMu sync.Mutex
	guild   string // Config.Guild, or the bot's only guild once learned

	// mu is held while Discord is asked, so concurrent misses ask once.
	mu    sync.Mutex
	roles []*discordgo.Role
	at    time.Time // when roles was read; zero before the first read
}

// MemberOf reports whether user has the guild role group: the role's id (a snowflake, the one
// name of a role that never changes), or a role name (the @ optional, case ignored) that only
// one role of the guild has. Anyone with Manage Roles can create a role with any name, so when
// two roles share the name MemberOf refuses with an error naming both, rather than pick one;
// give the policy the role's id instead. The guild's roles are kept for a minute and read
// again when a name is not found; the member's roles are read on every call, so a role just
// given counts at once. A user who is not in the guild belongs to no role; a role that does
// not exist is adapters.ErrNoSuchGroup. Discord lets the bot read members without the
// privileged Server Members intent.
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

// guildID is Config.Guild, or the one guild the bot is in, asked once.
func (a *Adapter) guildID(ctx context.Context) (string, error) {
	c := a.roles
	c.guildMu.Lock()
	defer c.guildMu.Unlock()
	if c.guild == "" {
		guild, err := a.onlyGuild(ctx)
		if err != nil {
			return "", err
		}
		c.guild = guild
	}
	return c.guild, nil
}

// role finds the role group names in the guild, and the guild.
func (a *Adapter) role(ctx context.Context, group string) (*discordgo.Role, string, error) {
	guild, err := a.guildID(ctx)
	if err != nil {
		return nil, "", err
	}
	c := a.roles
	c.mu.Lock()
	defer c.mu.Unlock()
	age := c.now().Sub(c.at)
	if c.at.IsZero() || age > roleTTL {
		if err := a.readRoles(ctx, guild); err != nil {
			return nil, "", err
		}
		age = 0
	}
	r, err := findRole(c.roles, group)
	if errors.Is(err, adapters.ErrNoSuchGroup) && age > roleRetry {
		if err := a.readRoles(ctx, guild); err != nil {
			return nil, "", err
		}
		r, err = findRole(c.roles, group)
	}
	if err != nil {
		return nil, "", fmt.Errorf("discord role %q in guild %s: %w", group, guild, err)
	}
	return r, guild, nil
}

// readRoles refreshes the cache; a.roles.mu must be held.
func (a *Adapter) readRoles(ctx context.Context, guild string) error {
	c := a.roles
	roles, err := a.s.GuildRoles(guild, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("reading the roles of guild %s: %w", guild, refusal(err))
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

// errRoleClash is a role name that several roles of the guild have.
var errRoleClash = errors.New("names several roles")

// findRole finds the one role whose id is group, or whose name is group (with or without its
// @, case ignored). A group that matches several roles is errRoleClash, naming them.
func findRole(roles []*discordgo.Role, group string) (*discordgo.Role, error) {
	name := strings.TrimPrefix(strings.TrimSpace(group), "@")
	if name == "" {
		return nil, adapters.ErrNoSuchGroup
	}
	var found []*discordgo.Role
	for _, r := range roles {
		if r.ID == name || strings.EqualFold(strings.TrimPrefix(r.Name, "@"), name) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return nil, adapters.ErrNoSuchGroup
	case 1:
		return found[0], nil
	}
	clash := make([]string, len(found))
	for i, r := range found {
		clash[i] = fmt.Sprintf("%q (id %s)", r.Name, r.ID)
	}
	return nil, fmt.Errorf("%w: %s; name the role by its id", errRoleClash, strings.Join(clash, ", "))
}

// refusal marks err as adapters.ErrNotPermitted when Discord refused the bot.
func refusal(err error) error {
	if refused(err) {
		return fmt.Errorf("%w: %w", adapters.ErrNotPermitted, err)
	}
	return err
}
