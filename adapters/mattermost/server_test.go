package mattermost

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// Environment of the end-to-end tests, written by scripts/testenv/mattermost.sh start DIR into
// DIR/env.
const (
	envURL      = "EOS_TEST_MATTERMOST_URL"            // http://127.0.0.1:PORT of a fresh or seeded server
	envAdmin    = "EOS_TEST_MATTERMOST_ADMIN_USER"     // system admin to create or log in as
	envPassword = "EOS_TEST_MATTERMOST_ADMIN_PASSWORD" // its password
	envState    = "EOS_TEST_MATTERMOST_STATE"          // the script's STATE_DIR, to restart the server
)

// testServer is a real Mattermost seeded with the cast of the end-to-end tests: alice asks,
// bob approves, carol watches, and the bot eos serves channel infra of team eos-test.
type testServer struct {
	url               string
	state             string
	admin             *model.Client4
	team              *model.Team
	infra             *model.Channel
	bot               *model.User
	botToken          string
	alice, bob, carol *person
	otherBot          *person // a second bot, whose posts eos must ignore
}

// person is a seeded account with a client logged in as it.
type person struct {
	user   *model.User
	client *model.Client4
}

var (
	seedOnce sync.Once
	seeded   *testServer
	seedErr  error
)

// realServer returns the seeded server, seeding it on first use. Without EOS_TEST_MATTERMOST_URL
// the test is skipped, except in CI (CI=true), where it fails: an end-to-end test must never
// pass by not running.
func realServer(t *testing.T) *testServer {
	t.Helper()
	url := os.Getenv(envURL)
	if url == "" {
		msg := envURL + " is not set: run scripts/testenv/mattermost.sh start DIR and source DIR/env"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	seedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		seeded, seedErr = seed(ctx, url, os.Getenv(envAdmin), os.Getenv(envPassword))
	})
	if seedErr != nil {
		t.Fatalf("seeding %s: %v", url, seedErr)
	}
	seeded.state = os.Getenv(envState)
	return seeded
}

// seed creates (or finds, on a server seeded before) every account, the team and the channel.
func seed(ctx context.Context, url, adminUser, adminPassword string) (*testServer, error) {
	if adminUser == "" || adminPassword == "" {
		return nil, fmt.Errorf("%s and %s must be set", envAdmin, envPassword)
	}
	s := &testServer{url: url, admin: model.NewAPIv4Client(url)}
	// The first account of a fresh server becomes system admin.
	if _, _, err := s.admin.Login(ctx, adminUser, adminPassword); err != nil {
		if _, _, err := s.admin.CreateUser(ctx, &model.User{Username: adminUser, Email: adminUser + "@example.org", Password: adminPassword}); err != nil {
			return nil, fmt.Errorf("creating admin: %w", err)
		}
		if _, _, err := s.admin.Login(ctx, adminUser, adminPassword); err != nil {
			return nil, fmt.Errorf("logging in as admin: %w", err)
		}
	}
	team, _, err := s.admin.GetTeamByName(ctx, "eos-test", "")
	if err != nil {
		team, _, err = s.admin.CreateTeam(ctx, &model.Team{Name: "eos-test", DisplayName: "Eos test", Type: model.TeamOpen})
		if err != nil {
			return nil, fmt.Errorf("creating team: %w", err)
		}
	}
	s.team = team
	infra, _, err := s.admin.GetChannelByName(ctx, "infra", team.Id, "")
	if err != nil {
		infra, _, err = s.admin.CreateChannel(ctx, &model.Channel{TeamId: team.Id, Name: "infra", DisplayName: "infra", Type: model.ChannelTypeOpen})
		if err != nil {
			return nil, fmt.Errorf("creating channel: %w", err)
		}
	}
	s.infra = infra
	for _, p := range []struct {
		name string
		to   **person
	}{{"alice", &s.alice}, {"bob", &s.bob}, {"carol", &s.carol}} {
		if *p.to, err = s.person(ctx, p.name); err != nil {
			return nil, err
		}
	}
	var token string
	if s.bot, token, err = s.botAccount(ctx, "eos"); err != nil {
		return nil, err
	}
	s.botToken = token
	other, otherToken, err := s.botAccount(ctx, "otherbot")
	if err != nil {
		return nil, err
	}
	oc := model.NewAPIv4Client(url)
	oc.SetToken(otherToken)
	s.otherBot = &person{user: other, client: oc}
	return s, nil
}

// person creates or finds a user, puts it in the team and channel, and logs in as it.
func (s *testServer) person(ctx context.Context, name string) (*person, error) {
	password := "Passw0rd-" + name
	u, _, err := s.admin.GetUserByUsername(ctx, name, "")
	if err != nil {
		if u, _, err = s.admin.CreateUser(ctx, &model.User{Username: name, Email: name + "@example.org", Password: password}); err != nil {
			return nil, fmt.Errorf("creating %s: %w", name, err)
		}
	}
	if err := s.join(ctx, u.Id); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := model.NewAPIv4Client(s.url)
	if _, _, err := c.Login(ctx, name, password); err != nil {
		return nil, fmt.Errorf("logging in as %s: %w", name, err)
	}
	return &person{user: u, client: c}, nil
}

// botAccount creates or finds a bot, puts it in the team and channel, and gives it a new token.
func (s *testServer) botAccount(ctx context.Context, name string) (*model.User, string, error) {
	u, _, err := s.admin.GetUserByUsername(ctx, name, "")
	if err != nil {
		b, _, err := s.admin.CreateBot(ctx, &model.Bot{Username: name, DisplayName: name})
		if err != nil {
			return nil, "", fmt.Errorf("creating bot %s: %w", name, err)
		}
		if u, _, err = s.admin.GetUser(ctx, b.UserId, ""); err != nil {
			return nil, "", fmt.Errorf("reading bot %s: %w", name, err)
		}
	}
	if err := s.join(ctx, u.Id); err != nil {
		return nil, "", fmt.Errorf("bot %s: %w", name, err)
	}
	tok, _, err := s.admin.CreateUserAccessToken(ctx, u.Id, "eos end-to-end tests")
	if err != nil {
		return nil, "", fmt.Errorf("creating a token for %s: %w", name, err)
	}
	return u, tok.Token, nil
}

func (s *testServer) join(ctx context.Context, userID string) error {
	if _, _, err := s.admin.AddTeamMember(ctx, s.team.Id, userID); err != nil {
		return fmt.Errorf("joining team: %w", err)
	}
	if _, _, err := s.admin.AddChannelMember(ctx, s.infra.Id, userID); err != nil {
		return fmt.Errorf("joining channel: %w", err)
	}
	return nil
}

// running is an Adapter connected to the test server, with everything it delivered.
type running struct {
	*Adapter
	rec       *recorder
	connected chan struct{} // one value per websocket connection
}

// start runs an adapter for the bot until the test ends, and waits for its first connection.
func (s *testServer) start(t *testing.T, edit func(*Config, *Adapter)) *running {
	t.Helper()
	cfg := Config{URL: s.url, Token: s.botToken, MinBackoff: 50 * time.Millisecond, MaxBackoff: 500 * time.Millisecond}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&a.cfg, a)
	}
	r := &running{Adapter: a, rec: newRecorder(), connected: make(chan struct{}, 16)}
	a.onConnect = func() { r.connected <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, r.rec) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v after cancel, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return within 10 s of cancel")
		}
	})
	r.waitConnected(t)
	return r
}

func (r *running) waitConnected(t *testing.T) {
	t.Helper()
	select {
	case <-r.connected:
	case <-time.After(60 * time.Second):
		t.Fatal("the adapter did not connect within 60 s")
	}
}

// recorder is a Handler that hands what it hears to the test.
type recorder struct {
	msgs   chan adapters.Message
	reacts chan adapters.Reaction
}

func newRecorder() *recorder {
	return &recorder{msgs: make(chan adapters.Message, 256), reacts: make(chan adapters.Reaction, 256)}
}

func (r *recorder) HandleMessage(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.msgs <- m
}

func (r *recorder) HandleReaction(_ context.Context, _ adapters.Adapter, x adapters.Reaction) {
	r.reacts <- x
}

const waitFor = 20 * time.Second

// message waits for the first delivered message that match accepts; every message delivered
// before it is passed to skipped (nil ignores them).
func (r *recorder) message(t *testing.T, match func(adapters.Message) bool, skipped func(adapters.Message)) adapters.Message {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case m := <-r.msgs:
			if match(m) {
				return m
			}
			if skipped != nil {
				skipped(m)
			}
		case <-deadline:
			t.Fatalf("no matching message delivered within %s", waitFor)
		}
	}
}

// reaction waits for the first delivered reaction that match accepts; every reaction delivered
// before it is passed to skipped (nil ignores them).
func (r *recorder) reaction(t *testing.T, match func(adapters.Reaction) bool, skipped func(adapters.Reaction)) adapters.Reaction {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case x := <-r.reacts:
			if match(x) {
				return x
			}
			if skipped != nil {
				skipped(x)
			}
		case <-deadline:
			t.Fatalf("no matching reaction delivered within %s", waitFor)
		}
	}
}

// say posts text as p in channel (in thread root when set).
func (p *person) say(t *testing.T, channel, root, text string) *model.Post {
	t.Helper()
	post, _, err := p.client.CreatePost(context.Background(), &model.Post{ChannelId: channel, RootId: root, Message: text})
	if err != nil {
		t.Fatalf("%s posting %q: %v", p.user.Username, text, err)
	}
	return post
}

// nonce makes each test's texts unique on a server shared by many runs.
func nonce() string { return model.NewId()[:10] }
