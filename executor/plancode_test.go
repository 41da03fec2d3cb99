package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

type fixedSecrets struct{ plan SecretPlan }

func (s fixedSecrets) PlanSecrets(context.Context, Spec) (SecretPlan, error)   { return s.plan, nil }
func (s fixedSecrets) EnsureSecrets(context.Context, Spec) (SecretPlan, error) { return s.plan, nil }
func (s fixedSecrets) PurgeSecrets(context.Context, Spec) ([]string, error)    { return nil, nil }

// A stored plan is json.Marshal's bytes of it, whether its spec's bytes are the ones encoded
// for its hash (a plan as Runner.Plan made it) or encoded afresh (a plan whose spec was set
// since, a plan built otherwise): the store's records and the hash never disagree.
func TestAPlanEncodesAsJSONMarshalDoes(t *testing.T) {
	var calls []string
	layers := []Layer{&recLayer{name: Salt, calls: &calls}, &recLayer{name: Terraform, calls: &calls}, &recLayer{name: Nomad, calls: &calls}}
	withSecrets, _ := NewRunner(RunnerConfig{Layers: layers, Secrets: fixedSecrets{SecretPlan{Create: []string{"secret/a#b"}}}})
	without, _ := NewRunner(RunnerConfig{Layers: layers})
	s := spec()
	s.Units[0].Secrets = []string{"admin_password"}
	s.Units[0].Terraform.Files = map[string]string{"main.tf": "resource \"x\" \"y\" {\n  a = \"<&>\"\n}\n", "vars.tf": "variable \"v\" {}"}
	s.Units[0].Terraform.Vars = map[string]any{"port": 3000, "name": "svc", "list": []any{1.5, "x"}}
	s.Units[0].Nomad.Template = "job \"svc\" {\n\tgroup \"g\" {}\n}"
	s.Asked = []string{"--port 3000"}

	for name, r := range map[string]*Runner{"with secrets": withSecrets, "without secrets": without} {
		plan, err := r.Plan(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if plan.hashed == nil || !identical(reflect.ValueOf(plan.hashed.spec), reflect.ValueOf(plan.Spec)) {
			t.Fatalf("%s: the plan does not keep the spec's bytes its hash was computed from", name)
		}
		changed := plan
		changed.Spec.Changes = []string{"--port 3000 → 3001 (Nomad)"} // set after planning: encoded afresh
		built := Plan{Spec: s, Layers: plan.Layers, Secrets: plan.Secrets, Hash: plan.Hash}
		for what, p := range map[string]Plan{"as planned": plan, "its spec set since": changed, "built": built} {
			want, err := json.Marshal(&p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %s:\n got %s\nwant %s", name, what, got, want)
			}
		}
	}
}

// planTail is Plan's JSON after its spec: the same fields, in the same order, with the same
// tags. A field added to Plan and not to planTail would be left out of every stored plan.
func TestPlanTailIsPlanAfterItsSpec(t *testing.T) {
	var fields []reflect.StructField
	for f := range reflect.TypeFor[Plan]().Fields() {
		if f.IsExported() {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 || fields[0].Name != "Spec" || fields[0].Tag != `json:"spec"` {
		t.Fatalf("Plan's first field is not its spec: %v", fields)
	}
	tail := reflect.TypeFor[planTail]()
	if tail.NumField() != len(fields)-1 {
		t.Fatalf("planTail has %d fields, Plan %d after its spec", tail.NumField(), len(fields)-1)
	}
	for i, f := range fields[1:] {
		if g := tail.Field(i); g.Name != f.Name || g.Type != f.Type || g.Tag != f.Tag {
			t.Errorf("planTail field %d is %s %s %q, Plan's is %s %s %q", i, g.Name, g.Type, g.Tag, f.Name, f.Type, f.Tag)
		}
	}
}

// identical tells a shallow copy from a value set since, field by field.
func TestIdenticalSpecs(t *testing.T) {
	a := spec()
	same := a
	if !identical(reflect.ValueOf(a), reflect.ValueOf(same)) {
		t.Error("a shallow copy is not identical")
	}
	for what, change := range map[string]func(s *Spec){
		"a text":           func(s *Spec) { s.Env = "production" },
		"a bool":           func(s *Spec) { s.PurgeData = true },
		"a list set":       func(s *Spec) { s.Asked = []string{"--x"} },
		"units replaced":   func(s *Spec) { s.Units = append([]Unit(nil), s.Units...) },
		"an empty list":    func(s *Spec) { s.Changes = []string{} },
		"a list shortened": func(s *Spec) { s.Units = s.Units[:0] },
	} {
		b := a
		change(&b)
		if identical(reflect.ValueOf(a), reflect.ValueOf(b)) {
			t.Errorf("%s: still identical", what)
		}
	}
}
