package web

import (
	"bufio"
	"context"
	"encoding/json"
	"github.com/eosbot/eos/bot/runwatch"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

type sseEvent struct {
	name string
	p    patch
}

// events opens path as an event stream and returns its events as they come.
func (f *fixture) events(c *http.Client, path string) <-chan sseEvent {
	f.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+path, nil)
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		f.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan sseEvent, 100)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.p)
			case line == "":
				out <- ev
				ev = sseEvent{}
			}
		}
	}()
	return out
}

// await returns the first event for which ok is true, failing after 10 seconds.
func await(t *testing.T, evs <-chan sseEvent, what string, ok func(sseEvent) bool) sseEvent {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, open := <-evs:
			if !open {
				t.Fatalf("the stream ended before %s", what)
			}
			if ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no event: %s", what)
		}
	}
}

func TestARunStreamsLiveUpdatesThenItsEnd(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	f.src.runHere(p.ID)
	f.src.publish(p.ID, runwatch.RunUpdate{Line: "before the page opened", Layer: executor.Salt})
	evs := f.events(f.signedIn(), "/runs/7f3a9c21/events")

	first := await(t, evs, "the run's state so far", func(e sseEvent) bool { return e.name == "update" })
	if !strings.Contains(first.p.HTML["log"], "Salt: before the page opened") || !strings.Contains(first.p.HTML["layers"], `data-layer="terraform"`) {
		t.Errorf("the first event is not the whole state: %+v", first.p)
	}
	f.src.publish(p.ID, runwatch.RunUpdate{Event: executor.Event{Layer: executor.Terraform, Resource: "terraform_data.server", Message: "creating", Done: 1, Total: 3}})
	await(t, evs, "Terraform at 1/3", func(e sseEvent) bool {
		return strings.Contains(e.p.HTML["layers"], `<progress value="1" max="3" aria-label="Terraform progress">`)
	})
	f.src.publish(p.ID, runwatch.RunUpdate{Line: "terraform_data.server: Creation complete", Layer: executor.Terraform})
	await(t, evs, "a line of output", func(e sseEvent) bool {
		return len(e.p.Lines) == 1 && e.p.Lines[0] == "Terraform: terraform_data.server: Creation complete"
	})
	if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunDone, []executor.LayerResult{
		{Layer: executor.Salt, Status: executor.ResultSkipped}, {Layer: executor.Terraform, Status: executor.ResultOK, Done: 3, Total: 3},
		{Layer: executor.Nomad, Status: executor.ResultOK, Done: 1, Total: 1}}, t0, nil); err != nil {
		t.Fatal(err)
	}
	f.src.publish(p.ID, runwatch.RunUpdate{Finished: true})
	end := await(t, evs, "finished", func(e sseEvent) bool { return e.name == "finished" })
	if end.p.Text["run-state"] != "done" || !strings.Contains(end.p.HTML["layers"], `<progress value="3" max="3"`) {
		t.Errorf("the last event is not the stored outcome: %+v", end.p)
	}
}

// A run in another process: Watch gives nothing, so the stream follows the store.
func TestARunElsewhereStreamsFromTheStore(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	evs := f.events(f.signedIn(), "/runs/7f3a9c21/events")
	await(t, evs, "the run's state so far", func(e sseEvent) bool { return e.name == "update" })
	if _, err := f.st.UpdateRun(context.Background(), p.ID, func(r *store.Run) error {
		r.Layers = []executor.LayerResult{{Layer: executor.Salt, Status: executor.ResultOK, Done: 2, Total: 2}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	await(t, evs, "Salt done from the store", func(e sseEvent) bool {
		return strings.Contains(e.p.HTML["layers"], `<progress value="2" max="2" aria-label="Salt progress">`)
	})
	if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunFailed, nil, t0, nil); err != nil {
		t.Fatal(err)
	}
	if end := await(t, evs, "finished", func(e sseEvent) bool { return e.name == "finished" }); end.p.Text["run-state"] != "failed" {
		t.Errorf("finished with state %q, want failed", end.p.Text["run-state"])
	}
}

func TestLocksStreamWhenTheyChange(t *testing.T) {
	f := newFixture(t)
	mine := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.addPlan("bbbb2222", "secret", store.PlanApproved)
	evs := f.events(f.signedIn(), "/locks/events")
	await(t, evs, "no locks", func(e sseEvent) bool { return strings.Contains(e.p.HTML["locks"], "No locks are held.") })

	if _, err := f.st.TryLock(context.Background(), []string{"staging/grafana"}, "bbbb2222", t0); err != nil {
		t.Fatal(err)
	}
	unlock, err := f.st.TryLock(context.Background(), []string{"production/nextcloud"}, mine.ID, t0)
	if err != nil {
		t.Fatal(err)
	}
	got := await(t, evs, "the lock appearing", func(e sseEvent) bool { return strings.Contains(e.p.HTML["locks"], "production/nextcloud") })
	if strings.Contains(got.p.HTML["locks"], "staging/grafana") || !strings.Contains(got.p.HTML["locks"], "@bob") {
		t.Errorf("the locks alice sees: %s", got.p.HTML["locks"])
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	await(t, evs, "the lock going", func(e sseEvent) bool { return strings.Contains(e.p.HTML["locks"], "No locks are held.") })
}

func TestAStreamEndsWithItsSession(t *testing.T) {
	f := newFixture(t)
	evs := f.events(f.signedIn(), "/locks/events")
	await(t, evs, "the first state", func(e sseEvent) bool { return e.name == "update" })
	f.clock.Add(9 * time.Hour)
	await(t, evs, "signedout", func(e sseEvent) bool { return e.name == "signedout" })
}

// A run of another replica streams its layers' output from the store as the leader stores it,
// and the page of a run that ended long ago still shows it.
func TestARunElsewhereStreamsItsOutputFromTheStore(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	if err := f.st.AppendOutput(context.Background(), p.ID, 0, []store.OutputLine{{At: t0, Layer: "terraform", Text: "eoslab_server.main: Creating..."}}); err != nil {
		t.Fatal(err)
	}
	evs := f.events(f.signedIn(), "/runs/7f3a9c21/events")
	first := await(t, evs, "the run so far", func(e sseEvent) bool { return e.name == "update" })
	if !strings.Contains(first.p.HTML["log"], "Terraform: eoslab_server.main: Creating...") {
		t.Errorf("the first event's log lacks the stored line: %q", first.p.HTML["log"])
	}
	if err := f.st.AppendOutput(context.Background(), p.ID, 1, []store.OutputLine{{At: t0, Layer: "terraform", Text: "eoslab_server.main: Creation complete"}}); err != nil {
		t.Fatal(err)
	}
	await(t, evs, "the next stored line", func(e sseEvent) bool {
		return slices.Contains(e.p.Lines, "Terraform: eoslab_server.main: Creation complete")
	})
	if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunDone, nil, t0, nil); err != nil {
		t.Fatal(err)
	}
	await(t, evs, "finished", func(e sseEvent) bool { return e.name == "finished" })
	if code, body := f.get(f.signedIn(), "/runs/7f3a9c21"); code != http.StatusOK ||
		!strings.Contains(body, "Creation complete") || !strings.Contains(body, "Creating...") {
		t.Errorf("the page of the ended run (%d) lacks its output:\n%s", code, body)
	}
}

// A progress step reads as the layer says it, with its unit and resource named once.
func TestEventText(t *testing.T) {
	for _, tc := range []struct {
		ev   executor.Event
		want string
	}{
		{executor.Event{Unit: "grafana", Resource: "eoslab_server.main", Message: "creating eoslab_server.main"}, "grafana: creating eoslab_server.main"},
		{executor.Event{Unit: "grafana", Resource: "eoslab_server.main", Message: "creating"}, "grafana: creating eoslab_server.main"},
		{executor.Event{Resource: "job web", Message: ""}, "job web"},
		{executor.Event{Message: "2/3 allocations healthy"}, "2/3 allocations healthy"},
	} {
		if got := eventText(tc.ev); got != tc.want {
			t.Errorf("eventText(%+v) = %q, want %q", tc.ev, got, tc.want)
		}
	}
}
