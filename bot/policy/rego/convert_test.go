package rego

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The set's converter gives OPA the value OPA's own conversion gives, for every shape an input
// document holds: nested objects sharing keys, empty objects and lists, strings, bools, null,
// Go and JSON numbers, and types it leaves to OPA (typed slices and maps, a struct).
func TestConvertedInputIsWhatOPAConverts(t *testing.T) {
	type extra struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}
	changes := []any{}
	for i := range 3 {
		changes = append(changes, map[string]any{"unit": fmt.Sprint("svc", i), "action": "create", "data_loss": i == 2,
			"attrs": []any{"size = 200"}, "after": map[string]any{"size": float64(200), "rules": []any{map[string]any{"port": "22"}}},
			"before": map[string]any{}, "forces": []any{}})
	}
	docs := []any{
		map[string]any{
			"plan": map[string]any{"layers": map[string]any{"terraform": map[string]any{"changes": changes}}},
			"time": map[string]any{"hour": 10, "minute": int64(5), "big": uint64(1) << 60, "ratio": 0.25, "n": json.Number("12")},
			"none": nil, "tags": []string{"a", "b"}, "values": map[string]string{"size": "large"}, "typed": extra{Name: "x", N: 3},
			"empty": map[string]any{}, "list": []any{}, "yes": true, "text": "",
		},
		[]any{"a", 1, map[string]any{"a": "a"}},
		"just a string", 42, nil,
	}
	for i, d := range docs {
		want, err := ast.InterfaceToValue(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := toValue(d)
		if err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		if got.Compare(want) != 0 || got.Hash() != want.Hash() {
			t.Errorf("document %d converts to\n%v\nOPA converts it to\n%v", i, got, want)
		}
	}
}

// A document OPA cannot convert is an error, as with OPA's own conversion, and Judge fails
// closed on it.
func TestAnInputThatCannotConvertIsADeny(t *testing.T) {
	doc := map[string]any{"plan": map[string]any{"bad": func() {}}}
	if _, err := toValue(doc); err == nil {
		t.Fatal("a function in the document converted")
	}
	s := load(t, "testdata/policies")
	ds := s.Judge(t.Context(), doc)
	if len(ds) != 1 || ds[0].Kind != Deny {
		t.Fatalf("an unconvertible document decides %v, want one deny", ds)
	}
}
