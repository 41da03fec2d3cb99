package enginetest_test

import (
	"context"
	"errors"
	"github.com/eosbot/eos/bot/webapi"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

var signInRe = regexp.MustCompile(`https://eos\.example\.org/signin/([A-Za-z0-9_-]+)`)

var alice = adapters.User{ID: "u-alice", Name: "alice"}

func webHarness(t *testing.T, web webapi.WebConfig, clock *eostest.Clock, a adapters.Adapter, stop func()) *eostest.Harness {
	t.Helper()
	h := eostest.New(t, eostest.Options{Web: web, Clock: clock, Adapters: []adapters.Adapter{a}})
	t.Cleanup(stop)
	return h
}

// Without the page's address, `web` says the page is off and how to turn it on.
func TestWebLinkPageOff(t *testing.T) {
	t.Parallel()
	chat := newWebFake("mattermost", alice)
	webHarness(t, webapi.WebConfig{}, nil, chat, chat.stop)
	chat.say(t, alice, "infra", "@eos web")
	chat.wait(t, 0, "The status page is off", `"listen" address`, "web { url =")
	if w := chat.whispered(); len(w) != 0 {
		t.Fatalf("a link was whispered while the page is off: %+v", w)
	}
}

// A platform that cannot whisper gets no link: never in the channel, whatever happens.
func TestWebLinkNeedsAPrivateMessage(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", alice)
	h := webHarness(t, webapi.WebConfig{SignInURL: "https://eos.example.org"}, nil, chat, chat.stop)
	chat.say(t, alice, "infra", "@eos web")
	chat.wait(t, 0, "No sign-in link was sent", "cannot send a private message on mattermost")
	h.Idle()
	for _, text := range chat.texts(0) {
		if strings.Contains(text, "/signin/") {
			t.Fatalf("a sign-in link was posted in the channel:\n%s", text)
		}
	}
}

// `web` whispers a one-time link to the asker and says so in the thread without it. The
// token is stored only as its hash, signs in as the asker's platform and ID, expires after
// LinkTTL, and appears in no log, no audit entry and no public post.
func TestWebLinkIsWhisperedAndNeverLogged(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC))
	chat := newWebFake("mattermost", alice)
	h := webHarness(t, webapi.WebConfig{SignInURL: "https://eos.example.org/", LinkTTL: 10 * time.Minute}, clock, chat, chat.stop)
	asked := chat.say(t, alice, "infra", "@eos web")
	answer := chat.wait(t, 0, "I sent you a sign-in link for the status page privately", "within 10 minutes")
	if answer.Ref.Thread != asked.ID {
		t.Errorf("the answer is not in the asker's thread: %+v", answer.Ref)
	}
	h.Idle()

	ws := chat.whispered()
	if len(ws) != 1 {
		t.Fatalf("%d whispers, want 1: %+v", len(ws), ws)
	}
	w := ws[0]
	if w.To.ID != "u-alice" || w.Near.ID != asked.ID {
		t.Errorf("whispered to %+v near %+v, want alice near her request", w.To, w.Near)
	}
	for _, want := range []string{"works once, within 10 minutes", "for 8 hours", "Do not share it"} {
		if !strings.Contains(w.Text, want) {
			t.Errorf("the whisper does not say %q:\n%s", want, w.Text)
		}
	}
	m := signInRe.FindStringSubmatch(w.Text)
	if m == nil {
		t.Fatalf("no link to https://eos.example.org/signin/… (trailing slash trimmed) in the whisper:\n%s", w.Text)
	}
	token := m[1]
	if len(token) != 43 { // 32 bytes, base64url without padding
		t.Errorf("token %d characters long, want 43", len(token))
	}

	// Nothing but the whisper holds the token.
	for _, text := range chat.texts(0) {
		if strings.Contains(text, token) {
			t.Errorf("the token is in a public post:\n%s", text)
		}
	}
	if strings.Contains(h.Log.String(), token) {
		t.Errorf("the token is in the engine's log")
	}
	entries, err := h.Store.Audit(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range entries {
		if strings.Contains(e.Text, token) || strings.Contains(e.Hash, token) {
			t.Errorf("the token is in audit entry %+v", e)
		}
		if e.Kind == "web-link" {
			found = true
			if !strings.Contains(e.Text, "mattermost:u-alice") || e.UserID != "u-alice" {
				t.Errorf("the web-link entry does not name the person: %+v", e)
			}
		}
	}
	if !found {
		t.Errorf("no web-link audit entry in %+v", entries)
	}
	if _, err := h.Store.RedeemWebLink(context.Background(), token, clock.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the token itself is a key in the store: %v", err)
	}

	// The hash redeems, as alice on mattermost, until the link's TTL is over.
	if _, err := h.Store.RedeemWebLink(context.Background(), webapi.WebTokenHash(token), clock.Now().Add(10*time.Minute)); !errors.Is(err, store.ErrLinkExpired) {
		t.Errorf("redeemed 10 minutes later: %v, want ErrLinkExpired", err)
	}
	l, err := h.Store.RedeemWebLink(context.Background(), webapi.WebTokenHash(token), clock.Now().Add(9*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.WebPerson{Platform: "mattermost", UserID: "u-alice", Name: "alice"}); l.Person != want {
		t.Errorf("the link signs in as %+v, want %+v", l.Person, want)
	}
}

// A whisper that fails sends no link: the thread says so, and the log has the error only.
func TestWebLinkWhisperFails(t *testing.T) {
	t.Parallel()
	chat := newWebFake("mattermost", alice)
	chat.failWhispers(errPlatformDown)
	h := webHarness(t, webapi.WebConfig{SignInURL: "https://eos.example.org"}, nil, chat, chat.stop)
	chat.say(t, alice, "infra", "@eos web")
	chat.wait(t, 0, "Sending you a sign-in link privately failed, so no link was sent")
	h.Idle()
	if !strings.Contains(h.Log.String(), errPlatformDown.Error()) {
		t.Errorf("the failure is not logged:\n%s", h.Log.String())
	}
	if strings.Contains(h.Log.String(), "/signin/") {
		t.Errorf("a link is in the log:\n%s", h.Log.String())
	}
	entries, _ := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.Kind == "web-link" })
	if len(entries) != 0 {
		t.Errorf("an undelivered link is audited as sent: %+v", entries)
	}
}

// Web() fills in the lifetimes left zero: links 5 minutes, sessions 8 hours.
func TestWebDefaults(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Web: webapi.WebConfig{URL: "https://eos.example.org"}})
	w := h.Engine.Web()
	if w.LinkTTL != 5*time.Minute || w.SessionTTL != 8*time.Hour || w.URL != "https://eos.example.org" {
		t.Fatalf("Web() = %+v, want the URL kept and lifetimes 5m and 8h", w)
	}
}
