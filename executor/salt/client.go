package salt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/executor"
)

// renewBefore is how long before its announced expiry a salt-api token is replaced.
const renewBefore = time.Minute

// client speaks salt-api's rest_cherrypy interface: POST /login, POST / with lowstate,
// GET /jobs/<jid> and the GET /events stream. It keeps the session token and logs in again
// when it expires.
type client struct {
	base *url.URL
	http *http.Client
	// stream is http without its overall timeout, for /events, which stays open.
	stream   *http.Client
	username string
	password string
	eauth    string
	log      *slog.Logger
	now      func() time.Time

	mu     sync.Mutex
	token  string
	expire time.Time
	// logging is held while session logs in, so that requests sent at once (a dry run's
	// test.ping beside its state file's write) wait for one login instead of each making one.
	logging sync.Mutex
}

// errUnauthorized is salt-api's 401: the token is unknown or expired (or the login failed).
var errUnauthorized = errors.New("salt-api answered 401 Unauthorized")

// loginResponse is /login's answer.
type loginResponse struct {
	Return []struct {
		Token  string  `json:"token"`
		Expire float64 `json:"expire"`
		User   string  `json:"user"`
		EAuth  string  `json:"eauth"`
	} `json:"return"`
}

// login gets a new session token.
func (c *client) login(ctx context.Context) (string, error) {
	body := map[string]string{"username": c.username, "password": c.password, "eauth": c.eauth}
	var out loginResponse
	hdr, err := c.send(ctx, http.MethodPost, "/login", "", body, &out)
	if errors.Is(err, errUnauthorized) {
		return "", fmt.Errorf("logging in to salt-api as %s (eauth %s): the credentials were refused", c.username, c.eauth)
	}
	if err != nil {
		return "", fmt.Errorf("logging in to salt-api: %w", err)
	}
	token := hdr.Get("X-Auth-Token")
	var expire time.Time
	if len(out.Return) > 0 {
		if out.Return[0].Token != "" {
			token = out.Return[0].Token
		}
		if e := out.Return[0].Expire; e > 0 {
			expire = time.Unix(0, int64(e*float64(time.Second)))
		}
	}
	if token == "" {
		return "", errors.New("logging in to salt-api: the answer has no token")
	}
	c.mu.Lock()
	c.token, c.expire = token, expire
	c.mu.Unlock()
	c.log.Info("logged in to salt-api", "user", c.username, "eauth", c.eauth, "expires", expire)
	return token, nil
}

// session returns a token that is not about to expire, logging in if needed.
func (c *client) session(ctx context.Context) (string, error) {
	if token, ok := c.current(); ok {
		return token, nil
	}
	c.logging.Lock()
	defer c.logging.Unlock()
	if token, ok := c.current(); ok {
		return token, nil // another request logged in meanwhile
	}
	return c.login(ctx)
}

// relogin logs in again after salt-api refused stale, unless another request did so meanwhile:
// requests refused at once then share one new session.
func (c *client) relogin(ctx context.Context, stale string) (string, error) {
	c.logging.Lock()
	defer c.logging.Unlock()
	if token, ok := c.current(); ok && token != stale {
		return token, nil
	}
	return c.login(ctx)
}

// current returns the session token when there is one that is not about to expire.
func (c *client) current() (string, bool) {
	c.mu.Lock()
	token, expire := c.token, c.expire
	c.mu.Unlock()
	return token, token != "" && (expire.IsZero() || c.now().Add(renewBefore).Before(expire))
}

// call sends an authenticated request; on a 401 (the token expired early, or salt-api
// restarted and forgot it) it logs in once more and retries once.
func (c *client) call(ctx context.Context, method, path string, body, out any) error {
	token, err := c.session(ctx)
	if err != nil {
		return err
	}
	_, err = c.send(ctx, method, path, token, body, out)
	if !errors.Is(err, errUnauthorized) {
		return err
	}
	c.log.Info("salt-api refused the session token; logging in again")
	if token, err = c.relogin(ctx, token); err != nil {
		return err
	}
	_, err = c.send(ctx, method, path, token, body, out)
	return err
}

// lowstate runs lowstate chunks (POST /) and returns the "return" list, one entry per chunk.
func (c *client) lowstate(ctx context.Context, chunks ...map[string]any) ([]json.RawMessage, error) {
	var out struct {
		Return []json.RawMessage `json:"return"`
	}
	if err := c.call(ctx, http.MethodPost, "/", chunks, &out); err != nil {
		return nil, err
	}
	if len(out.Return) != len(chunks) {
		return nil, fmt.Errorf("salt-api returned %d results for %d commands", len(out.Return), len(chunks))
	}
	return out.Return, nil
}

// send does one HTTP request with a JSON body and decodes a JSON answer into out.
func (c *client) send(ctx context.Context, method, path, token string, body, out any) (http.Header, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encoding the request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	u := c.base.JoinPath(path)
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("X-Auth-Token", token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, heldTooLong(ctx, fmt.Errorf("%s %s: %w", method, u.Redacted(), err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, heldTooLong(ctx, fmt.Errorf("%s %s: reading the answer: %w", method, u.Redacted(), err))
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return nil, errUnauthorized
	case resp.StatusCode/100 != 2:
		return nil, answered(method, u, resp, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("%s %s: decoding the answer: %w", method, u.Redacted(), err)
		}
	}
	return resp.Header, nil
}

// heldTooLong marks the client's own timeout (HTTPTimeout) as transient: salt-api held the
// request, as it does while its master is away. The timeout wraps context.DeadlineExceeded,
// which executor.Transient takes for the caller's deadline, not a server's absence (even
// when marked), so only its text is kept.
func heldTooLong(ctx context.Context, err error) error {
	if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return executor.MarkTransient(errors.New(err.Error()))
	}
	return err
}

// statusError is salt-api's (or a proxy's) answer other than 2xx and 401.
type statusError struct {
	code         int
	status, body string
	msg          string
	// cherrypy says salt-api itself answered (its Server header or error page), not a
	// proxy in front of it.
	cherrypy bool
}

func (e *statusError) Error() string { return e.msg }

// answered is the error for an answer other than 2xx and 401. A 502, 503 or 504 is
// transient (executor.Transient): a proxy whose salt-api is restarting, or salt-api whose
// master is down ("Salt Master is not available.") or did not take the request in time.
func answered(method string, u *url.URL, resp *http.Response, data []byte) error {
	err := &statusError{code: resp.StatusCode, status: resp.Status, body: excerpt(data),
		msg:      fmt.Sprintf("%s %s: salt-api answered %s: %s", method, u.Redacted(), resp.Status, excerpt(data)),
		cherrypy: strings.HasPrefix(resp.Header.Get("Server"), "CherryPy") || bytes.Contains(data, []byte("CherryPy"))}
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return executor.MarkTransient(err)
	}
	return err
}

// excerpt shortens an error body for a message.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
