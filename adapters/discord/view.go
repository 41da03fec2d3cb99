package discord

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// CanView reports whether user may read channel now, asking Discord each time (channel,
// guild with its roles, member): in a guild channel, whether the member's permissions there
// include View Channel; a thread counts as its parent channel; a direct message only its
// recipient reads. Someone who is not a member of the channel's guild reads none of its
// channels. A private thread is read only by its members, or by those who may manage threads
// in its parent. Any other error Discord answers with is returned (the engine counts it as "no").
func (a *Adapter) CanView(ctx context.Context, user adapters.User, channel string) (bool, error) {
	ch, err := a.s.Channel(channel, discordgo.WithContext(ctx))
	if err != nil {
		return false, fmt.Errorf("discord: can %s view %s: reading the channel: %w", user.ID, channel, err)
	}
	private := ch.Type == discordgo.ChannelTypeGuildPrivateThread
	if (channelInfo{kind: ch.Type}).thread() {
		if ch, err = a.s.Channel(ch.ParentID, discordgo.WithContext(ctx)); err != nil {
			return false, fmt.Errorf("discord: can %s view %s: reading the thread's parent: %w", user.ID, channel, err)
		}
	}
	switch {
	case ch.Type == discordgo.ChannelTypeDM || ch.Type == discordgo.ChannelTypeGroupDM:
		return slices.ContainsFunc(ch.Recipients, func(u *discordgo.User) bool { return u.ID == user.ID }), nil
	case ch.GuildID == "":
		return false, fmt.Errorf("discord: can %s view %s: a channel of type %d in no guild", user.ID, channel, ch.Type)
	}
	guild, err := a.s.Guild(ch.GuildID, discordgo.WithContext(ctx))
	if err != nil {
		return false, fmt.Errorf("discord: can %s view %s: reading guild %s: %w", user.ID, channel, ch.GuildID, err)
	}
	m, err := a.s.GuildMember(guild.ID, user.ID, discordgo.WithContext(ctx))
	switch {
	case codeOf(err) == discordgo.ErrCodeUnknownMember:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("discord: can %s view %s: reading the member: %w", user.ID, channel, err)
	}
	perms := permissions(guild, ch, user.ID, m.Roles)
	switch {
	case perms&discordgo.PermissionViewChannel == 0:
		return false, nil
	case private && perms&discordgo.PermissionManageThreads == 0:
		// A private thread is read by its members (and those who manage threads), not by
		// everyone who reads its parent.
		_, err := a.s.ThreadMember(channel, user.ID, false, discordgo.WithContext(ctx))
		switch {
		case codeOf(err) == discordgo.ErrCodeUnknownMember || restStatus(err) == 404:
			return false, nil
		case err != nil:
			return false, fmt.Errorf("discord: can %s view private thread %s: %w", user.ID, channel, err)
		}
	}
	return true, nil
}

// allPermissions is what the owner and administrators may do: everything, including the
// permissions newer than discordgo's PermissionAll (Manage Threads among them).
const allPermissions = int64(^uint64(0) >> 1)

// restStatus is the HTTP status of a REST error, 0 for anything else.
func restStatus(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}

// permissions computes what the member with roles may do in channel, as Discord documents it:
// the owner may do everything; otherwise the permissions of @everyone and of the member's
// roles, all of them when one is Administrator (no overwrite applies then); then the channel's
// overwrites for @everyone, for the member's roles together, and for the member, each denying
// and then allowing.
func permissions(guild *discordgo.Guild, channel *discordgo.Channel, userID string, roles []string) int64 {
	if userID == guild.OwnerID {
		return allPermissions
	}
	var perms int64
	for _, r := range guild.Roles {
		if r.ID == guild.ID || slices.Contains(roles, r.ID) {
			perms |= r.Permissions
		}
	}
	if perms&discordgo.PermissionAdministrator != 0 {
		return allPermissions
	}
	var everyone, member *discordgo.PermissionOverwrite
	var allow, deny int64
	for _, o := range channel.PermissionOverwrites {
		switch {
		case o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == guild.ID:
			everyone = o
		case o.Type == discordgo.PermissionOverwriteTypeRole && slices.Contains(roles, o.ID):
			allow, deny = allow|o.Allow, deny|o.Deny
		case o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == userID:
			member = o
		}
	}
	if everyone != nil {
		perms = perms&^everyone.Deny | everyone.Allow
	}
	perms = perms&^deny | allow
	if member != nil {
		perms = perms&^member.Deny | member.Allow
	}
	return perms
}
