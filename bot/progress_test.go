package bot

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// While a layer waits for a server, the progress post says so after the count, and the next
// step replaces the note.
func TestProgressShowsALayerWaitingForItsServer(t *testing.T) {
	tr := &tracker{layers: []layerState{{Name: executor.Salt, Icon: iconWaiting}, {Name: executor.Terraform, Icon: iconWaiting}, {Name: executor.Nomad, Icon: iconWaiting}}}
	tr.advance(executor.Event{Layer: executor.Salt, Resource: "eos-minion: pkg.installed grafana", Done: 2, Total: 3})
	tr.advance(executor.Event{Layer: executor.Salt, Message: "salt-api not answering for 40 s, retrying"})
	got := render.ProgressDoc("5e1f0a2b", []string{"bob"}, tr.layers).Plain()
	if want := "Salt ⏳ 2/3 · salt-api not answering for 40 s, retrying · Terraform ⏸"; !strings.Contains(got, want) {
		t.Errorf("progress = %q, want it to contain %q", got, want)
	}
	// A layer that words the wait on its resource (Nomad's job) is shown the same way.
	tr.advance(executor.Event{Layer: executor.Salt, Resource: "eos-minion: file.managed grafana.ini", Done: 3, Total: 3, Message: "changed"})
	got = render.ProgressDoc("5e1f0a2b", []string{"bob"}, tr.layers).Plain()
	if strings.Contains(got, "not answering") || !strings.Contains(got, "Salt ⏳ 3/3 eos-minion: file.managed grafana.ini…") {
		t.Errorf("the next step does not replace the note: %q", got)
	}
	tr.advance(executor.Event{Layer: executor.Nomad, Resource: "job grafana", Done: 1, Total: 2, Message: "Nomad not answering for 12 s, retrying", Notice: true})
	if got = render.ProgressDoc("5e1f0a2b", []string{"bob"}, tr.layers).Plain(); !strings.Contains(got, "Nomad ⏳ 1/2 · Nomad not answering for 12 s, retrying") {
		t.Errorf("a wait named on a resource is not shown: %q", got)
	}
	// An allocation failing while Nomad's health is awaited is shown as it happens, and a
	// status that is only a count is not a note.
	tr.advance(executor.Event{Layer: executor.Nomad, Resource: "job grafana", Done: 1, Total: 2, Message: "1/2 allocations healthy"})
	tr.advance(executor.Event{Layer: executor.Nomad, Resource: "job grafana", Done: 1, Total: 2, Notice: true,
		Message: "allocation d877c090: task grafana exited 1 (restart 2 of 3)"})
	if got = render.ProgressDoc("5e1f0a2b", []string{"bob"}, tr.layers).Plain(); !strings.Contains(got, "Nomad ⏳ 1/2 · allocation d877c090: task grafana exited 1 (restart 2 of 3)") {
		t.Errorf("a failing allocation is not shown as it happens: %q", got)
	}
}
