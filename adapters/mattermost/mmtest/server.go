// Package mmtest is the test support for end-to-end tests against a real Mattermost server,
// the one scripts/testenv/mattermost.sh starts: it seeds the cast (alice asks, bob approves,
// carol watches, the bot eos serves channel infra of team eos-test as a team admin, so that it
// may delete others' posts; otherbot is a plain bot that may not), makes fresh channels,
// waits for posts with a deadline, and restarts the server (or keeps it down while a test
// looks at the bot, Outage) without pulling it from under tests of other packages that use it
// at the same time.
//
// It imports only the standard library and the Mattermost client library, never a package of
// Eos, so that both the adapter's tests and the engine's can use it.
package mmtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"
)

// Environment of the end-to-end tests, written by scripts/testenv/mattermost.sh start DIR into
// DIR/env.
const (
	EnvURL      = "EOS_TEST_MATTERMOST_URL"            // http://127.0.0.1:PORT of a fresh or seeded server
	EnvAdmin    = "EOS_TEST_MATTERMOST_ADMIN_USER"     // system admin to create or log in as
	EnvPassword = "EOS_TEST_MATTERMOST_ADMIN_PASSWORD" // its password
	EnvState    = "EOS_TEST_MATTERMOST_STATE"          // the script's STATE_DIR, to restart the server
)

// Timeout bounds every wait for the server or the bot.
var Timeout = 90 * time.Second

// Server is a real Mattermost seeded with the cast of the end-to-end tests.
type Server struct {
	URL      string
	State    string // the script's STATE_DIR; empty when the server cannot be restarted
	Admin    *model.Client4
	Team     *model.Team
	Infra    *model.Channel // channel infra, where every account is a member
	Bot      *model.User    // the bot eos, team admin of Team (it may delete others' posts)
	BotToken string         // a token of eos, for an adapter
	Alice    *Person        // asks for changes
	Bob      *Person        // approves
	Carol    *Person        // may not approve production plans
	OtherBot *Person        // a second bot, whose posts eos must ignore; a plain team member
	// OtherBotToken is a token of otherbot, for an adapter without eos's permissions.
	OtherBotToken string

	lock *os.File // this test's hold on the server (see Real and Restart)
}

// Person is a seeded account with a client logged in as it.
type Person struct {
	User   *model.User
	Client *model.Client4
}

var (
	seedOnce sync.Once
	seeded   *Server
	seedErr  error
)

// Real returns the seeded server, seeding it on first use. Without EOS_TEST_MATTERMOST_URL the
// test is skipped, except in CI (CI set to any non-empty value), where it fails: an end-to-end
// test must never pass by not running.
//
// The test holds the server, shared with other tests in any process, until it ends, so that
// Restart waits for them. A parallel test must call Real after t.Parallel: a test paused by
// t.Parallel while holding the server would wait for a restarting test that waits for it.
func Real(t testing.TB) *Server {
	t.Helper()
	url := os.Getenv(EnvURL)
	if url == "" {
		missing(t, EnvURL+" is not set: run scripts/testenv/mattermost.sh start DIR and source DIR/env")
	}
	// The hold comes first: seeding talks to the server, which a test in another package's
	// process may be restarting (Restart waits for every hold, not for a seed without one).
	state := os.Getenv(EnvState)
	lock := holdShared(t, state)
	seedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		seeded, seedErr = seed(ctx, url, os.Getenv(EnvAdmin), os.Getenv(EnvPassword))
	})
	if seedErr != nil {
		t.Fatalf("seeding %s: %v", url, seedErr)
	}
	s := *seeded
	s.State = state
	s.lock = lock
	return &s
}

// missing stops a test that lacks a server or tool it needs: it fails when CI is set to any
// non-empty value (a test must never pass in CI by not running) and skips otherwise.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set, so this fails rather than skips: " + msg)
	}
	t.Skip(msg)
}

// seed creates (or finds, on a server seeded before) every account, the team and the channel.
func seed(ctx context.Context, url, adminUser, adminPassword string) (*Server, error) {
	if adminUser == "" || adminPassword == "" {
		return nil, fmt.Errorf("%s and %s must be set", EnvAdmin, EnvPassword)
	}
	s := &Server{URL: url, Admin: model.NewAPIv4Client(url)}
	// The first account of a fresh server becomes system admin.
	if _, _, err := s.Admin.Login(ctx, adminUser, adminPassword); err != nil {
		if _, _, err := s.Admin.CreateUser(ctx, &model.User{Username: adminUser, Email: adminUser + "@example.org", Password: adminPassword}); err != nil {
			return nil, fmt.Errorf("creating admin: %w", err)
		}
		if _, _, err := s.Admin.Login(ctx, adminUser, adminPassword); err != nil {
			return nil, fmt.Errorf("logging in as admin: %w", err)
		}
	}
	team, _, err := s.Admin.GetTeamByName(ctx, "eos-test", "")
	if err != nil {
		team, _, err = s.Admin.CreateTeam(ctx, &model.Team{Name: "eos-test", DisplayName: "Eos test", Type: model.TeamOpen})
		if err != nil {
			return nil, fmt.Errorf("creating team: %w", err)
		}
	}
	s.Team = team
	infra, _, err := s.Admin.GetChannelByName(ctx, "infra", team.Id, "")
	if err != nil {
		infra, _, err = s.Admin.CreateChannel(ctx, &model.Channel{TeamId: team.Id, Name: "infra", DisplayName: "infra", Type: model.ChannelTypeOpen})
		if err != nil {
			return nil, fmt.Errorf("creating channel: %w", err)
		}
	}
	s.Infra = infra
	for _, p := range []struct {
		name string
		to   **Person
	}{{"alice", &s.Alice}, {"bob", &s.Bob}, {"carol", &s.Carol}} {
		if *p.to, err = s.person(ctx, p.name); err != nil {
			return nil, err
		}
	}
	if s.Bot, s.BotToken, err = s.botAccount(ctx, "eos"); err != nil {
		return nil, err
	}
	// Taking down a message with a typed secret needs delete_others_posts, which team admins
	// have; a production bot gets it the same way.
	if _, err := s.Admin.UpdateTeamMemberRoles(ctx, team.Id, s.Bot.Id, "team_user team_admin"); err != nil {
		return nil, fmt.Errorf("making eos a team admin: %w", err)
	}
	other, otherToken, err := s.botAccount(ctx, "otherbot")
	if err != nil {
		return nil, err
	}
	oc := model.NewAPIv4Client(url)
	oc.SetToken(otherToken)
	s.OtherBot = &Person{User: other, Client: oc}
	s.OtherBotToken = otherToken
	return s, nil
}

// person creates or finds a user, puts it in the team and channel infra, and logs in as it.
func (s *Server) person(ctx context.Context, name string) (*Person, error) {
	password := "Passw0rd-" + name
	u, _, err := s.Admin.GetUserByUsername(ctx, name, "")
	if err != nil {
		if u, _, err = s.Admin.CreateUser(ctx, &model.User{Username: name, Email: name + "@example.org", Password: password}); err != nil {
			return nil, fmt.Errorf("creating %s: %w", name, err)
		}
	}
	if err := s.join(ctx, s.Infra.Id, u.Id); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := model.NewAPIv4Client(s.URL)
	if _, _, err := c.Login(ctx, name, password); err != nil {
		return nil, fmt.Errorf("logging in as %s: %w", name, err)
	}
	return &Person{User: u, Client: c}, nil
}

// botAccount creates or finds a bot, puts it in the team and channel infra, and gives it a
// new token.
func (s *Server) botAccount(ctx context.Context, name string) (*model.User, string, error) {
	u, _, err := s.Admin.GetUserByUsername(ctx, name, "")
	if err != nil {
		b, _, err := s.Admin.CreateBot(ctx, &model.Bot{Username: name, DisplayName: name})
		if err != nil {
			return nil, "", fmt.Errorf("creating bot %s: %w", name, err)
		}
		if u, _, err = s.Admin.GetUser(ctx, b.UserId, ""); err != nil {
			return nil, "", fmt.Errorf("reading bot %s: %w", name, err)
		}
	}
	if err := s.join(ctx, s.Infra.Id, u.Id); err != nil {
		return nil, "", fmt.Errorf("bot %s: %w", name, err)
	}
	tok, _, err := s.Admin.CreateUserAccessToken(ctx, u.Id, "eos end-to-end tests")
	if err != nil {
		return nil, "", fmt.Errorf("creating a token for %s: %w", name, err)
	}
	return u, tok.Token, nil
}

// join puts a user in the team and in channel.
func (s *Server) join(ctx context.Context, channel, userID string) error {
	if _, _, err := s.Admin.AddTeamMember(ctx, s.Team.Id, userID); err != nil {
		return fmt.Errorf("joining team: %w", err)
	}
	if _, _, err := s.Admin.AddChannelMember(ctx, channel, userID); err != nil {
		return fmt.Errorf("joining channel: %w", err)
	}
	return nil
}

// Channel creates a new open channel named after prefix and a nonce, with alice, bob, carol
// and eos as members, so that a test sees only its own conversation.
func (s *Server) Channel(t testing.TB, prefix string) *model.Channel {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	name := prefix + "-" + Nonce()
	ch, _, err := s.Admin.CreateChannel(ctx, &model.Channel{TeamId: s.Team.Id, Name: name, DisplayName: name, Type: model.ChannelTypeOpen})
	if err != nil {
		t.Fatalf("creating channel %s: %v", name, err)
	}
	for _, u := range []*model.User{s.Alice.User, s.Bob.User, s.Carol.User, s.Bot} {
		if err := s.join(ctx, ch.Id, u.Id); err != nil {
			t.Fatalf("%s joining %s: %v", u.Username, name, err)
		}
	}
	return ch
}

// Nonce makes each test's texts and channels unique on a server shared by many runs.
func Nonce() string { return model.NewId()[:10] }
