package salt

import (
	"net"
	"net/http"
	"sync"
	"testing"
)

// The fake salt-api's faults of restarts: a front that goes away and comes back, salt-api's
// answer while its master is down, and saltutil.find_job, which tells a running job from one
// whose return was lost.

// apiFront serves the fake salt-api on an address of its own that can go away and come back
// as a restarted salt-api does: stopped, it refuses connections and cuts the open ones (the
// event stream too); started again on the same address, it knows none of the tokens it gave
// before, so the layer's token gets a 401. It closes each connection after its answer, so
// every request dials anew and meets a stopped front as a refused connection.
type apiFront struct {
	t    *testing.T
	f    *fakeSaltAPI
	addr string

	mu  sync.Mutex
	ln  net.Listener
	srv *http.Server
}

func newAPIFront(t *testing.T, f *fakeSaltAPI) *apiFront {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := &apiFront{t: t, f: f, addr: ln.Addr().String()}
	a.serve(ln)
	t.Cleanup(a.stop)
	return a
}

func (a *apiFront) url() string { return "http://" + a.addr }

func (a *apiFront) serve(ln net.Listener) {
	srv := &http.Server{Handler: a.f.srv.Config.Handler}
	srv.SetKeepAlivesEnabled(false)
	a.mu.Lock()
	a.ln, a.srv = ln, srv
	a.mu.Unlock()
	go srv.Serve(ln)
}

// refuse closes the listener only: new connections are refused, the answer under way is sent.
func (a *apiFront) refuse() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ln != nil {
		a.ln.Close()
	}
}

// stop refuses connections and cuts the open ones.
func (a *apiFront) stop() {
	a.mu.Lock()
	srv := a.srv
	a.srv, a.ln = nil, nil
	a.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// start listens again on the same address, as a salt-api that forgot its tokens. f.mu must
// not be held.
func (a *apiFront) start() {
	a.stop()
	ln, err := net.Listen("tcp", a.addr)
	if err != nil {
		a.t.Errorf("listening again on %s: %v", a.addr, err)
		return
	}
	a.f.mu.Lock()
	clear(a.f.tokens)
	a.f.mu.Unlock()
	a.serve(ln)
}

// unavailable answers as salt-api (CherryPy) does while its master is down; it must be
// called with f.mu held.
func (f *fakeSaltAPI) unavailable(w http.ResponseWriter) bool {
	if !f.masterDown {
		return false
	}
	w.Header().Set("Server", "CherryPy/18.8.0")
	http.Error(w, "Salt Master is not available.", http.StatusServiceUnavailable)
	return true
}

// findJob answers saltutil.find_job as minions do: the job's data from a minion still
// running it (its return not out yet), {} from one that is not, nothing from a down one.
func (f *fakeSaltAPI) findJob(c map[string]any) any {
	tgt, _ := c["tgt"].(string)
	tgtType, _ := c["tgt_type"].(string)
	args, _ := c["arg"].([]any)
	jid, _ := args[0].(string)
	answers := map[string]any{}
	j := f.jobs[jid]
	for _, m := range f.match(tgt, tgtType) {
		switch {
		case f.down[m]:
			answers[m] = noResponse
		case j != nil && !f.lostReturns[m] && !j.released[m]:
			answers[m] = map[string]any{"jid": jid, "fun": "state.apply", "pid": 4242}
		default:
			answers[m] = map[string]any{}
		}
	}
	return answers
}
