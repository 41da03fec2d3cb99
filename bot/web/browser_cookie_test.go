package web

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/eosbot/eos/internal/browsertest"
)

// siblingBrowser is a Chromium in which every *.example.test host is loopback, so that the
// page (https://eos.example.test:PORT) has a sibling host, and the test certificate is taken.
func siblingBrowser(t *testing.T) context.Context {
	return browsertest.Start(t,
		chromedp.Flag("host-resolver-rules", "MAP *.example.test 127.0.0.1"),
		chromedp.Flag("ignore-certificate-errors", true))
}

// hostURL is srv's address under host: https://host:PORT.
func hostURL(srv *httptest.Server, host string) string {
	return "https://" + host + ":" + strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
}

// A page on a sibling host (evil.example.test beside eos.example.test) sets, for the whole
// domain, a session cookie of mallory's and a sign-in form value, and tries a __Host- one too.
// The status page signs nobody in with them: a visitor is signed out, and a person who signs
// in is herself, before and after the sibling plants again.
func TestBrowserASiblingHostCannotPlantTheSessionCookie(t *testing.T) {
	f := newTLSFixture(t)
	id := f.sessionFor(mallory)
	evil := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, c := range []string{
			"eos_session=" + id + "; Domain=example.test; Path=/; Secure; SameSite=Lax",
			"eos_signin=planted; Domain=example.test; Path=/; Secure; SameSite=Lax",
			"__Host-eos_session=" + id + "; Domain=example.test; Path=/; Secure", // refused: a Domain
		} {
			w.Header().Add("Set-Cookie", c)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><p id="planted">cookies set for example.test</p>`))
	}))
	evil.StartTLS()
	t.Cleanup(evil.Close)
	eos, sibling := hostURL(f.srv, secureHost), hostURL(evil, "evil.example.test")

	ctx := siblingBrowser(t)
	plant := func() {
		t.Helper()
		do(t, ctx, "opening the sibling's page", chromedp.Navigate(sibling+"/"), chromedp.WaitVisible("#planted"))
		// The plant took: the browser holds mallory's session for the whole domain, so what
		// follows is the page ignoring it, not the browser refusing it.
		if got := eval[string](t, ctx, "document.cookie"); !strings.Contains(got, "eos_session="+id) {
			t.Fatalf("the sibling could not set its cookie (%q): the test shows nothing", got)
		}
	}
	plant()
	do(t, ctx, "opening the status page", chromedp.Navigate(eos+"/"), chromedp.WaitVisible("main h1"))
	shot(t, ctx, "planted")
	if n := eval[int](t, ctx, `document.querySelectorAll("#who").length`); n != 0 {
		who := eval[string](t, ctx, `document.getElementById("who").textContent`)
		t.Fatalf("a cookie planted by a sibling host signed the browser in as %q", who)
	}
	if body := eval[string](t, ctx, "document.body.innerText"); !strings.Contains(body, "@eos web") {
		t.Errorf("the status page with only a planted cookie should say how to sign in:\n%s", body)
	}

	// alice signs in on the page itself (the planted form value is not its form's) and stays
	// alice when the sibling plants again.
	do(t, ctx, "opening the sign-in link", chromedp.Navigate(eos+f.link()), chromedp.WaitVisible("#signin"))
	do(t, ctx, "pressing Sign in", chromedp.Click("#signin"), chromedp.WaitVisible("#who"))
	plant()
	do(t, ctx, "opening the status page again", chromedp.Navigate(eos+"/"), chromedp.WaitVisible("#who"))
	if who := eval[string](t, ctx, `document.getElementById("who").textContent`); who != "mattermost @alice" {
		t.Errorf("after the sibling planted again, the page is signed in as %q, want alice", who)
	}
	shot(t, ctx, "signed-in")
}
