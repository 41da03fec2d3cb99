package catalog

import (
	"reflect"
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestShippedNomadJobs parses each shipped job the way Nomad's HCL2 parser reads it and checks
// its shape: one job named after the service, the expected groups, docker tasks with
// resources, and no var.X the file does not declare.
func TestShippedNomadJobs(t *testing.T) {
	wantGroups := map[string][]string{
		"nextcloud": {"app", "db"},
		"grafana":   {"grafana"},
		"jenkins":   {"controller"},
		"authentik": {"db", "server"},
	}
	for _, b := range loadEmbedded(t).Services() {
		t.Run(b.Name, func(t *testing.T) {
			r, err := b.Render(Request{Env: "test"})
			if err != nil {
				t.Fatal(err)
			}
			file, diags := hclsyntax.ParseConfig([]byte(r.Nomad.Template), b.Nomad.Path, hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			body := file.Body.(*hclsyntax.Body)
			declared := map[string]bool{}
			var jobs []*hclsyntax.Block
			for _, blk := range body.Blocks {
				switch blk.Type {
				case "variable":
					declared[blk.Labels[0]] = true
				case "job":
					jobs = append(jobs, blk)
				}
			}
			if len(jobs) != 1 || jobs[0].Labels[0] != b.Name {
				t.Fatalf("want one job %q", b.Name)
			}
			for name := range r.Nomad.Vars {
				if !declared[name] {
					t.Errorf("variable %q is set by the manifest but not declared", name)
				}
			}
			var groups []string
			for _, g := range blocksOf(jobs[0].Body, "group") {
				groups = append(groups, g.Labels[0])
				if len(blocksOf(g.Body, "service")) == 0 {
					t.Errorf("group %s has no service block", g.Labels[0])
				}
				for _, task := range blocksOf(g.Body, "task") {
					if d := task.Body.Attributes["driver"]; d == nil || literal(d.Expr) != "docker" {
						t.Errorf("task %s does not use the docker driver", task.Labels[0])
					}
					if len(blocksOf(task.Body, "resources")) != 1 {
						t.Errorf("task %s has no resources block", task.Labels[0])
					}
				}
			}
			sort.Strings(groups)
			if !reflect.DeepEqual(groups, wantGroups[b.Name]) {
				t.Errorf("groups = %v, want %v", groups, wantGroups[b.Name])
			}
			hclsyntax.VisitAll(jobs[0].Body, func(n hclsyntax.Node) hcl.Diagnostics {
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
