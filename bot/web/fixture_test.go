package web

import (
	"context"
	"github.com/eosbot/eos/bot/runwatch"
	"github.com/eosbot/eos/bot/webapi"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// fakeSource is the engine as the page sees it, over a real store: MaySee answers from a
// set of readable channels, Watch from runs the test publishes to.
type fakeSource struct {
	st  *store.Store
	web webapi.WebConfig

	mu    sync.Mutex
	see   map[string]bool // platform/channel
	feeds map[string]*feed
}

type feed struct {
	past []runwatch.RunUpdate
	subs map[chan runwatch.RunUpdate]bool
	done bool
}

func (f *fakeSource) Store() *store.Store   { return f.st }
func (f *fakeSource) Web() webapi.WebConfig { return f.web }

func (f *fakeSource) MaySee(_ context.Context, _ store.WebPerson, platform, channel string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.see[platform+"/"+channel]
}

// Watch behaves like the engine's: a run this process does not run gives no past and a
// channel that only stop closes.
func (f *fakeSource) Watch(id string) ([]runwatch.RunUpdate, <-chan runwatch.RunUpdate, func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan runwatch.RunUpdate, 64)
	fd := f.feeds[id]
	if fd == nil {
		var once sync.Once
		return nil, ch, func() { once.Do(func() { close(ch) }) }
	}
	past := append([]runwatch.RunUpdate(nil), fd.past...)
	if fd.done {
		close(ch)
		return past, ch, func() {}
	}
	fd.subs[ch] = true
	return past, ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if fd.subs[ch] {
			delete(fd.subs, ch)
			close(ch)
		}
	}
}

// runHere makes run id one this process runs, so Watch publishes its updates.
func (f *fakeSource) runHere(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.feeds[id] = &feed{subs: map[chan runwatch.RunUpdate]bool{}}
}

func (f *fakeSource) publish(id string, u runwatch.RunUpdate) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fd := f.feeds[id]
	fd.past = append(fd.past, u)
	for ch := range fd.subs {
		ch <- u
		if u.Finished {
			close(ch)
			delete(fd.subs, ch)
		}
	}
	fd.done = fd.done || u.Finished
}

// clock is a settable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type fixture struct {
	t     testing.TB
	src   *fakeSource
	st    *store.Store
	clock *clock
	srv   *httptest.Server
}

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func newFixture(t testing.TB) *fixture { t.Helper(); return newFixtureOn(t, false) }

// secureHost is the status page's host name in the https fixture; a browser test maps
// *.example.test to loopback, and a sibling host (evil.example.test) beside it.
const secureHost = "eos.example.test"

// newTLSFixture is a fixture served on https, whose configured URL is https://secureHost:PORT.
func newTLSFixture(t testing.TB) *fixture { t.Helper(); return newFixtureOn(t, true) }

func newFixtureOn(t testing.TB, secure bool) *fixture {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	src := &fakeSource{st: st, see: map[string]bool{"mattermost/infra": true}, feeds: map[string]*feed{},
		web: webapi.WebConfig{LinkTTL: 5 * time.Minute, SessionTTL: 8 * time.Hour}}
	c := &clock{t: t0}
	srv := httptest.NewUnstartedServer(New(Config{Engine: src, Now: c.Now, PollEvery: 20 * time.Millisecond}))
	if secure {
		srv.StartTLS()
		src.web.URL = "https://" + secureHost + ":" + strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return &fixture{t: t, src: src, st: st, clock: c, srv: srv}
}

var alice = store.WebPerson{Platform: "mattermost", UserID: "u-alice", Name: "alice"}

// link stores a fresh sign-in link for alice, as `@eos web` does, and returns its path.
func (f *fixture) link() string {
	f.t.Helper()
	token := webapi.NewWebSecret()
	now := f.clock.Now()
	if err := f.st.AddWebLink(context.Background(), hashSecret(token), store.WebLink{Person: alice, Created: now, Expires: now.Add(5 * time.Minute)}); err != nil {
		f.t.Fatal(err)
	}
	return "/signin/" + token
}

// client is a browser-like client: it keeps cookies and does not follow redirects.
func (f *fixture) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: f.srv.Client().Transport, // trusts the test certificate on https
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var formValue = regexp.MustCompile(`name="form" value="([^"]+)"`)
var tokenValue = regexp.MustCompile(`name="token" value="([^"]+)"`)

// get fetches path and returns its status and body.
func (f *fixture) get(c *http.Client, path string) (int, string) {
	f.t.Helper()
	resp, err := c.Get(f.srv.URL + path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (f *fixture) post(c *http.Client, path string, form url.Values) (*http.Response, string) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// useLink opens a sign-in link's page and presses its button.
func (f *fixture) useLink(c *http.Client, path string) (*http.Response, string) {
	f.t.Helper()
	code, page := f.get(c, path)
	if code != http.StatusOK {
		f.t.Fatalf("GET %s: %d", path, code)
	}
	return f.post(c, "/signin", url.Values{"token": {tokenValue.FindStringSubmatch(page)[1]}, "form": {formValue.FindStringSubmatch(page)[1]}})
}

// signedIn is a client with a session for alice.
func (f *fixture) signedIn() *http.Client {
	f.t.Helper()
	c := f.client()
	if resp, body := f.useLink(c, f.link()); resp.StatusCode != http.StatusSeeOther {
		f.t.Fatalf("signing in: %d %s", resp.StatusCode, body)
	}
	return c
}

// addPlan stores a plan asked in channel of mattermost, with one Terraform change of three
// attributes, one of them sensitive.
func (f *fixture) addPlan(id, channel string, state store.PlanState) *store.Plan {
	f.t.Helper()
	now := f.clock.Now()
	p := &store.Plan{
		ID: id, State: state, Text: "@eos create nextcloud --sso", Needed: 1,
		Requester: adapters.User{ID: "u-bob", Name: "bob"},
		Request:   adapters.PostRef{Platform: "mattermost", Channel: channel, ID: "post-" + id},
		Plan: executor.Plan{
			Spec: executor.Spec{Verb: "create", Target: "nextcloud", Env: "production",
				Units: []executor.Unit{{Service: "nextcloud", Values: map[string]string{"domain": "cloud.example.org", "sso": "true"}}}},
			Layers: []executor.LayerPlan{
				{Layer: executor.Salt, Status: executor.PlanNoChanges, Summary: "node1: no changes"},
				{Layer: executor.Terraform, Status: executor.PlanChanges, Summary: "+1 ~1 −0", Changes: []executor.Change{
					{Unit: "nextcloud", Action: executor.Create, Address: "terraform_data.server", Detail: "size small, region eu"},
					{Unit: "nextcloud", Action: executor.Replace, Address: "terraform_data.volume", Detail: "size …",
						Attrs:  "size \"100G\" → \"200G\"\nadmin_password (sensitive)\nlabel \"data\" → \"data-nc\"",
						Forces: "size", Reason: "cannot update in place", DataLoss: true, Size: "100G"},
				}},
				{Layer: executor.Nomad, Status: executor.PlanChanges, Summary: "job nextcloud: new", Changes: []executor.Change{
					{Unit: "nextcloud", Action: executor.Create, Address: "job nextcloud", Detail: "groups app ×1"},
				}},
			},
			Hash: "4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e",
		},
		Created: now, Expires: now.Add(time.Hour), Updated: now,
	}
	if err := f.st.CreatePlan(context.Background(), p, store.Entry{At: now, Kind: "request", User: "bob", PlanID: id, Service: "nextcloud", Env: "production", Text: "create nextcloud (plan " + id + ")"}); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// startRun approves plan p and starts its run, which locks production/nextcloud.
func (f *fixture) startRun(p *store.Plan) *store.Run {
	f.t.Helper()
	r := &store.Run{ID: p.ID, State: store.RunRunning, Verb: "create", Target: "nextcloud", Env: "production",
		Hash: p.Plan.Hash, Requester: "bob", Approvers: []string{"carol"}, Keys: []string{"production/nextcloud"}, Started: f.clock.Now()}
	if err := f.st.StartRun(context.Background(), r); err != nil {
		f.t.Fatal(err)
	}
	return r
}
