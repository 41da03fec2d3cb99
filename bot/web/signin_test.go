package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestWithoutASessionOnlyHowToSignIn(t *testing.T) {
	f := newFixture(t)
	f.addPlan("7f3a9c21", "infra", "pending")
	c := f.client()
	for _, path := range []string{"/", "/plans/7f3a9c21", "/runs/7f3a9c21", "/locks", "/services", "/audit", "/nowhere"} {
		code, body := f.get(c, path)
		if code != http.StatusUnauthorized {
			t.Errorf("GET %s without a session: %d, want 401", path, code)
		}
		if !strings.Contains(body, "@eos web") || strings.Contains(body, "7f3a9c21") || strings.Contains(body, "nextcloud") {
			t.Errorf("GET %s without a session shows more than how to sign in:\n%s", path, body)
		}
	}
	for _, path := range []string{"/runs/7f3a9c21/events", "/locks/events"} {
		if code, _ := f.get(c, path); code != http.StatusUnauthorized {
			t.Errorf("GET %s without a session: %d, want 401", path, code)
		}
	}
}

func TestALinkSignsInOnce(t *testing.T) {
	f := newFixture(t)
	link := f.link()
	c := f.client()
	// Chat platforms fetch links to unfurl them: GETs must not use the link up.
	for range 2 {
		if code, body := f.get(f.client(), link); code != http.StatusOK || !strings.Contains(body, `id="signin"`) {
			t.Fatalf("GET %s: %d\n%s", link, code, body)
		}
	}
	resp, body := f.useLink(c, link)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("first use: %d %s", resp.StatusCode, body)
	}
	cookie := resp.Cookies()[len(resp.Cookies())-1]
	if cookie.Name != sessionCookie || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" || cookie.Secure {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Lax, Path=/, not Secure on http", cookie)
	}
	if code, body := f.get(c, "/"); code != http.StatusOK || !strings.Contains(body, "mattermost @alice") {
		t.Fatalf("after signing in, / is %d and does not name alice:\n%s", code, body)
	}
	resp, body = f.useLink(f.client(), link)
	if resp.StatusCode != http.StatusGone || !strings.Contains(body, "used already") || !strings.Contains(body, "@eos web") {
		t.Errorf("second use: %d, want 410 saying it was used:\n%s", resp.StatusCode, body)
	}
}

func TestExpiredAndUnknownLinksAreRefused(t *testing.T) {
	f := newFixture(t)
	link := f.link()
	f.clock.Add(5*time.Minute + time.Second)
	resp, body := f.useLink(f.client(), link)
	if resp.StatusCode != http.StatusGone || !strings.Contains(body, "expired") {
		t.Errorf("expired link: %d\n%s", resp.StatusCode, body)
	}
	resp, body = f.useLink(f.client(), "/signin/not-a-token")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "not a valid sign-in link") {
		t.Errorf("unknown link: %d\n%s", resp.StatusCode, body)
	}
}

func TestASessionEnds(t *testing.T) {
	f := newFixture(t)
	c := f.signedIn()
	f.clock.Add(8*time.Hour - time.Minute)
	if code, _ := f.get(c, "/"); code != http.StatusOK {
		t.Fatalf("within the session's 8 hours: %d", code)
	}
	f.clock.Add(time.Minute)
	if code, _ := f.get(c, "/"); code != http.StatusUnauthorized {
		t.Errorf("after 8 hours: %d, want 401", code)
	}
}

func TestSignOut(t *testing.T) {
	f := newFixture(t)
	c := f.signedIn()
	_, page := f.get(c, "/")
	resp, _ := f.post(c, "/signout", url.Values{"form": {formValue.FindStringSubmatch(page)[1]}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %d", resp.StatusCode)
	}
	if code, _ := f.get(c, "/"); code != http.StatusUnauthorized {
		t.Errorf("after signing out: %d, want 401", code)
	}
}

// A POST must come from the page: the form token of the page, and a browser's word that it
// is same-origin when it gives one.
func TestPostsFromElsewhereAreRefused(t *testing.T) {
	f := newFixture(t)

	// Sign-in without the value the sign-in page set (a form on another site, or curl).
	link := f.link()
	resp, _ := f.post(f.client(), "/signin", url.Values{"token": {strings.TrimPrefix(link, "/signin/")}, "form": {"guess"}})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("sign-in POST without the page's form value: %d, want 403", resp.StatusCode)
	}
	// Sign-out without the session's form token, and with it but from another site.
	c := f.signedIn()
	if resp, _ := f.post(c, "/signout", url.Values{"form": {"guess"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out without the form token: %d, want 403", resp.StatusCode)
	}
	_, page := f.get(c, "/")
	token := formValue.FindStringSubmatch(page)[1]
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/signout", strings.NewReader(url.Values{"form": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site sign-out with the right token: %d, want 403", resp.StatusCode)
	}
	if code, _ := f.get(c, "/"); code != http.StatusOK {
		t.Errorf("a refused sign-out ended the session: %d", code)
	}
}

func TestLinkRefusedBeforeSignInPOSTIsStillUsable(t *testing.T) {
	f := newFixture(t)
	link := f.link()
	if resp, _ := f.post(f.client(), "/signin", url.Values{"token": {strings.TrimPrefix(link, "/signin/")}}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("POST without the form value: %d, want 403", resp.StatusCode)
	}
	if resp, body := f.useLink(f.client(), link); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the link was used up by a refused POST: %d\n%s", resp.StatusCode, body)
	}
}

func TestSecurityHeaders(t *testing.T) {
	f := newFixture(t)
	c := f.signedIn()
	for _, path := range []string{"/", "/signin/x", "/locks", "/audit"} {
		resp, err := c.Get(f.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := map[string]string{
			"Content-Security-Policy": "default-src 'self'",
			"Referrer-Policy":         "no-referrer",
			"X-Frame-Options":         "DENY",
			"X-Content-Type-Options":  "nosniff",
			"Cache-Control":           "no-store",
		}
		for h, v := range want {
			if got := resp.Header.Get(h); !strings.HasPrefix(got, v) {
				t.Errorf("GET %s: %s is %q, want %q", path, h, got, v)
			}
		}
	}
}

// A sign-in link's token is a secret: an error logged while serving its page names the path
// without it.
func TestLoggedPathHidesTheToken(t *testing.T) {
	for path, want := range map[string]string{
		"/signin/hIYImTRNPhTL6DgS1ByhNd841bJxLo4G": "/signin/…",
		"/plans/7f3a9c21":                          "/plans/7f3a9c21",
	} {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if got := logPath(r); got != want {
			t.Errorf("logPath(%s) = %s, want %s", path, got, want)
		}
	}
}
