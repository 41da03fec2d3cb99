package slack

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

const (
	// groupTTL is how long the list of user groups is trusted.
	groupTTL = time.Minute
	// groupRetry is how old the list must be before a miss (an unknown group, or a user not
	// in it) asks Slack again; it keeps a stream of refused reactions from flooding Slack.
	groupRetry = 5 * time.Second
)

// groupCache holds the workspace's user groups with their members (usergroups.list).
type groupCache struct {
	now func() time.Time

	// mu is held while Slack is asked, so concurrent misses ask once.
	mu     sync.Mutex
	groups []slack.UserGroup
	at     time.Time // when groups was read; zero before the first read
}

// MemberOf reports whether user belongs to the Slack user group whose handle is group (as in
// @ops, the @ optional, case ignored). Handles are unique in a workspace; a group's name is
// not, and whoever may create user groups chooses it freely, so a group named "ops" is not
// group:ops unless its handle is. The groups and their members are read with
// usergroups.list (scope usergroups:read) and kept for a minute; a miss reads them again once
// they are a few seconds old, so a group or member just added counts at once. A group that
// does not exist, or is disabled, is adapters.ErrNoSuchGroup.
func (a *Adapter) MemberOf(ctx context.Context, user adapters.User, group string) (bool, error) {
	name := strings.TrimPrefix(strings.TrimSpace(group), "@")
	c := a.groups
	c.mu.Lock()
	defer c.mu.Unlock()
	age := c.now().Sub(c.at)
	if c.at.IsZero() || age > groupTTL {
		if err := a.readGroups(ctx); err != nil {
			return false, err
		}
		age = 0
	}
	g, found := findGroup(c.groups, name)
	member := found && slices.Contains(g.Users, user.ID)
	if !member && age > groupRetry {
		if err := a.readGroups(ctx); err != nil {
			return false, err
		}
		g, found = findGroup(c.groups, name)
		member = found && slices.Contains(g.Users, user.ID)
	}
	if !found {
		return false, fmt.Errorf("slack user group %q: %w", name, adapters.ErrNoSuchGroup)
	}
	return member, nil
}

// readGroups refreshes the cache; a.groups.mu must be held.
func (a *Adapter) readGroups(ctx context.Context) error {
	groups, err := a.api.GetUserGroupsContext(ctx, slack.GetUserGroupsOptionIncludeUsers(true))
	if err != nil {
		if refused(err) {
			return fmt.Errorf("reading the user groups (the bot token needs usergroups:read): %w: %w", adapters.ErrNotPermitted, err)
		}
		return fmt.Errorf("reading the user groups: %w", err)
	}
	a.groups.groups, a.groups.at = groups, a.groups.now()
	return nil
}

// findGroup finds the enabled group whose handle is handle.
func findGroup(groups []slack.UserGroup, handle string) (slack.UserGroup, bool) {
	if handle == "" {
		return slack.UserGroup{}, false
	}
	for _, g := range groups {
		if g.DateDelete == 0 && strings.EqualFold(g.Handle, handle) {
			return g, true
		}
	}
	return slack.UserGroup{}, false
}
