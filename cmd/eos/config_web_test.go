package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestWebConfig(t *testing.T) {
	for _, c := range []struct {
		name, text, env, listen string
		url, signIn             string
		link, session           time.Duration
	}{
		{name: "defaults", listen: "127.0.0.1:9747",
			signIn: "http://127.0.0.1:9747", link: 5 * time.Minute, session: 8 * time.Hour},
		{name: "a public address", listen: "127.0.0.1:9747",
			text: "web {\n url = \"https://eos.example.org/\"\n link_ttl = \"2m\"\n session_ttl = \"1h\"\n}",
			url:  "https://eos.example.org", signIn: "https://eos.example.org", link: 2 * time.Minute, session: time.Hour},
		{name: "EOS_WEB_URL wins", listen: "127.0.0.1:9747", env: "https://status.example.org",
			text: "web {\n url = \"https://eos.example.org\"\n}",
			url:  "https://status.example.org", signIn: "https://status.example.org", link: 5 * time.Minute, session: 8 * time.Hour},
		{name: "a wildcard listen address links to loopback", listen: "0.0.0.0:9747",
			signIn: "http://127.0.0.1:9747", link: 5 * time.Minute, session: 8 * time.Hour},
		{name: "an IPv6 wildcard too", listen: "[::]:9747",
			signIn: "http://127.0.0.1:9747", link: 5 * time.Minute, session: 8 * time.Hour},
		{name: "listen off", listen: "", text: "web {\n url = \"https://eos.example.org\"\n}",
			url: "https://eos.example.org", link: 5 * time.Minute, session: 8 * time.Hour},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("EOS_WEB_URL", c.env)
			cfg, err := loadConfig(writeTemp(t, c.text))
			if err != nil {
				t.Fatal(err)
			}
			w, err := cfg.webConfig(c.listen)
			if err != nil {
				t.Fatal(err)
			}
			if w.URL != c.url || w.SignInURL != c.signIn || w.LinkTTL != c.link || w.SessionTTL != c.session {
				t.Errorf("got %+v, want url %q sign-in %q link %s session %s", w, c.url, c.signIn, c.link, c.session)
			}
		})
	}
}

func TestWebConfigRefusesNonsense(t *testing.T) {
	for _, text := range []string{
		`web { url = "eos.example.org" }`,
		`web { url = "ftp://eos.example.org" }`,
		`web { link_ttl = "soon" }`,
		`web { session_ttl = "-1h" }`,
	} {
		cfg, err := loadConfig(writeTemp(t, text))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cfg.webConfig("127.0.0.1:9747"); err == nil || !strings.HasPrefix(err.Error(), "web: ") {
			t.Errorf("%s: error %v, want one naming the web block", text, err)
		}
	}
}

// The status page shares the listener with /healthz and /metrics, which keep working.
func TestWebServedBesideHealthzAndMetrics(t *testing.T) {
	cfg, err := loadConfig(writeTemp(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	ln, err := listenOps("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cfg.servedAt = ln.Addr().String()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := build(context.Background(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got := a.engine.Web().SignInURL; got != "http://"+ln.Addr().String() {
		t.Errorf("sign-in links point at %q, want the listener's address", got)
	}
	srv := httptest.NewServer(opsHandler(a, log))
	defer srv.Close()
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{"/metrics", http.StatusOK, "eos_"},
		{"/healthz", 0, `"store"`},
		{"/", http.StatusUnauthorized, "@eos web"},
		{"/signin/abc", http.StatusOK, `action="/signin"`},
	} {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if c.code != 0 && resp.StatusCode != c.code || !strings.Contains(string(b), c.want) {
			t.Errorf("GET %s: %d, want %d with %q:\n%.300s", c.path, resp.StatusCode, c.code, c.want, b)
		}
	}
}
