package nomad

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// agentAddr finds the Nomad agent started by scripts/testenv/nomad.sh. Without it the test
// skips, unless CI is set, where a missing agent is a failure rather than a silent pass.
func agentAddr(t *testing.T) string {
	t.Helper()
	addr := os.Getenv("EOS_TEST_NOMAD_ADDR")
	if addr == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("EOS_TEST_NOMAD_ADDR is required in CI: start an agent with scripts/testenv/nomad.sh")
		}
		t.Skip("EOS_TEST_NOMAD_ADDR not set; start an agent with scripts/testenv/nomad.sh start DIR and source DIR/env")
	}
	return addr
}

// e2e is a layer and a raw API client on the test agent, and the environment of the test's
// jobs: unique per test, because Nomad 1.4 does not place a purged job registered again under
// the same ID while the old job's failed deployment is still kept (see follow).
type e2e struct {
	layer *Layer
	api   *api.Client
	env   string

	mu       sync.Mutex
	services map[string]bool
}

func newE2E(t *testing.T) *e2e {
	t.Helper()
	addr := agentAddr(t)
	l, err := New(Config{Address: addr, DeployTimeout: 90 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatalf("api.NewClient: %v", err)
	}
	e := &e2e{layer: l, api: c, env: fmt.Sprintf("e2e%06x", rand.N(1<<24)), services: map[string]bool{}}
	t.Cleanup(func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		for s := range e.services {
			_, _, _ = c.Jobs().Deregister(e.id(s), true, nil)
		}
	})
	return e
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// testTemplate is a service job on the raw_exec driver with an update block, so every
// version gets a deployment that turns healthy a second after its task starts.
const testTemplate = `
variable "command" {
  type    = string
  default = "/bin/sleep"
}

variable "args" {
  type    = list(string)
  default = ["3600"]
}

variable "label" {
  type    = string
  default = ""
}

variable "instances" {
  type    = number
  default = 1
}

variable "driver" {
  type    = string
  default = "raw_exec"
}

job "ignored-by-eos" {
  datacenters = ["dc1"]
  type        = "service"

  meta {
    label = var.label
  }

  update {
    max_parallel      = 1
    health_check      = "task_states"
    min_healthy_time  = "1s"
    healthy_deadline  = "15s"
    progress_deadline = "30s"
    auto_revert       = false
  }

  group "app" {
    count = var.instances

    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "main" {
      driver       = var.driver
      kill_timeout = "1s"

      config {
        command = var.command
        args    = var.args
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`

// id is the job ID of a test service.
func (e *e2e) id(service string) string { return JobID(service, e.env) }

// spec is a one-unit spec for service with the given template variables. Its job is purged
// when the test that made e ends.
func (e *e2e) spec(service string, vars map[string]any) executor.Spec {
	e.mu.Lock()
	e.services[service] = true
	e.mu.Unlock()
	return executor.Spec{Verb: "create", Target: service, Env: e.env, Units: []executor.Unit{{
		Service: service, Nomad: &executor.NomadPart{Template: testTemplate, Vars: vars},
	}}}
}

func (e *e2e) destroySpec(service string) executor.Spec {
	s := e.spec(service, nil)
	s.Verb, s.Units[0].Destroy = "destroy", true
	return s
}

func (e *e2e) plan(t *testing.T, s executor.Spec) executor.LayerPlan {
	t.Helper()
	p, err := e.layer.Plan(testCtx(t), s)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return p
}

// events collects progress events; safe for use from the layer's goroutine.
type events struct {
	mu  sync.Mutex
	all []executor.Event
}

func (ev *events) report(e executor.Event) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	ev.all = append(ev.all, e)
}

func (ev *events) messages() []string {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	out := make([]string, 0, len(ev.all))
	for _, e := range ev.all {
		out = append(out, e.Message)
	}
	return out
}

func (e *e2e) apply(t *testing.T, s executor.Spec, p executor.LayerPlan) (executor.LayerResult, *events) {
	t.Helper()
	ev := &events{}
	res, err := e.layer.Apply(testCtx(t), s, p, executor.Observe(ev.report, nil))
	if err != nil {
		t.Fatalf("Apply: %v (result %+v, events %q)", err, res, ev.messages())
	}
	return res, ev
}

func (e *e2e) job(t *testing.T, service string) *api.Job {
	t.Helper()
	j, _, err := e.api.Jobs().Info(e.id(service), nil)
	if err != nil {
		t.Fatalf("reading job %s: %v", e.id(service), err)
	}
	return j
}

// waitAlloc waits, with blocking queries, until an allocation of the job satisfies ok.
func (e *e2e) waitAlloc(t *testing.T, service string, ok func(*api.AllocationListStub) bool) *api.AllocationListStub {
	t.Helper()
	ctx := testCtx(t)
	var index uint64
	for {
		stubs, qm, err := e.api.Jobs().Allocations(e.id(service), false,
			(&api.QueryOptions{WaitIndex: index, WaitTime: 5 * time.Second}).WithContext(ctx))
		if err != nil {
			t.Fatalf("waiting for an allocation of %s: %v", service, err)
		}
		for _, a := range stubs {
			if ok(a) {
				return a
			}
		}
		index = qm.LastIndex
	}
}

func taskArgs(j *api.Job) []any {
	if len(j.TaskGroups) == 0 || len(j.TaskGroups[0].Tasks) == 0 {
		return nil
	}
	args, _ := j.TaskGroups[0].Tasks[0].Config["args"].([]any)
	return args
}
