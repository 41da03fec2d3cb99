package slack

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

const (
	// memberTTL is how long the list of members (users.list) is trusted for LookupUser. It is
	// short: within it, a name someone gave up still names them, and one someone just took
	// names nobody yet (a stale list never names the newcomer).
	memberTTL = 30 * time.Second
	// memberRetry is how old the list must be before a name it lacks asks Slack again; it keeps
	// a stream of lookups of unknown names from flooding users.list (Tier 2).
	memberRetry = 5 * time.Second
)

// memberCache holds the workspace's members (users.list), for LookupUser by name.
type memberCache struct {
	now func() time.Time

	// refresh is held while Slack is asked, so concurrent misses ask once; mu guards the
	// fields below and is never held while Slack is asked, so that the event loop, which
	// reports renames (noteUser), never waits for users.list.
	refresh sync.Mutex
	mu      sync.Mutex
	members []slack.User
	names   map[string]string // id → name, of members
	at      time.Time         // when members was read; zero before the first read, or once stale
}

// list returns the members and their age; zero age with ok false when there are none to trust.
func (c *memberCache) list() (members []slack.User, age time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		return nil, 0, false
	}
	return c.members, c.now().Sub(c.at), true
}

func (c *memberCache) set(members []slack.User) {
	names := make(map[string]string, len(members))
	for _, m := range members {
		names[m.ID] = m.Name
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.members, c.names, c.at = members, names, c.now()
}

// seen makes the list stale when it has the member id under another name than name.
func (c *memberCache) seen(id, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.names[id]; ok && old != name {
		c.at = time.Time{}
	}
}

// errAmbiguous is a name that two members have.
var errAmbiguous = errors.New("ambiguous")

// LookupUser says who handle names now. A handle is either a member id ("U0123ABCD", or
// "W…" on Enterprise Grid), the one identifier Slack never changes, asked of users.info every
// time; or a member's username, Slack's legacy "name" field (the @ optional, case ignored).
// Display names and real names are never matched: anyone can set theirs to anything, and
// they are not unique.
//
// Slack keeps "name" unique in a workspace, but calls it legacy and documents no guarantee,
// so LookupUser checks: when two active members have the name (a migrated workspace, an
// Enterprise Grid org), it returns an error naming both ids rather than pick one; the engine
// then counts the handle as nobody. Policies that must not depend on names should list
// member ids.
//
// Names are found in users.list (scope users:read), kept for 30 seconds and read again when a
// name is missing from a list a few seconds old, or after a user_change event or a reaction
// shows a member under another name than the list has. Deactivated members, and names or ids
// nobody has, are adapters.ErrNoSuchUser.
func (a *Adapter) LookupUser(ctx context.Context, handle string) (adapters.User, error) {
	h := strings.TrimPrefix(strings.TrimSpace(handle), "@")
	if h == "" {
		return adapters.User{}, fmt.Errorf("slack user %q: %w", handle, adapters.ErrNoSuchUser)
	}
	if isMemberID(h) {
		return a.lookupID(ctx, h)
	}
	c := a.members
	c.refresh.Lock()
	defer c.refresh.Unlock()
	members, age, ok := c.list()
	if !ok || age > memberTTL {
		var err error
		if members, err = a.readMembers(ctx); err != nil {
			return adapters.User{}, err
		}
		age = 0
	}
	u, err := findMember(members, h)
	if errors.Is(err, adapters.ErrNoSuchUser) && age > memberRetry {
		if members, err = a.readMembers(ctx); err != nil {
			return adapters.User{}, err
		}
		u, err = findMember(members, h)
	}
	if err != nil {
		return adapters.User{}, err
	}
	return slackUser(u), nil
}

// lookupID asks users.info about a member id.
func (a *Adapter) lookupID(ctx context.Context, id string) (adapters.User, error) {
	su, err := a.api.GetUserInfoContext(ctx, id)
	switch {
	case slackError(err) == "user_not_found":
		return adapters.User{}, fmt.Errorf("slack user %s: %w", id, adapters.ErrNoSuchUser)
	case err != nil:
		return adapters.User{}, fmt.Errorf("looking up slack user %s: %w", id, err)
	case su.Deleted:
		return adapters.User{}, fmt.Errorf("slack user %s is deactivated: %w", id, adapters.ErrNoSuchUser)
	}
	u := slackUser(*su)
	a.noteUser(u)
	return u, nil
}

// readMembers reads the member list and keeps it; a.members.refresh must be held.
func (a *Adapter) readMembers(ctx context.Context) ([]slack.User, error) {
	members, err := a.api.GetUsersContext(ctx, slack.GetUsersOptionIncludeLocale(false))
	if err != nil {
		if refused(err) || slackError(err) == "missing_scope" {
			return nil, fmt.Errorf("listing the members (the bot token needs users:read): %w: %w", adapters.ErrNotPermitted, err)
		}
		return nil, fmt.Errorf("listing the members: %w", err)
	}
	a.members.set(members)
	return members, nil
}

// findMember finds the one active member whose name is name.
func findMember(members []slack.User, name string) (slack.User, error) {
	var found []slack.User
	for _, m := range members {
		if !m.Deleted && strings.EqualFold(m.Name, name) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return slack.User{}, fmt.Errorf("slack user %q: %w", name, adapters.ErrNoSuchUser)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, m := range found {
		ids[i] = m.ID
	}
	return slack.User{}, fmt.Errorf("slack user %q is %w: members %s all have that name; name them by id",
		name, errAmbiguous, strings.Join(ids, ", "))
}

// noteUser records u as Slack reported it just now (users.info, a user_change event). When the
// member list has u under another name, the list is stale and is read again at the next lookup.
func (a *Adapter) noteUser(u adapters.User) {
	a.users.put(u.ID, u)
	a.members.seen(u.ID, u.Name)
}

// isMemberID reports whether s looks like a Slack member id: U or W followed by at least eight
// upper-case letters and digits. Usernames are lower case, so no username looks like one.
func isMemberID(s string) bool {
	if len(s) < 9 || (s[0] != 'U' && s[0] != 'W') {
		return false
	}
	for _, r := range s[1:] {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func slackUser(su slack.User) adapters.User {
	return adapters.User{ID: su.ID, Name: su.Name, Bot: su.IsBot || su.ID == "USLACKBOT"}
}

// slackError is the error code of a Web API call Slack answered with ok=false, "" otherwise.
func slackError(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return ""
}
