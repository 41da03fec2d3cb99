package e2e_test

import (
	"context"
	"github.com/eosbot/eos/bot/webapi"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/web"
)

// The status page against a real Mattermost: people sign in with the link `@eos web` sends
// them privately, and each session sees only what the server says its person can read, judged
// by the person's immutable id, re-asked once the engine's view cache has expired.
//
// The cast is the test's own (mmtest.NewPerson), not the seeded alice, bob and carol: the
// test renames people, which would pull the seeded ones from under the tests beside it.
//   - infra: private; alice and the bot. alice's plan is asked here.
//   - town: public; alice, bob, carol and the bot. bob and carol ask for links here.
//   - ops: private; carol and the bot; an ops channel (Config.OpsChannels), which sees all.
//
// The engine's clock is the test's: the view cache (30 s) is passed by moving it, not by
// waiting. The page reads the same clock, so links and sessions keep agreeing with the engine.
func TestE2EMattermostStatusPage(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	n := mmtest.Nonce()
	infra := mmChannel(t, s, "infra-"+n, model.ChannelTypePrivate)
	town := mmChannel(t, s, "town-"+n, model.ChannelTypeOpen)
	ops := mmChannel(t, s, "ops-"+n, model.ChannelTypePrivate)
	aliceName := "alice-" + n
	alice := s.NewPerson(t, aliceName, infra, town)
	bob := s.NewPerson(t, "bob-"+n, town)
	carol := s.NewPerson(t, "carol-"+n, town, ops)

	// 1. The page's address must be in the engine's configuration before the engine exists, and
	// the page needs the engine: listen first, serve once both are there. Loopback only.
	srv := httptest.NewUnstartedServer(nil)
	pageURL := "http://" + srv.Listener.Addr().String()
	clock := eostest.NewClock(time.Now())
	b := startMMBot(t, s, infra, eostest.Options{
		Clock:       clock,
		OpsChannels: []string{"mattermost:" + ops.Id},
		Web:         webapi.WebConfig{URL: pageURL, SignInURL: pageURL},
	}, func(c *mattermost.Config) { c.Channels = []string{infra.Id, town.Id} })
	pageLog := &lockedBuffer{}
	srv.Config.Handler = web.New(web.Config{Engine: b.Engine, Now: clock.Now,
		Logger: slog.New(slog.NewTextHandler(pageLog, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	srv.Start()
	t.Cleanup(srv.Close)
	page := &statusPage{t: t, url: pageURL}

	// 2. A pending plan in a channel bob cannot read.
	_, _, id := ask(t, s, infra, alice, "@eos create grafana")

	// 3. Each asks for a link; each link arrives in their own direct channel with the bot and
	// nowhere else, and the thread says only that it was sent privately.
	asks := []struct {
		who *mmtest.Person
		in  *model.Channel
	}{{alice, infra}, {bob, town}, {carol, town}}
	links := map[string]string{} // user id → path /signin/TOKEN
	for _, a := range asks {
		req := a.who.Say(t, a.in.Id, "", "@eos web")
		botSays(t, s, req.Id, "I sent you a sign-in link for the status page privately")
		links[a.who.User.Id] = dmLink(t, s, a.who, pageURL)
	}
	names := map[string]string{alice.User.Id: "alice", bob.User.Id: "bob", carol.User.Id: "carol"}
	seen := map[string]string{}
	for uid, link := range links {
		if other, dup := seen[link]; dup {
			t.Fatalf("%s and %s were sent the same sign-in link", names[uid], names[other])
		}
		seen[link] = uid
	}
	for _, ch := range []*model.Channel{infra, town, ops, s.Infra} {
		for _, p := range channelPosts(t, s.Admin, ch.Id) {
			for uid, link := range links {
				if strings.Contains(p.Message, link) {
					// Not the message itself: it holds a live sign-in link.
					t.Errorf("channel %s holds the sign-in link of %s (post %s)", ch.Name, names[uid], p.Id)
				}
			}
			if strings.Contains(p.Message, "/signin/") {
				t.Errorf("channel %s has a post with a sign-in link (post %s)", ch.Name, p.Id)
			}
		}
	}
	for _, a := range asks {
		for _, other := range asks {
			if other.who != a.who && dmHolds(t, s, a.who, links[other.who.User.Id]) {
				t.Errorf("%s's direct channel with the bot holds %s's sign-in link", a.who.User.Username, other.who.User.Username)
			}
		}
	}

	// 4. Each signs in with their own link; the page shows each only what they may read.
	aliceC := page.signIn(links[alice.User.Id])
	bobC := page.signIn(links[bob.User.Id])
	carolC := page.signIn(links[carol.User.Id])
	page.seesPlan(aliceC, "alice (member of infra)", id)
	page.seesNoPlan(bobC, "bob (not in infra, not in ops)", id)
	page.seesPlan(carolC, "carol (reads the ops channel)", id)
	if code := page.redeem(page.client(), links[alice.User.Id]); code != http.StatusGone {
		t.Errorf("alice's link used a second time: %d, want 410", code)
	}
	// The audit entries that name no plan (a link was sent) reach only ops readers.
	sent := "sent a one-time sign-in link for the status page to mattermost:" + alice.User.Id
	if code, body := page.get(carolC, "/audit"); code != http.StatusOK || !strings.Contains(body, sent) {
		t.Errorf("carol's audit page (%d) lacks %q", code, sent)
	}
	if code, body := page.get(bobC, "/audit"); code != http.StatusOK || strings.Contains(body, "one-time sign-in link") || strings.Contains(body, id) {
		t.Errorf("bob's audit page (%d) shows an entry without a plan, or alice's plan %s:\n%s", code, id, body)
	}

	// 5. Names change; ids do not. alice, renamed, still sees her plan; bob, taking the name
	// alice had (the plan's requester name), sees nothing, in his old session or in one begun
	// under the new name. Each check comes after the view cache has passed, so that the
	// server is asked about the person as they are now named.
	s.Rename(t, alice, "alice2-"+n)
	clock.Advance(31 * time.Second)
	page.seesPlan(aliceC, "alice, renamed", id)
	s.Rename(t, bob, aliceName)
	req := bob.Say(t, town.Id, "", "@eos web")
	botSays(t, s, req.Id, "I sent you a sign-in link for the status page privately")
	bobLink := dmLinkOtherThan(t, s, bob, pageURL, links[bob.User.Id])
	bobNew := page.signIn(bobLink)
	clock.Advance(31 * time.Second)
	page.seesNoPlan(bobC, "bob renamed to alice's old name (old session)", id)
	page.seesNoPlan(bobNew, "bob renamed to alice's old name (new session)", id)
	page.seesPlan(aliceC, "alice, her old name now bob's", id)

	// 6. alice leaves infra. Once the engine's 30-second view cache has passed, the server is
	// asked again and she sees the plan no more; carol, through ops, still does.
	ctx, cancel := context.WithTimeout(context.Background(), mmtest.Timeout)
	defer cancel()
	if _, err := s.Admin.RemoveUserFromChannel(ctx, infra.Id, alice.User.Id); err != nil {
		t.Fatalf("removing alice from infra: %v", err)
	}
	clock.Advance(31 * time.Second)
	page.seesNoPlan(aliceC, "alice, removed from infra", id)
	page.seesPlan(carolC, "carol, after alice left", id)

	// No secret reached a log: not a link's token, not a session's cookie. The engine is
	// stopped first, so its log is complete and no longer written to.
	srv.Close()
	b.Stop()
	secrets := map[string]string{}
	for uid, link := range links {
		secrets[names[uid]+"'s sign-in link"] = strings.TrimPrefix(link, "/signin/")
	}
	secrets["bob's second sign-in link"] = strings.TrimPrefix(bobLink, "/signin/")
	for who, c := range map[string]*http.Client{"alice": aliceC, "bob": bobC, "bob's second": bobNew, "carol": carolC} {
		secrets[who+" session cookie"] = page.session(c)
	}
	logs := map[string]string{"engine": b.Log.String(), "adapter": b.AdapterLog.String(), "page": pageLog.String()}
	if !strings.Contains(logs["page"], "status page: signed in") || logs["engine"] == "" || logs["adapter"] == "" {
		t.Errorf("a log is empty, or the page's names no sign-in: the check below would prove nothing")
	}
	for what, secret := range secrets {
		for name, log := range logs {
			if strings.Contains(log, secret) {
				t.Errorf("the %s log holds %s", name, what)
			}
		}
	}
}

// mmChannel creates a channel of the test's own with the bot as its only member.
func mmChannel(t *testing.T, s *mmtest.Server, name string, kind model.ChannelType) *model.Channel {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mmtest.Timeout)
	defer cancel()
	ch, _, err := s.Admin.CreateChannel(ctx, &model.Channel{TeamId: s.Team.Id, Name: name, DisplayName: name, Type: kind})
	if err != nil {
		t.Fatalf("creating channel %s: %v", name, err)
	}
	if _, _, err := s.Admin.AddChannelMember(ctx, ch.Id, s.Bot.Id); err != nil {
		t.Fatalf("adding the bot to %s: %v", name, err)
	}
	return ch
}

// channelPosts is every post of channel (up to 200, plenty for a test's channel), read as reader.
func channelPosts(t *testing.T, reader *model.Client4, channel string) []*model.Post {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mmtest.Timeout)
	defer cancel()
	list, _, err := reader.GetPostsForChannel(ctx, channel, 0, 200, "", false, false)
	if err != nil {
		t.Fatalf("reading channel %s: %v", channel, err)
	}
	out := make([]*model.Post, 0, len(list.Order))
	for _, id := range list.Order {
		out = append(out, list.Posts[id])
	}
	return out
}

// dmPosts is the direct channel between p and the bot, read as p.
func dmPosts(t *testing.T, s *mmtest.Server, p *mmtest.Person) []*model.Post {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mmtest.Timeout)
	defer cancel()
	dm, _, err := p.Client.CreateDirectChannel(ctx, p.User.Id, s.Bot.Id)
	if err != nil {
		t.Fatalf("opening %s's direct channel with the bot: %v", p.User.Username, err)
	}
	return channelPosts(t, p.Client, dm.Id)
}

func dmHolds(t *testing.T, s *mmtest.Server, p *mmtest.Person, text string) bool {
	t.Helper()
	for _, post := range dmPosts(t, s, p) {
		if strings.Contains(post.Message, text) {
			return true
		}
	}
	return false
}

// dmLink waits for the bot's sign-in link in p's direct channel with it and returns the
// link's path, /signin/TOKEN. The direct channel must hold exactly one.
func dmLink(t *testing.T, s *mmtest.Server, p *mmtest.Person, pageURL string) string {
	t.Helper()
	return dmLinkOtherThan(t, s, p, pageURL, "")
}

// dmLinkOtherThan is dmLink for a person who was sent old before: it waits for the one
// other link. Failures never print a link.
func dmLinkOtherThan(t *testing.T, s *mmtest.Server, p *mmtest.Person, pageURL, old string) string {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(pageURL) + `(/signin/[A-Za-z0-9_-]{43})\b`)
	deadline := time.Now().Add(mmtest.Timeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		var found []string
		fromOthers := 0
		for _, post := range dmPosts(t, s, p) {
			for _, m := range re.FindAllStringSubmatch(post.Message, -1) {
				if post.UserId != s.Bot.Id {
					fromOthers++
				} else if m[1] != old {
					found = append(found, m[1])
				}
			}
		}
		if fromOthers > 0 {
			t.Fatalf("%s's direct channel holds %d sign-in links not posted by the bot", p.User.Username, fromOthers)
		}
		switch {
		case len(found) == 1:
			return found[0]
		case len(found) > 1:
			t.Fatalf("%s's direct channel holds %d new sign-in links, want one", p.User.Username, len(found))
		case time.Now().After(deadline):
			t.Fatalf("no sign-in link reached %s's direct channel with the bot within %s", p.User.Username, mmtest.Timeout)
		}
		<-tick.C
	}
}

// statusPage drives the page over HTTP as a browser would.
type statusPage struct {
	t   *testing.T
	url string
}

var (
	signInToken = regexp.MustCompile(`name="token" value="([^"]+)"`)
	signInForm  = regexp.MustCompile(`name="form" value="([^"]+)"`)
)

// client keeps cookies and does not follow redirects.
func (p *statusPage) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: mmtest.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (p *statusPage) get(c *http.Client, path string) (int, string) {
	p.t.Helper()
	resp, err := c.Get(p.url + path)
	if err != nil {
		// The error names the address, which may hold a sign-in link.
		p.t.Fatalf("GET %s: %s", hideLink(path), strings.ReplaceAll(err.Error(), path, hideLink(path)))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// hideLink is path with the token of a sign-in link left out, for messages.
func hideLink(path string) string {
	if strings.HasPrefix(path, "/signin/") {
		return "/signin/[link]"
	}
	return path
}

// redeem opens a sign-in link's page and presses its button; it returns the POST's status.
func (p *statusPage) redeem(c *http.Client, link string) int {
	p.t.Helper()
	code, body := p.get(c, link)
	tok, form := signInToken.FindStringSubmatch(body), signInForm.FindStringSubmatch(body)
	if code != http.StatusOK || tok == nil || form == nil {
		p.t.Fatalf("the sign-in link's page: %d, without its form", code)
	}
	vals := url.Values{"token": {tok[1]}, "form": {form[1]}}
	req, err := http.NewRequest(http.MethodPost, p.url+"/signin", strings.NewReader(vals.Encode()))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		p.t.Fatalf("POST /signin: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// session is the value of c's session cookie, failing the test when it has none.
func (p *statusPage) session(c *http.Client) string {
	p.t.Helper()
	u, _ := url.Parse(p.url)
	for _, k := range c.Jar.Cookies(u) {
		if k.Name == "eos_session" && k.Value != "" {
			return k.Value
		}
	}
	p.t.Fatal("a signed-in client has no eos_session cookie")
	return ""
}

// signIn returns a client signed in with link.
func (p *statusPage) signIn(link string) *http.Client {
	p.t.Helper()
	c := p.client()
	if code := p.redeem(c, link); code != http.StatusSeeOther {
		p.t.Fatalf("signing in: %d, want 303", code)
	}
	if code, _ := p.get(c, "/"); code != http.StatusOK {
		p.t.Fatalf("the overview after signing in: %d, want 200", code)
	}
	return c
}

// seesPlan checks that who's session shows plan id, on its page and in the overview.
func (p *statusPage) seesPlan(c *http.Client, who, id string) {
	p.t.Helper()
	code, body := p.get(c, "/plans/"+id)
	if code != http.StatusOK || !strings.Contains(body, id) || !strings.Contains(body, "grafana") {
		p.t.Errorf("%s: /plans/%s = %d, want 200 with the plan id and grafana:\n%s", who, id, code, body)
	}
	if _, body := p.get(c, "/"); !strings.Contains(body, "/plans/"+id) {
		p.t.Errorf("%s: the overview does not list pending plan %s:\n%s", who, id, body)
	}
}

// seesNoPlan checks that who's session shows nothing of plan id: its page is not found and
// neither the overview nor the audit log names it.
func (p *statusPage) seesNoPlan(c *http.Client, who, id string) {
	p.t.Helper()
	code, body := p.get(c, "/plans/"+id)
	if code != http.StatusNotFound || strings.Contains(body, "grafana") {
		p.t.Errorf("%s: /plans/%s = %d, want 404 without the plan:\n%s", who, id, code, body)
	}
	for _, path := range []string{"/", "/audit"} {
		code, body := p.get(c, path)
		if code != http.StatusOK || strings.Contains(body, id) {
			p.t.Errorf("%s: %s = %d, want 200 without plan %s:\n%s", who, path, code, id, body)
		}
	}
}
