package web

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/store"
)

// Sign-in: `@eos web` sends a link /signin/TOKEN. Its GET only shows a button (chat platforms
// fetch links to unfurl them, which must not use the link up); the button POSTs the token,
// which is redeemed once and traded for a session cookie. Only hashes reach the store.

const (
	sessionCookie = "eos_session"
	// signinCookie holds the sign-in form's double-submit value between the GET and the POST.
	signinCookie = "eos_signin"
)

// hashSecret is how the store names a token or a session: lowercase hex SHA-256.
func hashSecret(secret string) string { return bot.WebTokenHash(secret) }

// formToken is the value a signed-in page's forms carry: derived from the session cookie, so
// another site can neither read nor compute it.
func formToken(sessionID string) string { return hashSecret("eos-form\x00" + sessionID) }

func sameSecret(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

func (s *server) secureCookies() bool { return strings.HasPrefix(s.src.Web().URL, "https") }

// session returns the signed-in person of r and the session's cookie value, or ok false.
func (s *server) session(r *http.Request) (p store.WebPerson, id string, ok bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return p, "", false
	}
	ws, err := s.st.WebSessionAt(hashSecret(c.Value), s.now())
	if err != nil {
		return p, "", false
	}
	return ws.Person, c.Value, true
}

// signInPage shows the button that uses the link; it changes nothing in the store.
func (s *server) signInPage(w http.ResponseWriter, r *http.Request) {
	double := bot.NewWebSecret()
	http.SetCookie(w, &http.Cookie{
		Name: signinCookie, Value: double, Path: "/signin", MaxAge: 600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(),
	})
	s.render(w, r, http.StatusOK, "signin", nil, signInData{Token: r.PathValue("token"), Form: double})
}

type signInData struct{ Token, Form string }

// signIn redeems the posted link and starts a session.
func (s *server) signIn(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie(signinCookie)
	if err != nil || !sameSecret(r.PostFormValue("form"), c.Value) {
		s.refuse(w, r, http.StatusForbidden, "This sign-in form did not come from this page. Open your link again.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: signinCookie, Path: "/signin", MaxAge: -1})
	now := s.now()
	link, err := s.st.RedeemWebLink(hashSecret(r.PostFormValue("token")), now)
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
	id := bot.NewWebSecret()
	ws := store.WebSession{Person: link.Person, Created: now, Expires: now.Add(ttl)}
	if err := s.st.AddWebSession(hashSecret(id), ws); err != nil {
		s.fail(w, r, "starting a session", err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: id, Path: "/", MaxAge: int(ttl.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(),
	})
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
	if err := s.st.EndWebSession(hashSecret(id)); err != nil {
		s.fail(w, r, "ending a session", err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Path: "/", MaxAge: -1})
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
