package mattermost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// fakeAPI is an in-memory stand-in for the few REST calls the unit tests exercise. Any other
// call hits the nil embedded interface and panics, failing the test.
type fakeAPI struct {
	api

	mu        sync.Mutex
	users     map[string]*model.User
	posts     []*model.Post // created, in order
	patched   map[string]*model.PostPatch
	uploads   []string // file names
	uploadErr error
	// usernameErr, when set, fails every GetUserByUsername as a broken server would.
	usernameErr error
	// listed is what GetPostsSince answers for a channel, whatever the time asked; sinceAsked
	// records the times asked, by channel.
	listed     map[string][]*model.Post
	sinceAsked map[string][]int64
}

func newFakeAPI(users ...*model.User) *fakeAPI {
	f := &fakeAPI{users: map[string]*model.User{}, patched: map[string]*model.PostPatch{},
		listed: map[string][]*model.Post{}, sinceAsked: map[string][]int64{}}
	for _, u := range users {
		f.users[u.Id] = u
	}
	return f
}

func (f *fakeAPI) GetUser(_ context.Context, id, _ string) (*model.User, *model.Response, error) {
	if u, ok := f.users[id]; ok {
		return u, nil, nil
	}
	return nil, &model.Response{StatusCode: 404}, errors.New("no such user")
}

// GetUserByUsername finds a user by username as the server does: exactly (usernames are lower
// case), deactivated accounts included; err answers with a failure instead.
func (f *fakeAPI) GetUserByUsername(_ context.Context, name, _ string) (*model.User, *model.Response, error) {
	if f.usernameErr != nil {
		return nil, &model.Response{StatusCode: 500}, f.usernameErr
	}
	for _, u := range f.users {
		if u.Username == name {
			return u, &model.Response{StatusCode: 200}, nil
		}
	}
	return nil, &model.Response{StatusCode: 404}, errors.New("user not found")
}

func (f *fakeAPI) GetMe(ctx context.Context, _ string) (*model.User, *model.Response, error) {
	return f.GetUser(ctx, botUser.Id, "")
}

func (f *fakeAPI) CreatePost(_ context.Context, p *model.Post) (*model.Post, *model.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := p.Clone()
	c.Id = fmt.Sprintf("post%d", len(f.posts)+1)
	f.posts = append(f.posts, c)
	return c, nil, nil
}

func (f *fakeAPI) PatchPost(_ context.Context, id string, patch *model.PostPatch) (*model.Post, *model.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.patched[id] = patch
	return &model.Post{Id: id, Message: *patch.Message}, nil, nil
}

func (f *fakeAPI) UploadFile(_ context.Context, _ []byte, _, name string) (*model.FileUploadResponse, *model.Response, error) {
	if f.uploadErr != nil {
		return nil, &model.Response{StatusCode: 501}, f.uploadErr
	}
	f.uploads = append(f.uploads, name)
	return &model.FileUploadResponse{FileInfos: []*model.FileInfo{{Id: "file-" + name, Name: name}}}, nil, nil
}

// GetPostsSince answers f.listed[channel] and records since.
func (f *fakeAPI) GetPostsSince(_ context.Context, channel string, since int64, _ bool) (*model.PostList, *model.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sinceAsked[channel] = append(f.sinceAsked[channel], since)
	list := model.NewPostList()
	for _, p := range f.listed[channel] {
		list.AddPost(p)
		list.AddOrder(p.Id)
	}
	return list, nil, nil
}

// GetPost finds a post among those listed.
func (f *fakeAPI) GetPost(_ context.Context, id, _ string) (*model.Post, *model.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, posts := range f.listed {
		for _, p := range posts {
			if p.Id == id {
				return p, nil, nil
			}
		}
	}
	return nil, &model.Response{StatusCode: 404}, errors.New("no such post")
}

var (
	botUser   = &model.User{Id: model.NewId(), Username: "eos", IsBot: true}
	aliceUser = &model.User{Id: model.NewId(), Username: "alice"}
	otherBot  = &model.User{Id: model.NewId(), Username: "otherbot", IsBot: true}
)

// fakeAdapter is an Adapter talking to f, with the bot's identity already known.
func fakeAdapter(t *testing.T, f *fakeAPI) *Adapter {
	t.Helper()
	return fakeAdapterConfig(t, f, Config{Logger: slog.New(slog.DiscardHandler)})
}

// fakeAdapterConfig is fakeAdapter made with cfg (its URL and Token are filled in).
func fakeAdapterConfig(t *testing.T, f *fakeAPI, cfg Config) *Adapter {
	t.Helper()
	cfg.URL, cfg.Token = "http://chat.invalid", "secret"
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.api = f
	a.self = botUser
	return a
}

// collector is a Handler that keeps what it receives.
type collector struct {
	msgs   []adapters.Message
	reacts []adapters.Reaction
}

func (c *collector) HandleMessage(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	c.msgs = append(c.msgs, m)
}

func (c *collector) HandleReaction(_ context.Context, _ adapters.Adapter, r adapters.Reaction) {
	c.reacts = append(c.reacts, r)
}
