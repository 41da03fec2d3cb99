package nomad

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// TestShippedTemplatesPlan plans every job template the catalog ships, with values of the
// kinds the catalog passes, on the real agent: each must parse with its variables bound (the
// job gets the unit's ID, its owner and the env value in its meta) and be planned by Nomad. The agent
// has no Docker, so each plan must say so in plain words.
//
// The test agent is Nomad 1.4, which refuses `vault {}` without policies (workload identities
// came in 1.7) and has no Vault anyway, so the blocks are dropped here.
func TestShippedTemplatesPlan(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	paths, err := filepath.Glob("../../catalog/blueprints/*/nomad/*.nomad.hcl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no shipped templates found: %v", err)
	}
	common := map[string]any{
		"env": e.env, "domain": "cloud.example.org", "data_dir": "/srv/data/x", "datacenters": []any{"dc1"},
	}
	extra := map[string]map[string]any{
		"nextcloud": {"sso": true},
		"authentik": {"frontend_for": "nextcloud"},
		"grafana":   {"port": int64(3000)},
		"jenkins":   {"executors": int64(2)},
	}
	for _, path := range paths {
		service := filepath.Base(filepath.Dir(filepath.Dir(path)))
		// The local variant runs with raw_exec and must place; the production one uses docker,
		// which the dev agent lacks, and must say so.
		local := filepath.Base(path) == "local.nomad.hcl"
		t.Run(service+"/"+filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			vars := map[string]any{}
			for k, v := range common {
				vars[k] = v
			}
			for k, v := range extra[service] {
				vars[k] = v
			}
			u := executor.Unit{Service: service, Nomad: &executor.NomadPart{Template: string(text), Vars: vars}}
			dj, err := e.layer.parseJob(testCtx(t), e.env, u)
			if err != nil {
				t.Fatalf("parseJob: %v", err)
			}
			if *dj.job.ID != e.id(service) || *dj.job.Name != e.id(service) || dj.job.Meta["env"] != e.env ||
				dj.job.Meta[MetaService] != service || dj.job.Meta[MetaEnv] != e.env {
				t.Errorf("parsed job: id %s name %s meta %v", *dj.job.ID, *dj.job.Name, dj.job.Meta)
			}
			s := e.spec(service, nil)
			s.Units[0].Nomad = &executor.NomadPart{Template: vaultBlock.ReplaceAllString(string(text), ""), Vars: vars}
			p := e.plan(t, s)
			placed := !strings.Contains(p.Summary, "cannot place")
			if p.Status != executor.PlanChanges || !strings.HasPrefix(p.Summary, "job "+e.id(service)+": new, group") ||
				placed != local || (!local && !strings.Contains(p.Summary, "no node has the docker driver")) {
				t.Errorf("plan = %s %q (local variant: %v)", p.Status, p.Summary, local)
			}
		})
	}
}

// vaultBlock matches a task's vault stanza: the dev agent runs without Vault and refuses
// jobs that use it.
var vaultBlock = regexp.MustCompile(`(?s)vault \{[^{}]*\}`)
