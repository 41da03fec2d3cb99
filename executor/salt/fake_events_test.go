package salt

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"time"
)

// fakeStream is the fake salt-api's GET /events, rest_cherrypy's Server-Sent-Events view of
// the master's bus. It answers with "retry: 400" first, then each event as
//
//	tag: <tag>
//	data: {"tag": <tag>, "data": {...}}
//
// A stream open when a job starts gets that job's events in the documented shapes: the new
// event, then per minion (in name order) a progress event per state in run order when the
// apply asked for state_events (salt/job/<jid>/prog/<minion>/<run>, the state's return
// without module and function, as Salt's State.event fires it) and the minion's return event
// (salt/job/<jid>/ret/<minion>). Other events (salt/auth, another job's progress) come first;
// the layer must ignore them. Down minions send nothing.
type fakeStream struct {
	// streaming serves /events; without it /events is a 404, as behind a proxy blocking it.
	streaming bool
	// eventsStatus, when set, is what /events answers instead of a stream.
	eventsStatus int
	// expireEvents makes the next /events request find its token expired.
	expireEvents bool
	// dropAfter aborts a stream once it has sent that many of a job's events.
	dropAfter int
	// dropRets leaves return events out of the stream (the returns still show in /jobs).
	dropRets bool
	// bareRets sends return events without the return, which then shows only in /jobs.
	bareRets bool
	// forgeFrom, when set, names a minion that fires a forged return event for every other
	// minion of each job before the real ones come (event.fire_master with a job's tag):
	// once in the single-tag shape the master fires with the sender's own id, once in the
	// events shape whose data the sender writes whole, claiming cmd _return and the other's
	// id but with a jid of another job.
	forgeFrom string
	// reverseRets sends the minions' return events in reverse name order.
	reverseRets bool
	// beforeReturn, when set, holds each return event of a job that asked for state events
	// (an apply) until it is closed.
	beforeReturn chan struct{}
	// cacheAhead shows every minion's return in /jobs as soon as the first return event is
	// sent, as when the master's job cache is ahead of a busy stream.
	cacheAhead bool
	// opened counts the streams opened.
	opened int
	subs   []chan fakeEvent
}

// fakeEvent is one event on the fake bus. job is set for the events of a job the layer
// started; minion for a return event, which releases the minion's return in /jobs.
type fakeEvent struct {
	tag    string
	data   map[string]any
	job    *fakeJob
	minion string
}

func (f *fakeSaltAPI) events(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if !f.streaming {
		f.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	if f.expireEvents {
		f.expireEvents = false
		clear(f.tokens)
	}
	token := r.Header.Get("X-Auth-Token")
	if token == "" {
		token = r.URL.Query().Get("token")
	}
	if !f.tokens[token] {
		f.mu.Unlock()
		http.Error(w, "401 Unauthorized", http.StatusUnauthorized)
		return
	}
	if st := f.eventsStatus; st != 0 {
		f.mu.Unlock()
		http.Error(w, http.StatusText(st), st)
		return
	}
	ch := make(chan fakeEvent, 1024)
	f.subs = append(f.subs, ch)
	f.opened++
	dropAfter, dropRets, hold, ahead, bare := f.dropAfter, f.dropRets, f.beforeReturn, f.cacheAhead, f.bareRets
	f.mu.Unlock()
	defer f.unsubscribe(ch)

	w.Header().Set("Content-Type", "text/event-stream;charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Connection", "keep-alive")
	flush := w.(http.Flusher).Flush
	fmt.Fprint(w, "retry: 400\n\n")
	flush()
	sent := 0
	for {
		var ev fakeEvent
		select {
		case <-r.Context().Done():
			return
		case ev = <-ch:
		}
		if ev.job != nil && dropAfter > 0 && sent == dropAfter {
			f.mu.Lock()
			ev.job.streamed = false
			f.mu.Unlock()
			panic(http.ErrAbortHandler) // the connection breaks mid-stream
		}
		if ev.minion != "" {
			if hold != nil && ev.job.stateEvents {
				select {
				case <-hold:
				case <-r.Context().Done():
					f.mu.Lock()
					ev.job.streamed = false // the held return is left to polls
					f.mu.Unlock()
					return
				}
			}
			f.mu.Lock()
			ev.job.released[ev.minion] = true
			if ahead {
				for m := range ev.job.returns {
					ev.job.released[m] = true
				}
			}
			f.mu.Unlock()
			if dropRets {
				continue
			}
			if bare {
				ev.data = maps.Clone(ev.data)
				delete(ev.data, "return")
			}
		}
		b, err := json.Marshal(map[string]any{"tag": ev.tag, "data": ev.data})
		if err != nil {
			f.t.Errorf("encoding event %s: %v", ev.tag, err)
			return
		}
		fmt.Fprintf(w, "tag: %s\ndata: %s\n\n", ev.tag, b)
		flush()
		if ev.job != nil {
			sent++
		}
	}
}

// unsubscribe forgets a stream; jobs whose events it did not deliver fall back to polls,
// unless another stream is still open to deliver them (a plan's stream ending while the
// apply's is open).
func (f *fakeSaltAPI) unsubscribe(ch chan fakeEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = slices.DeleteFunc(f.subs, func(c chan fakeEvent) bool { return c == ch })
	for {
		select {
		case ev := <-ch:
			if ev.job != nil && len(f.subs) == 0 {
				ev.job.streamed = false
			}
		default:
			return
		}
	}
}

// publishJob sends a job's events to the open streams; it must be called with f.mu held.
func (f *fakeSaltAPI) publishJob(jid string, j *fakeJob, c map[string]any, stateEvents bool) {
	if len(f.subs) == 0 {
		return
	}
	j.streamed, j.stateEvents = true, stateEvents
	stamp := time.Now().UTC().Format("2006-01-02T15:04:05.000000")
	minions := slices.Sorted(slices.Values(j.minions))
	other := "20231231235959000001"
	evs := []fakeEvent{
		{tag: "salt/auth", data: map[string]any{"_stamp": stamp, "act": "pend", "id": "node9", "result": true}},
		{tag: "salt/job/" + other + "/prog/node1/0", data: map[string]any{"_stamp": stamp, "cmd": "_minion_event", "id": "node1", "jid": other,
			"data": map[string]any{"len": 1, "ret": map[string]any{"__id__": "intruder", "name": "intruder", "result": true, "changes": map[string]any{}, "comment": "", "__run_num__": 0}}}},
		{tag: "salt/job/" + jid + "/new", job: j, data: map[string]any{"_stamp": stamp, "jid": jid, "tgt": c["tgt"], "tgt_type": c["tgt_type"],
			"fun": "state.apply", "arg": c["arg"], "minions": minions, "user": f.user}},
	}
	for _, m := range minions {
		if f.forgeFrom == "" || m == f.forgeFrom {
			continue
		}
		tag := "salt/job/" + jid + "/ret/" + m
		forged := map[string]any{}
		evs = append(evs,
			fakeEvent{tag: tag, data: map[string]any{"_stamp": stamp, "cmd": "_minion_event", "id": f.forgeFrom, "tag": tag,
				"data": map[string]any{}, "return": forged, "jid": jid}},
			fakeEvent{tag: tag, data: map[string]any{"_stamp": stamp, "cmd": "_return", "id": m, "jid": "20231231235959000002",
				"fun": "state.apply", "return": forged, "retcode": 0, "success": true}})
	}
	if f.reverseRets {
		minions = slices.Clone(minions)
		slices.Reverse(minions)
	}
	for _, m := range minions {
		ret, ok := j.returns[m]
		if !ok {
			continue
		}
		if sts, ok := ret.(map[string]any); ok && stateEvents {
			evs = append(evs, progEvents(jid, m, sts, j, stamp)...)
		}
		tag := "salt/job/" + jid + "/ret/" + m
		evs = append(evs, fakeEvent{tag: tag, job: j, minion: m, data: map[string]any{"_stamp": stamp, "cmd": "_return",
			"fun": "state.apply", "fun_args": c["arg"], "id": m, "jid": jid, "out": "highstate", "retcode": 0, "return": ret, "success": true}})
	}
	for _, ch := range f.subs {
		for _, ev := range evs {
			ch <- ev
		}
	}
}

// progEvents are a minion's state progress events, in run order.
func progEvents(jid, minion string, sts map[string]any, j *fakeJob, stamp string) []fakeEvent {
	type entry struct {
		run int
		st  map[string]any
	}
	var entries []entry
	for _, v := range sts {
		st := v.(map[string]any)
		entries = append(entries, entry{st["__run_num__"].(int), st})
	}
	sort.Slice(entries, func(a, b int) bool { return entries[a].run < entries[b].run })
	var out []fakeEvent
	for _, e := range entries {
		ret := map[string]any{"__sls__": "eos.lvm"}
		for k, v := range e.st {
			ret[k] = v
		}
		tag := fmt.Sprintf("salt/job/%s/prog/%s/%d", jid, minion, e.run)
		out = append(out, fakeEvent{tag: tag, job: j, data: map[string]any{"_stamp": stamp, "cmd": "_minion_event", "id": minion,
			"jid": jid, "pretag": nil, "tag": tag, "data": map[string]any{"ret": ret, "len": len(entries)}}})
	}
	return out
}
