package rego

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// nativeHash is the hash OPA's own conversion gives, for every kind of value an input
// document holds: if OPA changes how it hashes, this fails rather than a list of changes
// that no longer equals its converted twin in a set.
func TestNativeHashIsOPAsHash(t *testing.T) {
	type typed struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}
	values := []any{
		nil, true, false, "", "a", "änderung → 22", "(known after apply)",
		0, 1, -1, 7, 999, 1000, 12345, math.MaxInt32, int64(1) << 40, uint64(1) << 62, math.MaxInt64,
		0.0, 0.25, -3.5, 1e21, 200.0, float64(1 << 53), json.Number("12"), json.Number("1234567"), json.Number("0.5"),
		[]any{}, []any{"a", 1, nil, []any{true}}, []string{"a", "b"}, []string{},
		map[string]any{}, map[string]string{"size": "large"}, typed{Name: "x", N: 3},
		map[string]any{"action": "create", "after": map[string]any{"rules": []any{map[string]any{"port": "22", "source_ips": []any{"0.0.0.0/0"}}}},
			"count": map[string]any{"before": 2, "after": nil}, "tags": []string{"x"}, "size": 200.0, "data_loss": false},
	}
	for _, v := range values {
		want, err := ast.InterfaceToValue(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := nativeHash(v); got != want.Hash() {
			t.Errorf("nativeHash(%#v) = %d, OPA's hash is %d", v, got, want.Hash())
		}
	}
}

// A rule that reads one field of every change converts only that field of each: a change
// whose other fields OPA could not even convert does not stop the judgement, and the list
// of changes is what OPA's conversion makes, hash included.
func TestIteratingEveryChangeConvertsOnlyTheFieldsRead(t *testing.T) {
	dir := t.TempDir()
	rule := `package eos.all

deny contains c.address if {
	some c in input.plan.layers.terraform.changes
	c.action == "delete"
}
`
	if err := os.WriteFile(filepath.Join(dir, "all.rego"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, dir)
	doc := map[string]any{"plan": map[string]any{"layers": map[string]any{"terraform": map[string]any{"changes": []any{
		map[string]any{"address": "eoslab_volume.a", "action": "delete", "after": map[string]any{"size": 200}},
		map[string]any{"address": "eoslab_volume.b", "action": "create", "after": map[string]any{"unconvertible": func() {}}},
	}}}}}
	ds := s.Judge(t.Context(), doc)
	if len(ds) != 1 || ds[0].Kind != Deny || ds[0].Msg != "eoslab_volume.a" {
		t.Fatalf("the rule decides %v, want one deny of eoslab_volume.a: a field no rule read was converted", ds)
	}

	// A copy of the list, made by a rule (every change converted in full to hash it), is the
	// same element of a set as the list itself.
	set := `package eos.copy

warn contains "the list is its copy" if {
	changes := input.plan.layers.terraform.changes
	changes in {[x | some x in input.plan.layers.terraform.changes]}
}
`
	if err := os.WriteFile(filepath.Join(dir, "copy.rego"), []byte(set), 0o644); err != nil {
		t.Fatal(err)
	}
	s = load(t, dir)
	doc["plan"].(map[string]any)["layers"].(map[string]any)["terraform"].(map[string]any)["changes"].([]any)[1].(map[string]any)["after"] =
		map[string]any{"size": 100, "tags": []any{"a", 1.5, nil}}
	if ds := s.Judge(t.Context(), doc); len(ds) != 2 || ds[1].Kind != Warn {
		t.Fatalf("the rules decide %v, want the deny and the warning: the list of changes does not hash as OPA's own list", ds)
	}
}
