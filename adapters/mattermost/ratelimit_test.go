package mattermost

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

// A server with rate limiting on answers a call made too often with 429 and Retry-After. The
// adapter's client waits as told and makes the call again, its body included, so an edit of a
// progress post in a burst lands instead of failing. (A stand-in for the server's one answer
// Eos must handle here; the rest of the adapter is tested against the real server.)
func TestARateLimitedCallIsMadeAgainWithItsBody(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls[r.URL.Path]++
		n := calls[r.URL.Path]
		if r.Method == http.MethodPut {
			bodies = append(bodies, string(body))
		}
		mu.Unlock()
		if n <= 2 { // refused twice, as a server over its rate
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"id":"api.context.rate_limit","status_code":429}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "p1", "message": "edited"})
	}))
	defer srv.Close()
	a, err := New(Config{URL: srv.URL, Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	post := adapters.PostRef{Platform: platform, Channel: "c1", ID: "p1"}
	if err := a.Edit(ctx, post, adapters.NewDoc(adapters.Text{Text: "Run 7f3a9c21 · Terraform ✅"})); err != nil {
		t.Fatalf("an edit refused twice for the rate: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 3 || bodies[0] == "" || bodies[2] != bodies[0] {
		t.Errorf("the edit was sent %d times with bodies %q, want 3 times the same", len(bodies), bodies)
	}
}
