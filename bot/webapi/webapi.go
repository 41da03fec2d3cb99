// Package webapi is what the status page (bot/web) and the engine share about the page: its
// configuration, and the secrets of sign-in links and sessions with the hash they are stored
// under. The page imports this, never the engine.
package webapi

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// WebConfig configures the status page's links and sign-in.
type WebConfig struct {
	// URL is the page's public address ("https://eos.example.org"). When set, every preview
	// links to its plan's page; empty, nothing in chat links to the page.
	URL string
	// SignInURL is the address `@eos web` links point at: URL when that is set, else the local
	// address the page is served on. Empty means the page is off, and `@eos web` says so.
	SignInURL string
	// LinkTTL is how long a sign-in link stays usable (default 5 minutes); it works once.
	LinkTTL time.Duration
	// SessionTTL is how long a signed-in session lasts (default 8 hours).
	SessionTTL time.Duration
}

// The defaults of WebConfig's lifetimes: a link is meant to be clicked at once, a session to
// last a working day.
const (
	DefaultLinkTTL    = 5 * time.Minute
	DefaultSessionTTL = 8 * time.Hour
)

// NewWebSecret makes a secret of 32 random bytes, as text for a URL or a cookie: a sign-in
// token here, a session or a form's value on the status page. crypto/rand never fails.
func NewWebSecret() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// WebTokenHash is the key a sign-in token or session secret is stored under: the hex SHA-256
// of its text. The status page hashes what a browser brings the same way.
func WebTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
