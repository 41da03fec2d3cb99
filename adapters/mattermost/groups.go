package mattermost

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

const (
	// groupsPerPage and groupPages bound one search of the server's groups.
	groupsPerPage = 200
	groupPages    = 5
)

// MemberOf reports whether user belongs to the Mattermost group named group: its name, the
// mention name as in @group, which is unique on the server (the @ optional, case ignored).
// Never its display name, which is not unique and which whoever may create a custom group
// chooses freely: a group displayed as "sre" is not group:sre. It searches the server's groups
// (GET /api/v4/groups) among those user is a member of, then among all, to tell a group user is
// not in from one that does not exist (adapters.ErrNoSuchGroup).
//
// Mattermost serves groups only on a licensed server: LDAP groups need Enterprise, custom
// groups Professional or Enterprise with custom groups enabled. An unlicensed server answers
// 501, and MemberOf returns adapters.ErrNotPermitted saying so. The membership search was
// verified only against that refusal of the unlicensed test server (and a fake of the
// documented responses), never against a server that has groups.
func (a *Adapter) MemberOf(ctx context.Context, user adapters.User, group string) (bool, error) {
	name := strings.TrimPrefix(strings.TrimSpace(group), "@")
	if name == "" {
		return false, fmt.Errorf("mattermost group %q: %w", group, adapters.ErrNoSuchGroup)
	}
	mine, err := a.searchGroups(ctx, name, user.ID)
	if err != nil {
		return false, err
	}
	if anyNamed(mine, name) {
		return true, nil
	}
	all, err := a.searchGroups(ctx, name, "")
	if err != nil {
		return false, err
	}
	if anyNamed(all, name) {
		return false, nil
	}
	return false, fmt.Errorf("mattermost group %q: %w", name, adapters.ErrNoSuchGroup)
}

// searchGroups lists the groups whose names contain q, only those member belongs to when
// member is set.
func (a *Adapter) searchGroups(ctx context.Context, q, member string) ([]*model.Group, error) {
	var all []*model.Group
	for page := range groupPages {
		v := url.Values{"q": {q}, "page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(groupsPerPage)}}
		if member != "" {
			v.Set("filter_has_member", member)
		}
		groups, err := a.getGroups(ctx, "/groups?"+v.Encode())
		if err != nil {
			return nil, fmt.Errorf("searching Mattermost groups named %q: %w", q, err)
		}
		all = append(all, groups...)
		if len(groups) < groupsPerPage {
			break
		}
	}
	return all, nil
}

func (a *Adapter) getGroups(ctx context.Context, path string) ([]*model.Group, error) {
	resp, err := a.api.DoAPIGet(ctx, path, "")
	if resp != nil {
		defer resp.Body.Close()
	}
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		if status == http.StatusNotImplemented {
			err = fmt.Errorf("the server has no license for groups (LDAP groups need Enterprise, custom groups Professional): %w", err)
		}
		return nil, refusal(status, err)
	}
	var groups []*model.Group
	if err := json.NewDecoder(resp.Body).Decode(&groups); err != nil {
		return nil, fmt.Errorf("reading the server's answer: %w", err)
	}
	return groups, nil
}

// anyNamed reports whether a live group among groups has the (unique) name name.
func anyNamed(groups []*model.Group, name string) bool {
	for _, g := range groups {
		if g.DeleteAt == 0 && g.Name != nil && strings.EqualFold(*g.Name, name) {
			return true
		}
	}
	return false
}
