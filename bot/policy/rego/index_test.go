package rego

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	opa "github.com/open-policy-agent/opa/v1/rego"
)

func indexedPlan() map[string]any {
	tf := []any{
		map[string]any{"address": "eoslab_firewall.main", "action": "create", "data_loss": false},
		map[string]any{"address": "eoslab_volume.data", "action": "delete", "data_loss": true},
		map[string]any{"address": "module.db.eoslab_firewall.db[0]", "action": "update", "data_loss": false},
		map[string]any{"address": "data.eoslab_image.debian", "action": "read", "data_loss": false},
	}
	salt := []any{
		map[string]any{"address": "m: service.running a (a)", "restart": "restart", "data_loss": false},
		map[string]any{"address": "m: file.managed b (/b)", "restart": "", "data_loss": false},
		map[string]any{"address": "m: service.running c (c)", "restart": "reload", "data_loss": false},
	}
	return map[string]any{"plan": map[string]any{"layers": map[string]any{
		"terraform": map[string]any{"status": "changes", "changes": tf},
		"salt":      map[string]any{"changes": salt},
		"nomad":     map[string]any{"changes": []any{}, "losing_data": "the layer's own"},
	}}}
}

// Judge's document indexes each layer's changes: Terraform's by resource type (modules' and
// data sources' too), every layer's that lose data, Salt's by disruption mark; each index
// lists the very values of `changes` (one lazy object per change, converted once), in plan
// order; a layer's own key of the same name stays as it was, and the caller's document is
// left as it was.
func TestTheDocumentIndexesEachLayersChanges(t *testing.T) {
	doc := indexedPlan()
	v, err := toValue(doc)
	if err != nil {
		t.Fatal(err)
	}
	at := func(path ...any) *ast.Term {
		t.Helper()
		terms := make([]*ast.Term, len(path))
		for i, p := range path {
			switch p := p.(type) {
			case string:
				terms[i] = ast.StringTerm(p)
			case int:
				terms[i] = ast.IntNumberTerm(p)
			}
		}
		found, err := v.Find(ast.Ref(terms))
		if err != nil {
			t.Fatalf("%v not in the document: %v", path, err)
		}
		return ast.NewTerm(found)
	}
	change := func(layer string, i int) *ast.Term { return at("plan", "layers", layer, "changes", i) }
	list := func(ts ...*ast.Term) *ast.Term { return ast.ArrayTerm(ts...) }
	for _, c := range []struct {
		path []any
		want *ast.Term
	}{
		{[]any{"plan", "layers", "terraform", "by_type", "eoslab_firewall"}, list(change("terraform", 0), change("terraform", 2))},
		{[]any{"plan", "layers", "terraform", "by_type", "eoslab_volume"}, list(change("terraform", 1))},
		{[]any{"plan", "layers", "terraform", "by_type", "data.eoslab_image"}, list(change("terraform", 3))},
		{[]any{"plan", "layers", "terraform", "losing_data"}, list(change("terraform", 1))},
		{[]any{"plan", "layers", "salt", "by_restart"}, ast.ObjectTerm(
			ast.Item(ast.StringTerm("restart"), list(change("salt", 0))), ast.Item(ast.StringTerm("reload"), list(change("salt", 2))))},
		{[]any{"plan", "layers", "salt", "losing_data"}, list()},
		{[]any{"plan", "layers", "nomad", "losing_data"}, ast.StringTerm("the layer's own")},
	} {
		if got := at(c.path...); !got.Equal(c.want) {
			t.Errorf("%v is %v, want %v", c.path, got, c.want)
		}
	}
	firewalls := at("plan", "layers", "terraform", "by_type", "eoslab_firewall").Value.(*ast.Array)
	if firewalls.Elem(0).Value != at("plan", "layers", "terraform", "changes").Value.(*ast.Array).Elem(0).Value {
		t.Error("by_type holds a copy of a change, not the change's own term")
	}
	if _, err := v.Find(ast.Ref{ast.StringTerm("plan"), ast.StringTerm("layers"), ast.StringTerm("nomad"), ast.StringTerm("by_type")}); err == nil {
		t.Error("by_type is for Terraform's changes only, Nomad's layer has one")
	}
	if _, added := doc["plan"].(map[string]any)["layers"].(map[string]any)["terraform"].(map[string]any)[byType]; added {
		t.Error("the caller's document got the index")
	}
	if _, lazy := doc["plan"].(map[string]any)["layers"].(map[string]any)["terraform"].(map[string]any)["changes"].([]any)[0].(map[string]any); !lazy {
		t.Error("the caller's changes were replaced")
	}
}

// The example library (examples/policies) decides the same on a document with the indexes,
// as Judge gives it, and without them, as a Rego unit test's `with input as` or another
// evaluator gives it: the helpers in lib read the changes themselves when the index is absent.
func TestTheExamplesDecideTheSameWithAndWithoutTheIndex(t *testing.T) {
	s := load(t, filepath.Join("..", "..", "..", "examples", "policies"))
	doc := map[string]any{
		"request": map[string]any{"environment": "production", "target": "bastion"},
		"risk":    map[string]any{"data_loss": true},
		"time":    map[string]any{"weekday": "Wednesday", "hour": 10, "minute": 0, "zone": "UTC"},
		"plan": map[string]any{"layers": map[string]any{
			"terraform": map[string]any{"changes": []any{
				map[string]any{"unit": "bastion", "address": "eoslab_firewall.main", "action": "create", "data_loss": false, "attrs": []any{},
					"detail": "", "after": map[string]any{"rules": []any{map[string]any{"direction": "in", "protocol": "tcp", "port": "22", "source_ips": []any{"0.0.0.0/0"}}}}},
				map[string]any{"unit": "bastion", "address": "module.edge.eoslab_firewall.edge", "action": "update", "data_loss": false, "attrs": []any{},
					"detail": "", "after": map[string]any{"rules": []any{map[string]any{"direction": "in", "protocol": "tcp", "port": "20-30", "source_ips": []any{"::/0"}}}}},
				map[string]any{"unit": "bastion", "address": "eoslab_volume.data", "action": "delete", "data_loss": true, "attrs": []any{}, "detail": "", "after": map[string]any{}},
			}},
			"salt": map[string]any{"changes": []any{
				map[string]any{"address": "m: service.running a (a)", "restart": "restart", "service": "a", "triggers": []any{}, "data_loss": false},
				map[string]any{"address": "m: service.running b (b)", "restart": "reload", "service": "b", "triggers": []any{}, "data_loss": false},
			}},
		}},
	}
	indexed := s.Judge(t.Context(), doc)
	if len(indexed) != 4 {
		t.Fatalf("the examples decide %v, want 2 denies (both firewalls), the data loss's require and the restart's warning", indexed)
	}
	plainValue, err := ast.InterfaceToValue(doc)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := s.query.Eval(t.Context(), opa.EvalParsedInput(plainValue))
	if err != nil || len(rs) != 1 {
		t.Fatalf("evaluating without the index: %v %v", rs, err)
	}
	var plain []Decision
	plain = s.walk(root, rs[0].Expressions[0].Value.(map[string]any), plain)
	if len(plain) != len(indexed) {
		t.Fatalf("without the index the examples decide %v, with it %v", plain, indexed)
	}
	seen := map[string]bool{}
	for _, d := range indexed {
		seen[d.String()] = true
	}
	for _, d := range plain {
		if !seen[d.String()] {
			t.Errorf("without the index the examples decide %q, with it not", d)
		}
	}
}

// typeOf reads an address as the pattern lib.resources uses does, with or without its
// shortcut for TYPE.NAME.
func TestTheResourceTypeIsThePatterns(t *testing.T) {
	for _, addr := range []string{"eoslab_firewall.main", "eoslab_server.main[0]", `eoslab_dns_record.r["a.b"]`,
		"module.db.eoslab_volume.data", "module.a.module.b.eoslab_server.x", "data.eoslab_image.debian",
		"module.m.data.eoslab_image.debian", "module.a.b", "data.x", "nodot", ".lead", "output.url"} {
		got, ok := typeOf(addr)
		m := resourceType.FindStringSubmatch(addr)
		if ok != (m != nil) || ok && got != m[1] {
			t.Errorf("typeOf(%q) = %q, %v; the pattern reads %q", addr, got, ok, m)
		}
	}
}

// A change read both through an index and through the layer's changes converts once: both
// lists hold the same value.
func TestAChangeConvertsOnceWhereverItIsRead(t *testing.T) {
	var changes []any
	for i := range 150 {
		changes = append(changes, map[string]any{"address": fmt.Sprintf("eoslab_volume.v%03d", i), "data_loss": i%50 == 49,
			"after": map[string]any{"size_gb": float64(i), "tags": []any{"a", fmt.Sprint(i)}}, "attrs": []any{fmt.Sprint("size_gb = ", i)}})
	}
	doc := map[string]any{"plan": map[string]any{"layers": map[string]any{"terraform": map[string]any{"changes": changes}}}}
	got, err := toValue(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := func(ks ...string) ast.Ref {
		r := ast.Ref{}
		for _, k := range ks {
			r = append(r, ast.StringTerm(k))
		}
		return r
	}
	lost, err := got.Find(path("plan", "layers", "terraform", "losing_data"))
	if err != nil || lost.(*ast.Array).Len() != 3 {
		t.Fatalf("losing_data is %v (%v), want changes 49, 99 and 149", lost, err)
	}
	conv, err := got.Find(path("plan", "layers", "terraform", "changes"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ast.InterfaceToValue(changes)
	if err != nil {
		t.Fatal(err)
	}
	if conv.Compare(want) != 0 || conv.Hash() != want.Hash() {
		t.Fatal("the changes convert to something else than OPA's conversion")
	}
	for i, at := range []int{49, 99, 149} {
		if lost.(*ast.Array).Elem(i).Value != conv.(*ast.Array).Elem(at).Value {
			t.Errorf("losing_data[%d] is a copy of change %d, not the change itself", i, at)
		}
	}
}

// A rule that reads only an index converts only the changes it lists: the others are never
// converted (here one that OPA could not convert at all does not stop the judgement).
func TestOnlyWhatRulesReadIsConverted(t *testing.T) {
	dir := t.TempDir()
	rule := `package eos.fw

deny contains c.address if {
	some c in input.plan.layers.terraform.by_type.eoslab_firewall
	c.after.open
}
`
	if err := os.WriteFile(filepath.Join(dir, "fw.rego"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, dir)
	doc := map[string]any{"plan": map[string]any{"layers": map[string]any{"terraform": map[string]any{"changes": []any{
		map[string]any{"address": "eoslab_firewall.a", "after": map[string]any{"open": true}},
		map[string]any{"address": "eoslab_volume.v", "after": map[string]any{"unconvertible": func() {}}},
	}}}}}
	ds := s.Judge(t.Context(), doc)
	if len(ds) != 1 || ds[0].Kind != Deny || ds[0].Msg != "eoslab_firewall.a" {
		t.Fatalf("the rule decides %v, want one deny of eoslab_firewall.a: a change it did not read was converted", ds)
	}
}
