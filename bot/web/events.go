package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// Server-sent events keep the run and locks pages live. Each event's data is a patch: HTML
// fragments (rendered by the same templates as the page) that replace elements by id, texts
// that replace their contents, and output lines to append. The first event of a stream is
// the whole current state, so a reconnecting browser is right again at once.

type patch struct {
	HTML  map[string]string `json:"html,omitempty"`
	Text  map[string]string `json:"text,omitempty"`
	Lines []string          `json:"lines,omitempty"`
}

// stream writes events to one client.
type stream struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func startStream(w http.ResponseWriter) *stream {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &stream{w: w, rc: http.NewResponseController(w)}
	s.rc.Flush()
	return s
}

func (s *stream) send(event string, p patch) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", event, data); err != nil {
		return err
	}
	return s.rc.Flush()
}

func (s *server) fragment(page, name string, data any) string {
	var b bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("status page: rendering a fragment", "fragment", name, "err", err)
	}
	return b.String()
}

func (s *server) runPatch(rp runProgress, r *store.Run, lines []string, all bool) patch {
	p := patch{
		HTML:  map[string]string{"layers": s.fragment("run", "layer-rows", rp.Rows)},
		Text:  map[string]string{"run-state": rp.State, "run-finished": when(r.Finished)},
		Lines: lines,
	}
	if all {
		p.HTML["log"] = s.fragment("run", "log-lines", rp.Lines)
		p.Lines = nil
	}
	return p
}

// stillSignedIn reports whether the session that opened a stream is still valid.
func (s *server) stillSignedIn(r *http.Request) bool {
	_, _, ok := s.session(r)
	return ok
}

// runEvents streams run id: the engine's live updates when this process runs it, and the
// store's run record, read every PollEvery, for what happens elsewhere. It ends with a
// "finished" event when the run ends.
func (s *server) runEvents(w http.ResponseWriter, r *http.Request, v *viewer) {
	id := r.PathValue("id")
	run, err := s.st.Run(r.Context(), id)
	if err != nil || !v.planID(id) {
		http.Error(w, "no such run", http.StatusNotFound)
		return
	}
	p, _ := s.st.Plan(r.Context(), id)
	past, live, stop := s.src.Watch(id)
	defer stop()
	rp := progressOf(run, p)
	// Without a past here the run is another replica's (or ended a while ago): its output
	// comes from the store, read on at every tick.
	fromStore := len(past) == 0
	if fromStore {
		rp.addStored(s.storedOutput(r.Context(), id, 0))
	}
	for _, u := range past {
		rp.apply(u)
	}
	out := startStream(w)
	if run.State != store.RunRunning {
		out.send("finished", s.runPatch(progressOf(run, p), run, nil, false))
		return
	}
	if out.send("update", s.runPatch(rp, run, nil, true)) != nil {
		return
	}
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case u, ok := <-live:
			if !ok {
				live = nil // closed: the store says how it ended
				continue
			}
			n := len(rp.Lines)
			rp.apply(u)
			if u.Finished {
				if now, err := s.st.Run(r.Context(), id); err == nil && now.State != store.RunRunning {
					out.send("finished", s.runPatch(mergeProgress(rp, progressOf(now, p)), now, rp.Lines[n:], false))
					return
				}
				continue // not final in the store yet: the next poll sends it
			}
			if out.send("update", s.runPatch(rp, run, rp.Lines[n:], false)) != nil {
				return
			}
		case <-tick.C:
			if !s.stillSignedIn(r) {
				out.send("signedout", patch{})
				return
			}
			if v.forget(); !v.planID(id) {
				out.send("hidden", patch{})
				return
			}
			now, err := s.st.Run(r.Context(), id)
			if err != nil {
				continue
			}
			var fresh []string
			if fromStore {
				n := len(rp.Lines)
				rp.addStored(s.storedOutput(r.Context(), id, n))
				fresh = rp.Lines[n:]
			}
			if now.State == run.State && reflect.DeepEqual(now.Layers, run.Layers) {
				if len(fresh) > 0 && out.send("update", s.runPatch(rp, run, fresh, false)) != nil {
					return
				}
				continue
			}
			run = now
			rp = mergeProgress(rp, progressOf(now, p))
			event := "update"
			if now.State != store.RunRunning {
				event = "finished"
			}
			if out.send(event, s.runPatch(rp, now, fresh, false)) != nil || event == "finished" {
				return
			}
		}
	}
}

// mergeProgress takes the store's rows, except where the live updates know more: a layer
// the store still shows waiting or running but live updates saw further along.
func mergeProgress(live, stored runProgress) runProgress {
	stored.Lines = live.Lines
	for i, row := range stored.Rows {
		for _, l := range live.Rows {
			if l.Layer == row.Layer && (row.Status == "waiting" || row.Status == "running") && l.Done >= row.Done && l.Status != "waiting" {
				stored.Rows[i] = l
			}
		}
	}
	return stored
}

// lockEvents streams the locks the person may see, whenever they change.
func (s *server) lockEvents(w http.ResponseWriter, r *http.Request, v *viewer) {
	s.pollEvents(w, r, v, "locks", func() (string, error) {
		rows, err := s.visibleLocks(v)
		return s.fragment("locks", "lock-rows", rows), err
	})
}

// overviewEvents keeps the overview live: a plan asked for, a run starting or ending, a lock
// taken, a service drifting show up without a reload.
func (s *server) overviewEvents(w http.ResponseWriter, r *http.Request, v *viewer) {
	s.pollEvents(w, r, v, "overview", func() (string, error) {
		d, _, err := s.overviewOf(v)
		return s.fragment("overview", "overview-body", d), err
	})
}

// pollEvents reads render every PollEvery and sends its HTML as the new content of the
// element id whenever it changed, until the client goes or its session ends.
func (s *server) pollEvents(w http.ResponseWriter, r *http.Request, v *viewer, id string, render func() (string, error)) {
	out := startStream(w)
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	last := "\x00"
	for {
		if html, err := render(); err == nil && html != last {
			if out.send("update", patch{HTML: map[string]string{id: html}}) != nil {
				return
			}
			last = html
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if !s.stillSignedIn(r) {
				out.send("signedout", patch{})
				return
			}
			v.forget()
		}
	}
}

// storedOutput is run id's output in the store from line from on; a failure to read it is
// logged and shows as no more lines.
func (s *server) storedOutput(ctx context.Context, id string, from int) []store.OutputLine {
	lines, err := s.st.Output(ctx, id, from)
	if err != nil {
		s.log.Error("status page: reading a run's output", "run", id, "err", err)
	}
	return lines
}
