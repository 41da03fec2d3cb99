package mattermost

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A Mattermost server whose rate limiting is on (System Console → Rate Limiting) refuses a
// client that calls it too often with HTTP 429, saying when to try again (Retry-After, or
// X-Ratelimit-Reset in seconds). A burst of Eos's calls (the catch-up after a restart lists
// the posts and reactions of every open plan; a run edits its progress post as each layer
// advances) is slowed by waiting as told and calling again, not lost.

// rateLimitTries is how many times a refused call is made again.
const rateLimitTries = 3

// rateLimitMaxWait bounds one wait, whatever the server says.
const rateLimitMaxWait = 30 * time.Second

// retryRateLimited is an http.RoundTripper that makes a call the server refused for its rate
// (429) again after the wait the server names, up to rateLimitTries times, when its body can
// be sent again; the request's context ends a wait.
type retryRateLimited struct {
	base http.RoundTripper
}

func (t retryRateLimited) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := t.base.RoundTrip(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || attempt >= rateLimitTries ||
			req.Body != nil && req.GetBody == nil {
			return resp, err
		}
		wait := retryWait(resp.Header)
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		timer := time.NewTimer(wait)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
		again := req.Clone(req.Context())
		if req.GetBody != nil {
			if again.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		req = again
	}
}

// retryWait is how long a 429 answer asks to wait: Retry-After or X-Ratelimit-Reset (seconds),
// one second when it says neither, at most rateLimitMaxWait.
func retryWait(h http.Header) time.Duration {
	for _, name := range []string{"Retry-After", "X-Ratelimit-Reset"} {
		if s, err := strconv.Atoi(strings.TrimSpace(h.Get(name))); err == nil && s >= 0 {
			return min(time.Duration(s)*time.Second, rateLimitMaxWait)
		}
	}
	return time.Second
}
