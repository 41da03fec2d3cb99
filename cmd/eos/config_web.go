package main

import (
	"fmt"
	"github.com/eosbot/eos/bot/webapi"
	"net"
	"net/url"
	"strings"
	"time"
)

// WebBlock configures the status page `eos serve` shows on its listen address:
//
//	web {
//	  url         = "https://eos.example.org"
//	  link_ttl    = "5m"
//	  session_ttl = "8h"
//	}
type WebBlock struct {
	// URL is the page's public address (EOS_WEB_URL), behind a proxy that terminates TLS.
	// Previews link to it and `@eos web` links point at it; empty, sign-in links point at the
	// listen address.
	URL string `hcl:"url,optional"`
	// LinkTTL is how long a sign-in link works (default 5m); a link works once.
	LinkTTL string `hcl:"link_ttl,optional"`
	// SessionTTL is how long a sign-in lasts (default 8h).
	SessionTTL string `hcl:"session_ttl,optional"`
}

const (
	defaultLinkTTL    = 5 * time.Minute
	defaultSessionTTL = 8 * time.Hour
)

// webConfig is the engine's view of the page. listenAddr is where the page is served
// ("127.0.0.1:9747"), empty when listen is "off": then nothing serves the page here and
// `@eos web` says the page is off.
func (c *Config) webConfig(listenAddr string) (webapi.WebConfig, error) {
	w := webapi.WebConfig{LinkTTL: defaultLinkTTL, SessionTTL: defaultSessionTTL}
	b := c.Web
	if b == nil {
		b = &WebBlock{}
	}
	if b.URL != "" {
		u, err := url.Parse(b.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return w, fmt.Errorf("web: url %q is not an http(s) address such as https://eos.example.org", b.URL)
		}
		w.URL = strings.TrimRight(b.URL, "/")
	}
	for _, d := range []struct {
		name, text string
		dst        *time.Duration
	}{{"link_ttl", b.LinkTTL, &w.LinkTTL}, {"session_ttl", b.SessionTTL, &w.SessionTTL}} {
		if d.text == "" {
			continue
		}
		v, err := time.ParseDuration(d.text)
		if err != nil || v <= 0 {
			return w, fmt.Errorf("web: %s %q is not a positive duration such as \"5m\"", d.name, d.text)
		}
		*d.dst = v
	}
	switch {
	case listenAddr == "":
	case w.URL != "":
		w.SignInURL = w.URL
	default:
		w.SignInURL = "http://" + reachable(listenAddr)
	}
	return w, nil
}

// reachable is listenAddr as a browser on this machine can open it: a wildcard address
// (0.0.0.0, [::]) listens on loopback too. From elsewhere the page needs web { url }.
func reachable(listenAddr string) string {
	host, port, err := net.SplitHostPort(listenAddr)
	if err != nil {
		return listenAddr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return listenAddr
}
