package catalog

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestShippedNomadJobs parses each shipped job variant the way Nomad's HCL2 parser reads it and
// checks its shape: one job named after the service, the expected groups with a service block,
// tasks with resources on the variant's driver (docker in production, raw_exec on a dev agent),
// and no var.X the file does not declare.
func TestShippedNomadJobs(t *testing.T) {
	wantGroups := map[string][]string{
		"nextcloud": {"app", "db"},
		"grafana":   {"grafana"},
		"jenkins":   {"controller"},
		"authentik": {"db", "server"},
	}
	variants := []struct {
		variant, job, driver string
		groups               func(service string) []string
	}{
		{"production", "nomad/%s.nomad.hcl", "docker", func(s string) []string { return wantGroups[s] }},
		{"local", "nomad/local.nomad.hcl", "raw_exec", func(s string) []string { return []string{s} }},
	}
	for _, b := range loadEmbedded(t).Services() {
		for _, v := range variants {
			t.Run(b.Name+"/"+v.variant, func(t *testing.T) {
				r, err := b.Render(Request{Env: "test", Variant: v.variant})
				if err != nil {
					t.Fatal(err)
				}
				if want := strings.ReplaceAll(v.job, "%s", b.Name); r.Nomad.Variant != v.variant || r.Nomad.Job != want {
					t.Errorf("rendered variant %q job %q, want %q %q", r.Nomad.Variant, r.Nomad.Job, v.variant, want)
				}
				job, declared := parseJob(t, r)
				if job.Labels[0] != b.Name {
					t.Errorf("job %q, want %q", job.Labels[0], b.Name)
				}
				var groups []string
				for _, g := range blocksOf(job.Body, "group") {
					groups = append(groups, g.Labels[0])
					services := blocksOf(g.Body, "service")
					if len(services) == 0 {
						t.Errorf("group %s has no service block", g.Labels[0])
					}
					for _, svc := range services {
						if p := svc.Body.Attributes["provider"]; p == nil || literal(p.Expr) != "nomad" {
							t.Errorf("group %s: service without provider = \"nomad\" needs Consul", g.Labels[0])
						}
					}
					for _, task := range blocksOf(g.Body, "task") {
						if d := task.Body.Attributes["driver"]; d == nil || literal(d.Expr) != v.driver {
							t.Errorf("task %s does not use the %s driver", task.Labels[0], v.driver)
						}
						if len(blocksOf(task.Body, "resources")) != 1 {
							t.Errorf("task %s has no resources block", task.Labels[0])
						}
					}
				}
				sort.Strings(groups)
				if want := v.groups(b.Name); !reflect.DeepEqual(groups, want) {
					t.Errorf("groups = %v, want %v", groups, want)
				}
				hclsyntax.VisitAll(job.Body, func(n hclsyntax.Node) hcl.Diagnostics {
					if st, ok := n.(*hclsyntax.ScopeTraversalExpr); ok && st.Traversal.RootName() == "var" {
						if name, _ := traversalName(st.Traversal); !declared[name] {
							t.Errorf("%s: var.%s is not declared", st.SrcRange, name)
						}
					}
					return nil
				})
			})
		}
	}
}

// parseJob parses the rendered job template: its one job block and the variables it declares,
// each of which the manifest's values must be among.
func parseJob(t *testing.T, r *Rendered) (*hclsyntax.Block, map[string]bool) {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(r.Nomad.Template), r.Nomad.Job, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	declared := map[string]bool{}
	var jobs []*hclsyntax.Block
	for _, blk := range file.Body.(*hclsyntax.Body).Blocks {
		switch blk.Type {
		case "variable":
			declared[blk.Labels[0]] = true
		case "job":
			jobs = append(jobs, blk)
		}
	}
	if len(jobs) != 1 {
		t.Fatalf("%s: %d job blocks, want one", r.Nomad.Job, len(jobs))
	}
	for name := range r.Nomad.Vars {
		if !declared[name] {
			t.Errorf("variable %q is set by the manifest but not declared in %s", name, r.Nomad.Job)
		}
	}
	return jobs[0], declared
}

func blocksOf(body *hclsyntax.Body, typ string) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for _, blk := range body.Blocks {
		if blk.Type == typ {
			out = append(out, blk)
		}
	}
	return out
}

func literal(expr hcl.Expression) string {
	v, diags := expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}
