package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store/pgtest"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// Two Eos replicas as one Nomad job (deploy/eos-raw_exec.nomad.hcl with replicas = 2) on the
// test agent, sharing a PostgreSQL store: one leads and one stands by, both healthy to Nomad.
// When the leader's task is killed, a new term begins within seconds, and Nomad brings the
// killed one back: again one leader and one standby. Which of the two leads the new term is
// a race (Nomad restarts the killed task within a second, and the standby tries the lock every
// second); what must hold is that exactly one leads, in a new epoch.
func TestEosReplicasOnNomadFailOver(t *testing.T) {
	t.Parallel()
	addr := eostest.NomadAgent(t)
	dsn := pgtest.Database(t)
	bin := eosBinary(t)
	tmpl, err := os.ReadFile("../../deploy/eos-raw_exec.nomad.hcl")
	if err != nil {
		t.Fatal(err)
	}
	layer, err := nomad.New(nomad.Config{Address: addr, DeployTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	spec := executor.Spec{Verb: "create", Target: "eos", Env: fmt.Sprintf("e2e%06x", rand.N(1<<24)), Units: []executor.Unit{{
		Service: "eos", Nomad: &executor.NomadPart{Template: string(tmpl), Vars: map[string]any{
			"eos_binary": bin, "data_dir": t.TempDir(), "listen_port": 0, "path": os.Getenv("PATH"),
			"replicas": 2, "store_dsn": dsn,
		}},
	}}}
	client, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	job := nomad.JobID("eos", spec.Env)
	t.Cleanup(func() {
		if t.Failed() { // each replica's log says what it saw
			stubs, _, _ := client.Jobs().Allocations(job, true, nil)
			for _, s := range stubs {
				for _, f := range []string{"alloc/logs/eos.stderr.0", "alloc/logs/eos.stdout.0"} {
					if r, err := client.AllocFS().Cat(&api.Allocation{ID: s.ID, NodeID: s.NodeID}, f, nil); err == nil {
						b, _ := io.ReadAll(r)
						t.Logf("--- %s of allocation %s:\n%s", f, s.ID, b)
					}
				}
			}
		}
		_, _, _ = client.Jobs().Deregister(job, true, nil)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	plan, err := layer.Plan(ctx, spec)
	if err != nil || plan.Status != executor.PlanChanges {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	// Healthy means both allocations pass Nomad's /healthz check: the standby too.
	if res, err := layer.Apply(ctx, spec, plan, nil); err != nil || res.Status != executor.ResultOK {
		t.Fatalf("apply = %+v, %v", res, err)
	}

	// roles reads the role (and epoch, for the leader) of each running allocation's Eos.
	type replica struct {
		Role  string
		Epoch uint64
	}
	roles := func() map[string]replica {
		out := map[string]replica{}
		stubs, _, err := client.Jobs().Allocations(job, false, (&api.QueryOptions{}).WithContext(ctx))
		if err != nil {
			return out
		}
		for _, s := range stubs {
			if s.ClientStatus != api.AllocClientStatusRunning {
				continue
			}
			a, _, err := client.Allocations().Info(s.ID, (&api.QueryOptions{}).WithContext(ctx))
			if err != nil || a.AllocatedResources == nil || len(a.AllocatedResources.Shared.Ports) == 0 {
				continue
			}
			p := a.AllocatedResources.Shared.Ports[0]
			out[s.ID] = replica{Role: "unreachable"}
			hc := http.Client{Timeout: 2 * time.Second}
			resp, err := hc.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", p.Value))
			if err != nil {
				continue
			}
			var h struct {
				OK    bool   `json:"ok"`
				Role  string `json:"role"`
				Epoch uint64 `json:"epoch"`
			}
			if json.NewDecoder(resp.Body).Decode(&h) == nil && h.OK {
				out[s.ID] = replica{Role: h.Role, Epoch: h.Epoch}
			}
			resp.Body.Close()
		}
		return out
	}
	// settled reports the leader of a pair with one leader and one standby.
	settled := func(r map[string]replica) (leader string, epoch uint64, ok bool) {
		standbys := 0
		for alloc, x := range r {
			switch x.Role {
			case "leader":
				if leader != "" {
					return "", 0, false
				}
				leader, epoch = alloc, x.Epoch
			case "standby":
				standbys++
			}
		}
		return leader, epoch, leader != "" && standbys == 1 && len(r) == 2
	}
	// until polls roles every 200 ms until want holds, failing after a minute.
	until := func(what string, want func(map[string]replica) bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			r := roles()
			if want(r) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: roles %v", what, r)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("waiting for %s: %v", what, ctx.Err())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	var leader string
	var epoch uint64
	until("one leader and one standby", func(r map[string]replica) bool {
		var ok bool
		leader, epoch, ok = settled(r)
		return ok
	})

	if err := client.Allocations().Signal(&api.Allocation{ID: leader}, (&api.QueryOptions{}).WithContext(ctx), "eos", "SIGKILL"); err != nil {
		t.Fatalf("killing the leader's task: %v", err)
	}
	killed := time.Now()
	var next string
	var nextEpoch uint64
	until("a new term, with one leader and one standby again", func(r map[string]replica) bool {
		var ok bool
		next, nextEpoch, ok = settled(r)
		return ok && nextEpoch > epoch
	})
	who := "the standby"
	if next == leader {
		who = "the killed replica, restarted by Nomad"
	}
	t.Logf("epoch %d → %d led by %s, %s after the kill", epoch, nextEpoch, who, time.Since(killed).Round(time.Millisecond))
}
