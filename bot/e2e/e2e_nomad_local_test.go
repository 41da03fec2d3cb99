package e2e_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// The embedded catalog's local Nomad variant on a real agent, as `make run` uses it: creating
// grafana deploys its raw_exec job, which Nomad's own service discovery checks healthy, and the
// page it serves names the service, its domain and its flags.
func TestEmbeddedLocalJobRunsOnNomad(t *testing.T) {
	t.Parallel()
	addr := eostest.NomadAgent(t)
	layer, err := nomad.New(nomad.Config{Address: addr, DeployTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("e2e%06x", rand.N(1<<24))
	job := nomad.JobID("grafana", env)
	t.Cleanup(func() { _, _, _ = client.Jobs().Deregister(job, true, nil) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, Environments: []string{env}})

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana in "+env)
	if want := "Nomad     | job " + job + ": new, group grafana ×1"; !strings.Contains(p.Text, want) {
		t.Errorf("preview lacks %q:\n%s", want, p.Text)
	}
	h.React("bob", p.ID, "+1")
	done := h.WaitText(p.ID, "Run "+id+" · ", "done in")
	if want := "Nomad ✅ " + job + " 1/1 healthy"; !strings.Contains(done.Text, want) {
		t.Errorf("run post lacks %q:\n%s", want, done.Text)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	q := (&api.QueryOptions{}).WithContext(ctx)
	regs, _, err := client.Services().Get(job, q)
	if err != nil || len(regs) != 1 {
		t.Fatalf("service %s registered %d times (%v), want once", job, len(regs), err)
	}
	alloc, _, err := client.Allocations().Info(regs[0].AllocID, q)
	if err != nil {
		t.Fatalf("reading allocation %s: %v", regs[0].AllocID, err)
	}
	if alloc.ClientStatus != api.AllocClientStatusRunning || alloc.DeploymentStatus == nil || alloc.DeploymentStatus.Healthy == nil || !*alloc.DeploymentStatus.Healthy {
		t.Errorf("allocation %s is %s with deployment status %+v, want running and healthy", alloc.ID, alloc.ClientStatus, alloc.DeploymentStatus)
	}

	url := fmt.Sprintf("http://%s:%d/", regs[0].Address, regs[0].Port)
	if regs[0].Address != "127.0.0.1" {
		t.Fatalf("service at %s, want loopback", url)
	}
	page := getPage(ctx, t, url)
	for _, want := range []string{"<h1>grafana (dashboards)</h1>", "grafana." + env + ".test in environment " + env, "<th>port</th><td>3000</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page at %s lacks %q:\n%s", url, want, page)
		}
	}
}

// getPage returns the body of a GET that answers 200 OK.
func getPage(ctx context.Context, t *testing.T, url string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", url, resp.Status, err)
	}
	return string(body)
}
