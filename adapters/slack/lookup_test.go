package slack

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

const daveID = "U0DAVE0001"

func TestLookupUserFollowsARename(t *testing.T) {
	f := slackfake.New(t)
	f.Mu.Lock()
	f.Users[daveID] = slackfake.User{ID: daveID, Name: "dave"}
	f.Mu.Unlock()
	a := idle(t, f, "")
	now := time.Unix(1700000000, 0)
	a.members.now = func() time.Time { return now }
	ctx := context.Background()
	lists := func() int { f.Mu.Lock(); defer f.Mu.Unlock(); return f.UserLists }
	rename := func(name string) func() {
		return func() { f.Users[daveID] = slackfake.User{ID: daveID, Name: name} }
	}

	steps := []struct {
		name    string
		advance time.Duration
		change  func() // to the workspace, before the step
		do      func() // what the adapter hears before the lookup
		handle  string
		want    string // the id; empty for nobody
		lists   int    // users.list calls after the step
	}{
		{name: "by name", handle: "dave", want: daveID, lists: 1},
		{name: "@ and case, from the list", handle: "@Dave", want: daveID, lists: 1},
		{name: "a fresh list is trusted: the new name is not in it yet", change: rename("david"), handle: "david", lists: 1},
		{name: "a miss on an older list reads it again", advance: 6 * time.Second, handle: "david", want: daveID, lists: 2},
		{name: "the old name names nobody", handle: "dave", lists: 2},
		{name: "a reaction shows him under another name: the list is read again", change: rename("dan"),
			do: func() {
				if u, err := a.user(ctx, daveID); err != nil || u.Name != "dan" {
					t.Errorf("user(%s) = %+v, %v", daveID, u, err)
				}
			},
			handle: "david", lists: 3},
		{name: "and finds the new name", handle: "dan", want: daveID, lists: 3},
		{name: "by member id, asked of users.info", handle: daveID, want: daveID, lists: 3},
		{name: "after the TTL the list is read again", advance: 31 * time.Second, handle: "dan", want: daveID, lists: 4},
	}
	for _, s := range steps {
		now = now.Add(s.advance)
		if s.change != nil {
			f.Mu.Lock()
			s.change()
			f.Mu.Unlock()
		}
		if s.do != nil {
			s.do()
		}
		u, err := a.LookupUser(ctx, s.handle)
		switch {
		case s.want == "" && !errors.Is(err, adapters.ErrNoSuchUser):
			t.Errorf("%s: LookupUser(%q) = %+v, %v; want ErrNoSuchUser", s.name, s.handle, u, err)
		case s.want != "" && (err != nil || u.ID != s.want):
			t.Errorf("%s: LookupUser(%q) = %+v, %v; want id %s", s.name, s.handle, u, err, s.want)
		}
		if n := lists(); n != s.lists {
			t.Errorf("%s: %d users.list calls, want %d", s.name, n, s.lists)
		}
	}
}

// A name two active members have is refused, not resolved to either; deactivated members and
// unknown ids are nobody.
func TestLookupUserRefusesAnAmbiguousName(t *testing.T) {
	f := slackfake.New(t)
	f.Mu.Lock()
	f.Users["U0SAM00001"] = slackfake.User{ID: "U0SAM00001", Name: "sam"}
	f.Users["W0SAM00002"] = slackfake.User{ID: "W0SAM00002", Name: "Sam"}
	f.Users["U0OLD00001"] = slackfake.User{ID: "U0OLD00001", Name: "olga", Deleted: true}
	f.Users["U0OLD00002"] = slackfake.User{ID: "U0OLD00002", Name: "pat", Deleted: true}
	f.Users["U0PAT00003"] = slackfake.User{ID: "U0PAT00003", Name: "pat"}
	f.Mu.Unlock()
	a := idle(t, f, "")
	ctx := context.Background()

	u, err := a.LookupUser(ctx, "sam")
	if !errors.Is(err, errAmbiguous) || errors.Is(err, adapters.ErrNoSuchUser) ||
		!strings.Contains(err.Error(), "U0SAM00001") || !strings.Contains(err.Error(), "W0SAM00002") {
		t.Errorf("LookupUser(sam) = %+v, %v; want an ambiguity naming both ids", u, err)
	}
	if u, err := a.LookupUser(ctx, "W0SAM00002"); err != nil || u.ID != "W0SAM00002" {
		t.Errorf("LookupUser by an Enterprise Grid id = %+v, %v", u, err)
	}
	if u, err := a.LookupUser(ctx, "pat"); err != nil || u.ID != "U0PAT00003" {
		t.Errorf("LookupUser(pat) = %+v, %v; want the active pat, not the deactivated one", u, err)
	}
	for _, handle := range []string{"olga", "U0OLD00001", "U0NOBODY01", "", "@"} {
		if u, err := a.LookupUser(ctx, handle); !errors.Is(err, adapters.ErrNoSuchUser) {
			t.Errorf("LookupUser(%q) = %+v, %v; want ErrNoSuchUser", handle, u, err)
		}
	}
}

// users.list is paginated (200 members a page): a member on the last page is found.
func TestLookupUserReadsEveryPage(t *testing.T) {
	f := slackfake.New(t)
	f.Mu.Lock()
	for i := range 450 {
		id := fmt.Sprintf("U0M%07d", i)
		f.Users[id] = slackfake.User{ID: id, Name: fmt.Sprintf("member%d", i)}
	}
	f.Mu.Unlock()
	a := idle(t, f, "")
	if u, err := a.LookupUser(context.Background(), "member449"); err != nil || u.ID != "U0M0000449" {
		t.Errorf("LookupUser(member449) = %+v, %v", u, err)
	}
	if f.Mu.Lock(); f.UserLists != 3 {
		t.Errorf("%d users.list pages read, want 3", f.UserLists)
	}
	f.Mu.Unlock()
}

// A user_change event (a rename) makes later events carry the new name and the next lookup
// read the list again, though both still had the old name.
func TestUserChangeEventRefreshesNames(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	ctx := context.Background()
	f.Send(mention("UBO", "CINFRA001", "1700000100.000100", "<@UBOT> status"))
	if m := next(t, r.h.msgs, "the first mention"); m.Author.Name != "bob" {
		t.Fatalf("before the rename the author is %+v", m.Author)
	}
	if u, err := r.LookupUser(ctx, "bob"); err != nil || u.ID != "UBO" {
		t.Fatalf("LookupUser(bob) = %+v, %v", u, err)
	}
	f.Mu.Lock()
	f.Users["UBO"] = slackfake.User{ID: "UBO", Name: "robert"}
	f.Mu.Unlock()
	f.Send(map[string]any{"type": "user_change", "user": map[string]any{"id": "UBO", "name": "robert"},
		"cache_ts": 1700000200, "event_ts": "1700000200.000100"})
	// Events are handled in order: once a later mention is delivered, the change was handled.
	f.Send(mention("UBO", "CINFRA001", "1700000201.000100", "<@UBOT> status"))
	if m := next(t, r.h.msgs, "the second mention"); m.Author != (adapters.User{ID: "UBO", Name: "robert"}) {
		t.Errorf("after the rename the author is %+v, want robert (UBO)", m.Author)
	}
	if u, err := r.LookupUser(ctx, "bob"); !errors.Is(err, adapters.ErrNoSuchUser) {
		t.Errorf("after the rename LookupUser(bob) = %+v, %v; want ErrNoSuchUser", u, err)
	}
	if u, err := r.LookupUser(ctx, "robert"); err != nil || u.ID != "UBO" {
		t.Errorf("after the rename LookupUser(robert) = %+v, %v; want UBO", u, err)
	}
}
