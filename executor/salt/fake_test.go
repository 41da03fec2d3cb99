package salt

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSaltAPI is a small salt-api (rest_cherrypy) that speaks the documented request and
// response shapes of exactly what the layer calls: POST /login, POST / with the wheel client's
// file_roots.write and the local_async client's state.apply, GET /jobs/<jid>, and, when
// streaming is set, the GET /events stream (fake_events_test.go). Minions are simulated by
// run, which decides each minion's return. Without a stream open when the job starts, a job
// reveals one more minion's return on each poll, as a real job fills in while minions finish;
// with one, a minion's return shows in /jobs once the stream has sent its return event.
type fakeSaltAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	user     string
	password string
	eauth    string
	tokens   map[string]bool
	logins   int
	// expireOnce makes the next authenticated request find its token expired.
	expireOnce bool
	// minions are the accepted minion keys; down ones never return.
	minions []string
	down    map[string]bool
	// files are the master's file_roots, written through the wheel client.
	files map[string]string
	run   func(minion, sls string, pillar map[string]any, test bool) any
	calls []applyCall
	// low, when set, is a minion's answer to state.show_low_sls of sls; without it every
	// minion answers with a render error.
	low func(minion, sls string) any
	// dataDirs and configGets: see configGet.
	dataDirs   map[string]any
	configGets []configGetCall
	// pings are the test.ping targets, "glob *" or "list node1,node2".
	pings []string
	jobs  map[string]*fakeJob
	jid   int
	// Faults (fake_faults_test.go): afterWrite runs once a state file was written, before
	// the answer is sent; lostSubmit, when it returns true, cuts the connection after a job was
	// published, before its answer; onPoll, when it returns true, cuts a GET /jobs/<jid>.
	// They are called with mu held.
	afterWrite func()
	lostSubmit func(jid string) bool
	onPoll     func(jid string) bool
	// masterDown makes salt-api answer 503 as it does while its master is down; holdJobs,
	// when set, holds each GET /jobs/<jid> until it is closed, as salt-api holds requests
	// while its master is away.
	masterDown bool
	holdJobs   chan struct{}
	// holdPing, when set, holds each test.ping's answer until it is closed (the minions
	// being slow to answer); a state.apply may come meanwhile. holdWrite holds each state
	// file's write the same way.
	holdPing, holdWrite chan struct{}
	// lostReturns are minions that run a job but whose return never reaches the master:
	// neither /jobs nor the stream ever shows it, and saltutil.find_job answers {}.
	lostReturns map[string]bool
	// The event stream: see fakeStream.
	fakeStream
}

// noResponse is how salt-api's local client answers for a minion that did not return.
const noResponse = "Minion did not return. [No response]\nThe minions may not have all finished running and any remaining minions will return upon completion."

// applyCall is one state.apply the fake received.
type applyCall struct {
	Tgt, TgtType, SLS, Text  string
	Pillar                   map[string]any
	Test, StateEvents, Queue bool
}

type fakeJob struct {
	minions []string
	returns map[string]any
	polls   int
	// released are the minions whose return /jobs shows; streamed says the event stream
	// releases them (else polls do).
	released map[string]bool
	streamed bool
	// stateEvents says the job asked for state events (an apply that reports progress); test
	// that it is a dry run.
	stateEvents, test bool
}

func newFakeSaltAPI(t *testing.T, minions ...string) *fakeSaltAPI {
	f := &fakeSaltAPI{t: t, user: "eos", password: "salt-pass-0123", eauth: "pam", tokens: map[string]bool{},
		minions: minions, down: map[string]bool{}, files: map[string]string{}, jobs: map[string]*fakeJob{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login", f.login)
	mux.HandleFunc("POST /{$}", f.lowstate)
	mux.HandleFunc("GET /jobs/{jid}", f.job)
	mux.HandleFunc("GET /events", f.events)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeSaltAPI) login(w http.ResponseWriter, r *http.Request) {
	var in struct{ Username, Password, Eauth string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unavailable(w) {
		return
	}
	if in.Username != f.user || in.Password != f.password || in.Eauth != f.eauth {
		http.Error(w, "401 Unauthorized: Could not authenticate using provided credentials", http.StatusUnauthorized)
		return
	}
	f.logins++
	token := fmt.Sprintf("tok-%d", f.logins)
	f.tokens[token] = true
	now := float64(time.Now().Unix())
	w.Header().Set("X-Auth-Token", token)
	writeJSON(w, map[string]any{"return": []any{map[string]any{
		"token": token, "expire": now + 43200, "start": now, "user": in.Username, "eauth": in.Eauth,
		"perms": []any{"state.apply", "@wheel", "@jobs"},
	}}})
}

// authorised checks X-Auth-Token; it must be called with f.mu held.
func (f *fakeSaltAPI) authorised(w http.ResponseWriter, r *http.Request) bool {
	if f.expireOnce {
		f.expireOnce = false
		clear(f.tokens)
	}
	if !f.tokens[r.Header.Get("X-Auth-Token")] {
		http.Error(w, "401 Unauthorized: No permission -- see authorization schemes", http.StatusUnauthorized)
		return false
	}
	return true
}

func (f *fakeSaltAPI) lowstate(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.authorised(w, r) {
		return
	}
	var chunks []map[string]any
	if err := json.NewDecoder(r.Body).Decode(&chunks); err != nil {
		http.Error(w, "lowstate must be a JSON list", http.StatusBadRequest)
		return
	}
	var out []any
	wrote, lost := false, false
	defer func() {
		if wrote && f.afterWrite != nil {
			f.afterWrite()
		}
		if lost {
			panic(http.ErrAbortHandler) // the connection breaks before the answer
		}
	}()
	for _, c := range chunks {
		switch {
		case c["client"] == "wheel" && c["fun"] == "file_roots.write":
			f.waitOn(f.holdWrite)
			p, _ := c["path"].(string)
			data, _ := c["data"].(string)
			if c["saltenv"] != "base" || p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
				out = append(out, map[string]any{"tag": "salt/wheel/1", "data": map[string]any{"return": "Invalid path", "success": true}})
				continue
			}
			f.files[p] = data
			wrote = true
			out = append(out, map[string]any{"tag": "salt/wheel/1", "data": map[string]any{
				"fun": "wheel.file_roots.write", "jid": "1", "return": "Wrote data to file /srv/salt/" + p, "success": true, "user": f.user,
			}})
		case c["client"] == "local" && c["fun"] == "test.ping":
			f.waitOn(f.holdPing)
			// Like salt-api 3006: true from every matched minion that answered, Salt's "did
			// not return" text for the others and for a list's IDs without a key; an empty
			// object when nothing matches.
			tgt, _ := c["tgt"].(string)
			tgtType, _ := c["tgt_type"].(string)
			answers := map[string]any{}
			for _, m := range f.match(tgt, tgtType) {
				answers[m] = true
				if f.down[m] {
					answers[m] = noResponse
				}
			}
			if tgtType == "list" {
				for _, m := range strings.Split(tgt, ",") {
					if _, ok := answers[m]; !ok {
						answers[m] = noResponse
					}
				}
			}
			f.pings = append(f.pings, tgtType+" "+tgt)
			out = append(out, answers)
		case c["client"] == "local" && c["fun"] == "state.show_low_sls":
			tgt, _ := c["tgt"].(string)
			tgtType, _ := c["tgt_type"].(string)
			args, _ := c["arg"].([]any)
			sls, _ := args[0].(string)
			answers := map[string]any{}
			for _, m := range f.match(tgt, tgtType) {
				answers[m] = []string{"Rendering SLS '" + sls + "' failed: the fake compiles nothing"}
				if f.low != nil {
					answers[m] = f.low(m, sls)
				}
			}
			out = append(out, answers)
		case c["client"] == "local" && c["fun"] == "config.get":
			out = append(out, f.configGet(c)) // datadir_test.go
		case c["client"] == "local" && c["fun"] == "saltutil.find_job":
			out = append(out, f.findJob(c))
		case c["client"] == "wheel" && c["fun"] == "key.list_all":
			out = append(out, map[string]any{"tag": "salt/wheel/2", "data": map[string]any{
				"fun": "wheel.key.list_all", "return": map[string]any{"minions": f.minions, "minions_pre": []string{}}, "success": true,
			}})
		case c["client"] == "local_async" && c["fun"] == "state.apply":
			started := f.startJob(c)
			if jid, _ := started.(map[string]any)["jid"].(string); jid != "" && f.lostSubmit != nil && f.lostSubmit(jid) {
				lost = true
				return
			}
			out = append(out, started)
		default:
			f.t.Errorf("the fake salt-api got an unexpected lowstate chunk %v", c)
			http.Error(w, "unsupported", http.StatusBadRequest)
			return
		}
	}
	writeJSON(w, map[string]any{"return": out})
}

func (f *fakeSaltAPI) startJob(c map[string]any) any {
	tgt, _ := c["tgt"].(string)
	tgtType, _ := c["tgt_type"].(string)
	args, _ := c["arg"].([]any)
	kwarg, _ := c["kwarg"].(map[string]any)
	if len(args) != 1 || kwarg == nil {
		f.t.Errorf("state.apply needs one sls argument and kwargs, got %v", c)
		return map[string]any{}
	}
	sls, _ := args[0].(string)
	pillar, _ := kwarg["pillar"].(map[string]any)
	test, _ := kwarg["test"].(bool)
	stateEvents, _ := kwarg["state_events"].(bool)
	queue, _ := kwarg["queue"].(bool)
	matched := f.match(tgt, tgtType)
	if len(matched) == 0 {
		return map[string]any{}
	}
	if strings.Contains(sls, ",") {
		return f.startCombined(c, sls, pillar, test, queue, matched)
	}
	text, found := f.files[strings.ReplaceAll(sls, ".", "/")+".sls"]
	f.calls = append(f.calls, applyCall{Tgt: tgt, TgtType: tgtType, SLS: sls, Text: text, Pillar: pillar, Test: test, StateEvents: stateEvents, Queue: queue})
	f.jid++
	jid := fmt.Sprintf("20240101000000%06d", f.jid)
	if passed, _ := c["jid"].(string); passed != "" {
		jid = passed // as local_cache.prep_jid: a passed jid is used as it is
	}
	j := &fakeJob{minions: matched, returns: map[string]any{}, released: map[string]bool{}, test: test}
	for _, m := range matched {
		switch {
		case f.down[m], f.lostReturns[m]:
		case !found:
			j.returns[m] = []any{fmt.Sprintf("No matching sls found for '%s' in env 'base'", sls)}
		default:
			j.returns[m] = f.run(m, sls, pillar, test)
		}
	}
	f.jobs[jid] = j
	f.publishJob(jid, j, c, stateEvents)
	return map[string]any{"jid": jid, "minions": matched}
}

// match lists the accepted minions a glob or list target names.
func (f *fakeSaltAPI) match(tgt, tgtType string) []string {
	var matched []string
	for _, m := range f.minions {
		switch tgtType {
		case "glob":
			if ok, _ := path.Match(tgt, m); ok {
				matched = append(matched, m)
			}
		case "list":
			for _, want := range strings.Split(tgt, ",") {
				if want == m {
					matched = append(matched, m)
				}
			}
		}
	}
	return matched
}

func (f *fakeSaltAPI) job(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.authorised(w, r) {
		return
	}
	j, ok := f.jobs[r.PathValue("jid")]
	if !ok {
		writeJSON(w, map[string]any{"info": []any{map[string]any{"jid": r.PathValue("jid"), "Error": "Cannot contact returner or no job with this jid", "Result": map[string]any{}}},
			"return": []any{map[string]any{}}})
		return
	}
	if f.onPoll != nil && f.onPoll(r.PathValue("jid")) {
		panic(http.ErrAbortHandler) // the connection breaks before the answer
	}
	if f.unavailable(w) {
		return
	}
	if hold := f.holdJobs; hold != nil {
		f.mu.Unlock()
		select {
		case <-hold:
		case <-r.Context().Done():
		}
		f.mu.Lock()
	}
	j.polls++
	var returned []string
	for _, m := range j.minions {
		if _, ok := j.returns[m]; ok {
			returned = append(returned, m)
		}
	}
	sort.Strings(returned)
	if !j.streamed {
		for _, m := range returned {
			if !j.released[m] {
				j.released[m] = true
				break
			}
		}
	}
	result, ret := map[string]any{}, map[string]any{}
	for _, m := range returned {
		if j.released[m] {
			result[m] = map[string]any{"return": j.returns[m]}
			ret[m] = j.returns[m]
		}
	}
	writeJSON(w, map[string]any{
		"info":   []any{map[string]any{"jid": r.PathValue("jid"), "Function": "state.apply", "Minions": j.minions, "Result": result}},
		"return": []any{ret},
	})
}

func (f *fakeSaltAPI) applyCalls() []applyCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]applyCall(nil), f.calls...)
}

// st builds one state's entry of a minion's return. result is true, false or nil.
func st(module, id, name, fun string, result any, changes map[string]any, comment string, run int) (string, any) {
	if changes == nil {
		changes = map[string]any{}
	}
	return module + "_|-" + id + "_|-" + name + "_|-" + fun, map[string]any{
		"result": result, "changes": changes, "comment": comment, "__run_num__": run,
		"name": name, "__id__": id, "duration": 1.5, "start_time": "10:00:00.000000",
	}
}

// states assembles a minion's return from st entries.
func states(entries ...func() (string, any)) map[string]any {
	out := map[string]any{}
	for _, e := range entries {
		k, v := e()
		out[k] = v
	}
	return out
}

// s wraps st for states().
func s(module, id, name, fun string, result any, changes map[string]any, comment string, run int) func() (string, any) {
	return func() (string, any) { return st(module, id, name, fun, result, changes, comment, run) }
}
