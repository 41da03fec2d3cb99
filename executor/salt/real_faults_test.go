package salt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// Faults of the real Salt: a minion that is down, a token that expired, an event stream that
// drops while a job runs.

func TestRealUnreachableMinionFailsThePlan(t *testing.T) {
	r := needSalt(t)
	// A minion of its own, so that tests of other packages using the shared one go on.
	const down = "eos-down"
	l := r.layer(t, nil, func(c *Config) { c.Targets = []string{"eos-down*"} })
	dir := r.dir(t)
	r.minionCmd(t, "start", down)
	t.Cleanup(func() { r.forget(t, l, down) })
	r.waitMinion(t, l, down)
	r.minionCmd(t, "stop", down)
	start := time.Now()
	_, err := l.Plan(context.Background(), fileSpec("down", dir, 1, ""))
	if err == nil || !strings.Contains(err.Error(), "minion "+down+" did not answer test.ping within 5s (targets glob \"eos-down*\"); nothing was run") {
		t.Fatalf("Plan with the minion stopped = %v, want it named", err)
	}
	if took := time.Since(start); took > time.Minute {
		t.Errorf("the plan took %s to notice", took)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("something ran: %v", entries)
	}
}

func TestRealExpiredTokenLogsInAgain(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	// A token of one second (the master allows a login to ask for a shorter lifetime), which
	// the layer believes is good for an hour: salt-api's 401 must make it log in again.
	body, _ := json.Marshal(map[string]any{"username": r.user, "password": r.password, "eauth": r.eauth, "token_expire": 1})
	resp, err := http.Post(r.url+"/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out loginResponse
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if err != nil || len(out.Return) == 0 || out.Return[0].Token == "" {
		t.Fatalf("short login: %v %+v", err, out)
	}
	short := out.Return[0].Token
	l.api.token, l.api.expire = short, time.Now().Add(time.Hour)
	deadline := time.Now().Add(30 * time.Second)
	for status := 0; status != http.StatusUnauthorized; {
		req, _ := http.NewRequest(http.MethodGet, r.url+"/jobs", nil)
		req.Header.Set("X-Auth-Token", short)
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if status = resp.StatusCode; time.Now().After(deadline) {
			t.Fatalf("the one-second token still answers %d after 30s", status)
		}
		time.Sleep(100 * time.Millisecond) // poll interval
	}
	spec := fileSpec("token", r.dir(t), 1, "")
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan with an expired token: %v", err)
	}
	if l.api.token == short {
		t.Error("the layer kept the expired token")
	}
	// The apply follows /events with the new token too.
	if _, err := l.Apply(context.Background(), spec, p, executor.Observe(nil, nil)); err != nil {
		t.Fatalf("Apply after logging in again: %v", err)
	}
}

// dropProxy forwards to salt-api, but cuts every /events stream right after the first state
// progress event (the blank line that ends it) of the job that runs an sls starting with sls.
func dropProxy(t *testing.T, target, sls string) *httptest.Server {
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/events" {
			rp.ServeHTTP(w, req)
			return
		}
		up, _ := http.NewRequestWithContext(req.Context(), http.MethodGet, target+"/events", nil)
		up.Header = req.Header.Clone()
		resp, err := http.DefaultClient.Do(up)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		rd := bufio.NewReader(resp.Body)
		prog, jid := false, ""
		for {
			line, err := rd.ReadString('\n')
			io.WriteString(w, line)
			w.(http.Flusher).Flush()
			// Only the job of the unit's own state counts: tests of other packages may
			// apply states on the same master meanwhile, whose progress passes here too.
			if m := newJob.FindStringSubmatch(line); m != nil && jid == "" && strings.Contains(line, sls) {
				jid = m[1]
			}
			prog = prog || jid != "" && strings.Contains(line, "salt/job/"+jid+"/prog/")
			if err != nil || prog && strings.TrimSpace(line) == "" {
				return // the connection ends mid-job, after a whole progress event
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newJob finds a job's jid in its new event.
var newJob = regexp.MustCompile(`salt/job/(\d+)/new`)

func TestRealStreamDroppingMidApplyFallsBackToJobs(t *testing.T) {
	r := needSalt(t)
	proxy := dropProxy(t, r.url, "eos.drop_")
	logs := &syncBuffer{}
	l := r.layer(t, logs, func(c *Config) { c.URL = proxy.URL })
	dir := r.dir(t)
	spec := fileSpec("drop", dir, 1, `settle:
  cmd.run:
    - name: sleep 2
`)
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	rec := &recorder{}
	res, err := l.Apply(context.Background(), spec, p, executor.Observe(rec.report, nil))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got := len(rec.all()); got != 3 || res.Done != 3 || !strings.Contains(logs.String(), "event stream ended") {
		t.Errorf("%d events, result %+v; want all 3 states reported after the stream ended; logs:\n%s", got, res, logs.String())
	}
	if !strings.Contains(logs.String(), "streamed=1") {
		t.Errorf("want exactly one state from the stream before it dropped; logs:\n%s", logs.String())
	}
}

func TestRealMinionJoiningAfterThePlanIsNotConfigured(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, func(c *Config) { c.Targets = []string{"eos-minion*"} })
	dir := r.dir(t)
	spec := fileSpec("join", dir, 1, "")
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if !strings.HasPrefix(p.Summary, "targets eos-minion* = "+r.minion+"; ") {
		t.Errorf("summary %q, want the glob resolved to %s", p.Summary, r.minion)
	}
	const second = "eos-minion-joined"
	r.minionCmd(t, "start", second)
	t.Cleanup(func() { r.forget(t, l, second) })
	r.waitMinion(t, l, second)
	rec := &recorder{}
	res, err := l.Apply(context.Background(), spec, p, executor.Observe(rec.report, nil))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if !strings.HasSuffix(res.Summary, "; "+second+" joined since the plan, not configured (plan again to include it)") ||
		!strings.HasPrefix(res.Summary, "2 states on "+r.minion+", ") {
		t.Errorf("summary %q, want the states on %s only and %s reported", res.Summary, r.minion, second)
	}
	if ev := rec.all(); len(ev) != 3 || ev[0].Resource != second {
		t.Errorf("events %+v, want %s's notice and two states", ev, second)
	}
}

// Two runs on one minion at once: the second waits for the first (queue=True) instead of
// failing with "The function "state.apply" is running as PID …".
func TestRealConcurrentRunsOnOneMinionQueue(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	specs := []executor.Spec{
		fileSpec("first", r.dir(t), 1, "slow:\n  cmd.run:\n    - name: sleep 3\n"),
		fileSpec("second", r.dir(t), 2, "slow:\n  cmd.run:\n    - name: sleep 3\n"),
	}
	errs := make(chan error, len(specs))
	for _, spec := range specs {
		go func() {
			p, err := l.Plan(context.Background(), spec)
			if err == nil {
				_, err = l.Apply(context.Background(), spec, p, executor.Observe(nil, nil))
			}
			errs <- err
		}()
	}
	for range specs {
		if err := <-errs; err != nil {
			t.Errorf("a concurrent run failed: %v", err)
		}
	}
}
