package terraform

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/executor"
)

// serverModule is one eoslab server named after its unit; extra is appended to it, so a
// preview can change the module itself and not only its variables.
func serverModule(name, extra string) string {
	return `
terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

variable "size" {
  type = string
}

resource "eoslab_server" "main" {
  name  = "` + name + `"
  size  = var.size
  image = "debian-12"
}
` + extra
}

// extraServer makes a preview's module differ from the approved one.
const extraServer = `
resource "eoslab_server" "extra" {
  name  = "extra"
  size  = "small"
  image = "debian-12"
}
`

func serverUnit(service, size, extra string) executor.Unit {
	return unit(service, map[string]string{"main.tf": serverModule(service, extra)}, map[string]any{"size": size})
}

// cloudSize is the size of the simulated server name, "" when it does not exist.
func cloudSize(t *testing.T, cloud, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(cloud, "server", name+".json"))
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	var obj struct {
		Size string `json:"size"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	return obj.Size
}

// An approved run applies exactly what was approved, whatever anyone previews meanwhile: a
// preview of the same unit (other values, another module) never replaces the run's saved
// plan, whether it comes while the run applies or between the plan and the apply.
func TestPreviewDuringRunLeavesItAlone(t *testing.T) {
	t.Parallel()
	l, cloud := newEoslabLayer(t, map[string]string{"EOSLAB_DELAY": "1s"})
	ctx := testCtx(t)
	preview := func(u executor.Unit) executor.LayerPlan {
		t.Helper()
		p, err := l.Plan(ctx, spec(u))
		if err != nil {
			t.Errorf("preview: %v", err)
		}
		return p
	}

	t.Run("while an earlier unit of the run applies", func(t *testing.T) {
		// The run creates db, then grafana; grafana is previewed with other values while db
		// is being created, before grafana's own apply begins.
		run := spec(serverUnit("db", "small", ""), serverUnit("grafana", "small", ""))
		approved := mustPlan(t, l, run)
		var previewed executor.LayerPlan
		once := sync.Once{}
		res, err := l.Apply(ctx, run, approved, executor.Observe(func(e executor.Event) {
			if e.Unit == "db" && strings.HasPrefix(e.Message, "creating") {

				once.Do(func() { previewed = preview(serverUnit("grafana", "large", extraServer)) })
			}
		}, nil))

		if err != nil || res.Status != executor.ResultOK {
			t.Fatalf("the approved run failed: %v (result %+v)", err, res)
		}
		if previewed.Status != executor.PlanChanges {
			t.Fatalf("the preview did not run during the apply: %+v", previewed)
		}
		if got := cloudSize(t, cloud, "grafana"); got != "small" {
			t.Errorf("grafana is %q, want the approved small", got)
		}
		if got := cloudSize(t, cloud, "extra"); got != "" {
			t.Errorf("the preview's extra server was created (%q): the run applied the preview", got)
		}
	})

	t.Run("while the same unit applies", func(t *testing.T) {
		s := spec(serverUnit("web", "small", ""))
		approved := mustPlan(t, l, s)
		var (
			wg        sync.WaitGroup
			previewed executor.LayerPlan
			once      sync.Once
		)
		res, err := l.Apply(ctx, s, approved, executor.Observe(func(e executor.Event) {
			if strings.HasPrefix(e.Message, "creating") {
				once.Do(func() {
					wg.Add(1)
					go func() {
						defer wg.Done()
						previewed = preview(serverUnit("web", "large", ""))
					}()
				})
			}
		}, nil))

		wg.Wait()
		if err != nil || res.Status != executor.ResultOK {
			t.Fatalf("the approved run failed: %v (result %+v)", err, res)
		}
		if got := cloudSize(t, cloud, "web"); got != "small" {
			t.Errorf("web is %q, want the approved small", got)
		}
		// The preview waited for the apply (a plan reads the state the apply writes), so it
		// saw web created and plans an update.
		want := executor.Change{Unit: "web", Action: executor.Update, Address: "eoslab_server.main"}
		if len(previewed.Changes) != 1 || previewed.Changes[0].Action != want.Action || previewed.Changes[0].Address != want.Address {
			t.Errorf("preview changes = %+v, want one update of %s", previewed.Changes, want.Address)
		}
	})

	t.Run("between the plan and its apply", func(t *testing.T) {
		s := spec(serverUnit("cache", "small", ""))
		approved := mustPlan(t, l, s)
		// The bot plans again just before applying; the approval holds when the digest is
		// the same, and the apply uses the fresh plan.
		replanned := mustPlan(t, l, s)
		if replanned.Digest != approved.Digest {
			t.Fatalf("re-plan digest differs:\n%s\n%s", replanned.Digest, approved.Digest)
		}
		other := preview(serverUnit("cache", "large", extraServer))
		res, err := l.Apply(ctx, s, replanned, executor.Observe(nil, nil))
		if err != nil || res.Status != executor.ResultOK {
			t.Fatalf("the approved plan failed after a preview: %v (result %+v)", err, res)
		}
		if got := cloudSize(t, cloud, "cache"); got != "small" {
			t.Errorf("cache is %q, want the approved small", got)
		}
		if got := stateAddresses(t, l, "local", "cache"); !slices.Equal(got, []string{"eoslab_server.main"}) {
			t.Errorf("state has %v, want only the approved server", got)
		}
		for _, p := range savedPlans(t, replanned) {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("the applied plan file %s is still there (%v)", p, err)
			}
		}
		// The preview's own plan is intact, and Terraform knows it is stale now.
		_, err = l.Apply(ctx, spec(serverUnit("cache", "large", extraServer)), other, executor.Observe(nil, nil))
		if !errors.Is(err, ErrStalePlan) || !errors.Is(err, executor.ErrNotApplied) {
			t.Errorf("applying the preview after the run: %v, want a stale plan halt", err)
		}
	})
}
