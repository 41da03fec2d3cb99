package terraform

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

func hookLine(typ, addr, action string) string {
	return fmt.Sprintf(`{"@level":"info","type":%q,"hook":{"resource":{"addr":%q},"action":%q}}`+"\n", typ, addr, action)
}

func TestProgressFromApplyJSON(t *testing.T) {
	planned := []executor.Change{
		{Unit: "web", Action: executor.Update, Address: "t.a"},
		{Unit: "web", Action: executor.Replace, Address: "t.b"},
		{Unit: "web", Action: executor.Create, Address: "t.c"},
	}
	stream := `{"type":"version","terraform":"1.11.4"}` + "\n" +
		hookLine("apply_start", "t.a", "update") +
		hookLine("apply_complete", "t.a", "update") +
		hookLine("apply_start", "t.b", "delete") +
		hookLine("apply_complete", "t.b", "delete") +
		hookLine("apply_start", "t.b", "create") +
		hookLine("apply_complete", "t.b", "create") +
		hookLine("apply_start", "data.x.y", "read") +
		hookLine("apply_complete", "data.x.y", "read") +
		hookLine("apply_start", "t.c", "create") +
		"not json\n" +
		hookLine("apply_errored", "t.c", "create")

	var events []executor.Event
	p := newProgress(planned, func(e executor.Event) { events = append(events, e) })
	p.now = func() time.Time { return time.Unix(0, 0) }
	p.forUnit("web")
	// terraform-exec writes whole lines, but nothing should depend on it: feed odd chunks.
	for i := 0; i < len(stream); i += 7 {
		end := min(i+7, len(stream))
		if _, err := p.Write([]byte(stream[i:end])); err != nil {
			t.Fatal(err)
		}
	}

	type step struct {
		msg  string
		done int
	}
	want := []step{
		{"updating t.a", 0}, {"updated t.a", 1},
		{"replacing t.b", 1}, {"replaced t.b", 2},
		{"reading data.x.y", 2},
		{"creating t.c", 2}, {"failed creating t.c", 2},
	}
	var got []step
	for _, e := range events {
		got = append(got, step{e.Message, e.Done})
		if e.Total != 3 || e.Unit != "web" || e.Layer != executor.Terraform || !e.Time.Equal(time.Unix(0, 0)) {
			t.Errorf("event %+v: wrong total, unit, layer or time", e)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %v\nwant %v", got, want)
	}
	if p.done != 2 || p.failed == nil || p.failed.Address != "t.c" || p.failed.Action != executor.Create {
		t.Errorf("done %d, failed %+v; want 2 and t.c", p.done, p.failed)
	}
	if len(p.applied) != 2 || p.applied[1].Address != "t.b" {
		t.Errorf("applied = %+v", p.applied)
	}
}

func TestSummaries(t *testing.T) {
	mk := func(actions ...executor.Action) []executor.Change {
		var out []executor.Change
		for i, a := range actions {
			out = append(out, executor.Change{Unit: fmt.Sprintf("u%d", i%2), Action: a, Address: fmt.Sprintf("t.r%d", i)})
		}
		return out
	}
	tests := []struct {
		name, got, want string
	}{
		{"plan", planSummary(mk(executor.Create, executor.Create, executor.Update), false), "+2 ~1 −0: t.r0, t.r1, t.r2"},
		{"plan, many", planSummary(mk(executor.Create, executor.Create, executor.Create, executor.Delete, executor.Replace), false), "+3 ~0 −1 ±1 (1 replaced): t.r3, t.r4, t.r0, and 2 more"},
		{"plan, units named", planSummary(mk(executor.Create, executor.Create), true), "+2 ~0 −0: u0 t.r0, u1 t.r1"},
		{"plan, outputs only", planSummary(nil, false), "+0 ~0 −0: outputs only"},
		{"result, creates", resultSummary(mk(executor.Create, executor.Create, executor.Create)), "+3"},
		{"result, mixed", resultSummary(mk(executor.Create, executor.Update)), "+1 ~1 −0"},
		{"failed, something applied", failedSummary(mk(executor.Create), false), "+1 ~0 −0 applied before the failure: t.r0"},
		{"failed, nothing", failedSummary(nil, false), "nothing applied"},
		{"rollback, removed", rollbackSentence(nil, []string{"a"}), "nothing created by Terraform remains"},
		{"rollback, restored", rollbackSentence([]string{"a"}, nil), "re-applied the previous approved state"},
		{"rollback, both", rollbackSentence([]string{"a"}, []string{"b"}), "re-applied the previous approved state of a; nothing created by Terraform remains of b"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
