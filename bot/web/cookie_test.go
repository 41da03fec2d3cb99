package web

import (
	"context"
	"github.com/eosbot/eos/bot/webapi"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
)

var mallory = store.WebPerson{Platform: "mattermost", UserID: "u-mallory", Name: "mallory"}

// sessionFor stores a session for p, as signing in does, and returns its cookie value.
func (f *fixture) sessionFor(p store.WebPerson) string {
	f.t.Helper()
	id := webapi.NewWebSecret()
	now := f.clock.Now()
	if err := f.st.AddWebSession(context.Background(), hashSecret(id), store.WebSession{Person: p, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		f.t.Fatal(err)
	}
	return id
}

// setCookies are the Set-Cookie headers of resp named name, parsed, with the raw lines.
func setCookies(resp *http.Response, name string) (cookies []*http.Cookie, raw []string) {
	for _, line := range resp.Header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil && c.Name == name {
			cookies, raw = append(cookies, c), append(raw, line)
		}
	}
	return cookies, raw
}

// hostOnly checks that resp sets the cookie name, and only as a browser keeps it under the
// __Host- prefix: Secure, Path=/, no Domain; and HttpOnly and SameSite=Lax, as every cookie of
// the page. It returns the cookies.
func hostOnly(t *testing.T, what string, resp *http.Response, name string) ([]*http.Cookie, []string) {
	t.Helper()
	cookies, raw := setCookies(resp, name)
	if len(cookies) == 0 {
		t.Errorf("%s: no such cookie is set", what)
	}
	for i, c := range cookies {
		if !c.Secure || c.Path != "/" || c.Domain != "" || strings.Contains(strings.ToLower(raw[i]), "domain=") ||
			!c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
			t.Errorf("%s: %s; want Secure, Path=/, no Domain, HttpOnly, SameSite=Lax", what, raw[i])
		}
	}
	return cookies, raw
}

// fetch GETs path with c and returns the response (its body read) and the body.
func (f *fixture) fetch(c *http.Client, path string) (*http.Response, string) {
	f.t.Helper()
	resp, err := c.Get(f.srv.URL + path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// On https the sign-in form's cookie and the session cookie are __Host- cookies, set and
// cleared with the attributes the prefix requires, and no cookie without the prefix is set.
func TestOnHTTPSTheCookiesAreHostPrefixed(t *testing.T) {
	f := newTLSFixture(t)
	c := f.client()
	resp, page := f.fetch(c, f.link())
	hostOnly(t, "the sign-in page", resp, "__Host-eos_signin")
	if got, _ := setCookies(resp, "eos_signin"); len(got) > 0 {
		t.Errorf("the sign-in page sets a plain eos_signin: %v", got)
	}
	resp, body := f.post(c, "/signin", url.Values{"token": {tokenValue.FindStringSubmatch(page)[1]}, "form": {formValue.FindStringSubmatch(page)[1]}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in on https: %d\n%s", resp.StatusCode, body)
	}
	hostOnly(t, "signing in", resp, "__Host-eos_session")
	hostOnly(t, "signing in clears the form's cookie", resp, "__Host-eos_signin")
	if got, _ := setCookies(resp, "eos_session"); len(got) > 0 {
		t.Errorf("signing in sets a plain eos_session: %v", got)
	}
	code, page := f.get(c, "/")
	if code != http.StatusOK || !strings.Contains(page, "mattermost @alice") {
		t.Fatalf("after signing in on https, / is %d:\n%s", code, page)
	}
	resp, _ = f.post(c, "/signout", url.Values{"form": {formValue.FindStringSubmatch(page)[1]}})
	cleared, raw := hostOnly(t, "signing out", resp, "__Host-eos_session")
	for i, k := range cleared {
		if k.MaxAge >= 0 {
			t.Errorf("signing out does not clear the session cookie: %s", raw[i])
		}
	}
}

// On https only the __Host- cookie is read: a plain eos_session or eos_signin, which a sibling
// host can set for the whole domain, signs nobody in and passes no form.
func TestOnHTTPSAPlantedPlainCookieIsIgnored(t *testing.T) {
	f := newTLSFixture(t)
	id := f.sessionFor(mallory)
	noJar := &http.Client{Transport: f.srv.Client().Transport, // only the cookie given, no redirect followed
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path, body string, cookie *http.Cookie) int {
		t.Helper()
		req, _ := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		resp, err := noJar.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		cookie string
		want   int
	}{
		{"eos_session", http.StatusUnauthorized},
		{"__host-eos_session", http.StatusUnauthorized}, // the prefix is case-sensitive
		{"__Host-eos_session", http.StatusOK},           // the same session under the page's name
	} {
		if code := send(http.MethodGet, "/", "", &http.Cookie{Name: tc.cookie, Value: id}); code != tc.want {
			t.Errorf("GET / on https with a cookie %s of mallory's session: %d, want %d", tc.cookie, code, tc.want)
		}
	}
	// Signing a victim in as mallory with her own link: a planted form cookie, and a form
	// carrying its value.
	_, page := f.fetch(f.client(), f.link())
	form := url.Values{"token": {tokenValue.FindStringSubmatch(page)[1]}, "form": {"planted"}}.Encode()
	if code := send(http.MethodPost, "/signin", form, &http.Cookie{Name: "eos_signin", Value: "planted"}); code != http.StatusForbidden {
		t.Errorf("a sign-in form matching a planted plain eos_signin: %d, want 403", code)
	}
}

// On plain http (loopback) the names are plain, since browsers refuse a __Host- cookie that is
// not Secure; the attributes are otherwise the same, and signing in works.
func TestOnHTTPTheCookiesArePlain(t *testing.T) {
	f := newFixture(t)
	resp, _ := f.fetch(f.client(), f.link())
	form, raw := setCookies(resp, "eos_signin")
	if len(form) != 1 || form[0].Secure || form[0].Path != "/" || form[0].Domain != "" || !form[0].HttpOnly {
		t.Errorf("the sign-in page on http sets %v; want one eos_signin, not Secure, Path=/, no Domain, HttpOnly", raw)
	}
	if got, _ := setCookies(resp, "__Host-eos_signin"); len(got) > 0 {
		t.Errorf("the sign-in page on http sets a __Host- cookie, which browsers refuse: %v", got)
	}
	if code, page := f.get(f.signedIn(), "/"); code != http.StatusOK || !strings.Contains(page, "mattermost @alice") {
		t.Errorf("signed in on http, / is %d", code)
	}
}
