package terraform

import (
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/executor"
)

// Each JSON message's @message text is an output line, through the unit's secret masking;
// lines that are not messages, and messages without text, are not.
func TestProgressOutputLines(t *testing.T) {
	var lines []string
	p := newProgress(nil, nil)
	p.output = func(line string) { lines = append(lines, line) }
	p.redact = redactor([]string{"hunter2"})
	p.forUnit("web")
	stream := `{"@message":"Terraform 1.11.4","type":"version"}` + "\n" +
		`{"@message":"t.a: Creating...","type":"apply_start","hook":{"resource":{"addr":"t.a"},"action":"create"}}` + "\n" +
		"not json\n" +
		`{"type":"outputs"}` + "\n" +
		`{"@message":"Error: bad password hunter2","type":"diagnostic"}` + "\n"
	if _, err := p.Write([]byte(stream)); err != nil {
		t.Fatal(err)
	}
	want := "Terraform 1.11.4|t.a: Creating...|Error: bad password (redacted)"
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("lines\n got %s\nwant %s", got, want)
	}
}

// A real apply sends Terraform's own messages to the context's output sink, as the layer
// they came from, and never a sensitive value.
func TestApplyOutputLines(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	const password = "sekrit-pw-8391"
	s := spec(unit("nextcloud", map[string]string{"main.tf": threeResources}, map[string]any{"size": "small", "password": password}))
	s.Units[0].Secrets = []string{"password"}
	p := mustPlan(t, l, s)

	var mu sync.Mutex
	var lines []string
	ctx := testCtx(t)
	obs := executor.Observe(nil, func(layer executor.LayerName, line string) {
		mu.Lock()
		defer mu.Unlock()
		if layer != executor.Terraform {
			t.Errorf("line %q from layer %s", line, layer)
		}
		lines = append(lines, line)
	})
	if res, err := l.Apply(ctx, s, p, obs); err != nil {
		t.Fatalf("Apply: %v (%+v)", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(lines, "\n")
	for _, want := range []string{"terraform_data.server: Creating...", "terraform_data.dns: Creation complete", "Apply complete! Resources: 3 added"} {
		if !strings.Contains(all, want) {
			t.Errorf("no line with %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, password) || strings.Contains(all, "s3cret-default") {
		t.Errorf("a sensitive value is in the output lines:\n%s", all)
	}
}
