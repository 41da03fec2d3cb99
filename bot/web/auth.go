package web

import (
	"crypto/subtle"
	"errors"
	"github.com/eosbot/eos/bot/webapi"
	"net/http"
	"strings"

	"github.com/eosbot/eos/bot/store"
)

// Sign-in: `@eos web` sends a link /signin/TOKEN. Its GET only shows a button (chat platforms
// fetch links to unfurl them, which must not use the link up); the button POSTs the token,
// which is redeemed once and traded for a session cookie. Only hashes reach the store.

const (
	sessionCookie = "eos_session"
	// signinCookie holds the sign-in form's double-submit value between the GET and the POST.
	signinCookie = "eos_signin"
	// hostPrefix is the cookie-name prefix a browser keeps only on a cookie set by this very
	// host, Secure, with Path=/ and without Domain (RFC 6265bis, "__Host-").
	hostPrefix = "__Host-"
)

// cookieName is what the cookie called base is named on this page, for writing and for
// reading. On https it is prefixed __Host-: a sibling host (evil.example.com beside
// eos.example.com) can set a plain eos_session for the whole domain, and would sign a victim
// in as itself, or plant the sign-in form's value; a __Host- cookie it cannot set, and a
// plain one the page never reads. On plain http the name is plain: browsers refuse a
// __Host- cookie that is not Secure, and do not keep a Secure one from an http page (Chromium
// excepts only localhost). http is for loopback, which has no sibling host; anywhere else it
// protects nothing (anyone on the path reads the cookie), so serve the page on https.
func (s *server) cookieName(base string) string {
	if s.secureCookies() {
		return hostPrefix + base
	}
	return base
}

// setCookie sets (maxAge > 0) or clears (maxAge < 0) the cookie called base, with the
// attributes __Host- requires on https (Secure, Path=/, no Domain) on http too: one shape.
func (s *server) setCookie(w http.ResponseWriter, base, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: s.cookieName(base), Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(),
	})
}

// cookie is the value of the cookie called base, under this page's name for it only.
func (s *server) cookie(r *http.Request, base string) string {
	c, err := r.Cookie(s.cookieName(base))
	if err != nil {
		return ""
	}
	return c.Value
}

// hashSecret is how the store names a token or a session: lowercase hex SHA-256.
func hashSecret(secret string) string { return webapi.WebTokenHash(secret) }

// formToken is the value a signed-in page's forms carry: derived from the session cookie, so
// another site can neither read nor compute it.
func formToken(sessionID string) string { return hashSecret("eos-form\x00" + sessionID) }

func sameSecret(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

func (s *server) secureCookies() bool { return strings.HasPrefix(s.src.Web().URL, "https") }

// session returns the signed-in person of r and the session's cookie value, or ok false.
func (s *server) session(r *http.Request) (p store.WebPerson, id string, ok bool) {
	id = s.cookie(r, sessionCookie)
	if id == "" {
		return p, "", false
	}
	ws, err := s.st.WebSessionAt(r.Context(), hashSecret(id), s.now())
	if err != nil {
		return p, "", false
	}
	return ws.Person, id, true
}

// signInPage shows the button that uses the link; it changes nothing in the store.
func (s *server) signInPage(w http.ResponseWriter, r *http.Request) {
	double := webapi.NewWebSecret()
	s.setCookie(w, signinCookie, double, 600)
	s.render(w, r, http.StatusOK, "signin", nil, signInData{Token: r.PathValue("token"), Form: double})
}

type signInData struct{ Token, Form string }

// signIn redeems the posted link and starts a session.
func (s *server) signIn(w http.ResponseWriter, r *http.Request) {
	if !sameSecret(r.PostFormValue("form"), s.cookie(r, signinCookie)) {
		s.refuse(w, r, http.StatusForbidden, "This sign-in form did not come from this page. Open your link again.")
		return
	}
	s.setCookie(w, signinCookie, "", -1)
	now := s.now()
	link, err := s.st.RedeemWebLink(r.Context(), hashSecret(r.PostFormValue("token")), now)
	switch {
	case errors.Is(err, store.ErrLinkUsed):
		s.log.Info("status page: sign-in link refused", "reason", "used")
		s.refuse(w, r, http.StatusGone, "This sign-in link was used already: each link works once. Type @eos web in chat for a new one.")
		return
	case errors.Is(err, store.ErrLinkExpired):
		s.log.Info("status page: sign-in link refused", "reason", "expired")
		s.refuse(w, r, http.StatusGone, "This sign-in link has expired. Type @eos web in chat for a new one.")
		return
	case errors.Is(err, store.ErrNotFound):
		s.log.Info("status page: sign-in link refused", "reason", "unknown")
		s.refuse(w, r, http.StatusNotFound, "This is not a valid sign-in link. Type @eos web in chat for one.")
		return
	case err != nil:
		s.fail(w, r, "redeeming a sign-in link", err)
		return
	}
	ttl := s.src.Web().SessionTTL // the engine fills in its default
	id := webapi.NewWebSecret()
	ws := store.WebSession{Person: link.Person, Created: now, Expires: now.Add(ttl)}
	if err := s.st.AddWebSession(r.Context(), hashSecret(id), ws); err != nil {
		s.fail(w, r, "starting a session", err)
		return
	}
	s.setCookie(w, sessionCookie, id, int(ttl.Seconds()))
	s.log.Info("status page: signed in", "platform", link.Person.Platform, "user", link.Person.Name)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// signOut ends the session and forgets the cookie.
func (s *server) signOut(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.session(r)
	if !ok {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if !sameSecret(r.PostFormValue("form"), formToken(id)) {
		s.refuse(w, r, http.StatusForbidden, "This form did not come from this page, so nothing was done.")
		return
	}
	if err := s.st.EndWebSession(r.Context(), hashSecret(id)); err != nil {
		s.fail(w, r, "ending a session", err)
		return
	}
	s.setCookie(w, sessionCookie, "", -1)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// authed wraps a page: without a session it shows only how to sign in, with 401.
func (s *server) authed(h func(http.ResponseWriter, *http.Request, *viewer)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, id, ok := s.session(r)
		if !ok {
			s.render(w, r, http.StatusUnauthorized, "signedout", nil, nil)
			return
		}
		h(w, r, s.newViewer(r, p, id))
	}
}

// authedData wraps an endpoint that returns data only (events): 401 without a session.
func (s *server) authedData(h func(http.ResponseWriter, *http.Request, *viewer)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, id, ok := s.session(r)
		if !ok {
			http.Error(w, "sign in first: type @eos web in chat", http.StatusUnauthorized)
			return
		}
		h(w, r, s.newViewer(r, p, id))
	}
}
