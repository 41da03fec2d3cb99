package rego

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The document Judge evaluates, converted as rules read it, is the value OPA's own conversion
// gives of the document with its indexes, for every shape an input document holds: nested
// objects, empty objects and lists, strings, bools, null, Go and JSON numbers, and types OPA
// converts through JSON (typed slices and maps, a struct).
func TestConvertedInputIsWhatOPAConverts(t *testing.T) {
	type extra struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}
	changes := func() []any {
		var out []any
		for i := range 3 {
			out = append(out, map[string]any{"unit": fmt.Sprint("svc", i), "action": "create", "data_loss": i == 2, "address": "eoslab_volume.v",
				"attrs": []any{"size = 200"}, "after": map[string]any{"size": float64(200), "rules": []any{map[string]any{"port": "22"}}},
				"before": map[string]any{}, "forces": []any{}})
		}
		return out
	}
	doc := func() map[string]any {
		return map[string]any{
			"plan": map[string]any{"layers": map[string]any{"terraform": map[string]any{"changes": changes(), "status": "changes"},
				"salt": map[string]any{"changes": []any{map[string]any{"restart": "restart"}, "not a change"}}}},
			"time": map[string]any{"hour": 10, "minute": int64(5), "big": uint64(1) << 60, "ratio": 0.25, "n": json.Number("12")},
			"none": nil, "tags": []string{"a", "b"}, "values": map[string]string{"size": "large"}, "typed": extra{Name: "x", N: 3},
			"empty": map[string]any{}, "list": []any{}, "yes": true, "text": "",
		}
	}
	// The same document as OPA sees it: the indexes written out.
	want := doc()
	tf := want["plan"].(map[string]any)["layers"].(map[string]any)["terraform"].(map[string]any)
	tf["losing_data"] = []any{tf["changes"].([]any)[2]}
	tf["by_type"] = map[string]any{"eoslab_volume": tf["changes"]}
	salt := want["plan"].(map[string]any)["layers"].(map[string]any)["salt"].(map[string]any)
	salt["losing_data"] = []any{}
	salt["by_restart"] = map[string]any{"restart": []any{salt["changes"].([]any)[0]}}
	for i, c := range []struct{ doc, want any }{
		{doc(), want},
		{map[string]any{"plan": map[string]any{"layers": "none"}}, map[string]any{"plan": map[string]any{"layers": "none"}}},
		{[]any{"a", 1, map[string]any{"a": "a"}}, nil},
		{"just a string", nil}, {42, nil}, {nil, nil},
	} {
		if c.want == nil {
			c.want = c.doc
		}
		want, err := ast.InterfaceToValue(c.want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := toValue(c.doc)
		if err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		if got.Compare(want) != 0 || got.Hash() != want.Hash() {
			t.Errorf("document %d converts to\n%v\nOPA converts it to\n%v", i, got, want)
		}
	}
}

// A value OPA cannot convert is a deny naming the input document when a rule reads it, not a
// crash: OPA's lazy conversion panics on it.
func TestAnInputThatCannotConvertIsADeny(t *testing.T) {
	s := load(t, "testdata/policies")
	for _, doc := range []any{
		map[string]any{"plan": map[string]any{"terraform": map[string]any{"resource_changes": func() {}}}},
		map[string]any{"plan": map[string]any{"terraform": map[string]any{"resource_changes": []any{map[string]any{"type": make(chan int)}}}}},
		func() {},
	} {
		ds := s.Judge(t.Context(), doc)
		if len(ds) != 1 || ds[0].Kind != Deny || !strings.Contains(ds[0].Msg, "input document") {
			t.Errorf("an unconvertible document decides %v, want one deny naming the input document", ds)
		}
	}
	// The set judges again afterwards: nothing of OPA's was left half-way.
	ok := map[string]any{"request": map[string]any{"environment": "production"}, "plan": map[string]any{"terraform": map[string]any{
		"resource_changes": []any{map[string]any{"type": "eoslab_firewall", "address": "eoslab_firewall.a", "after": map[string]any{"ports": []any{"22"}}}}}}}
	if ds := s.Judge(t.Context(), ok); len(ds) != 2 || ds[0].Kind != Deny || ds[1].Kind != Warn {
		t.Errorf("after a deny for an unconvertible document, the set decides %v, want a deny and a warning", ds)
	}
}

// toValue is input as Judge evaluates it over one query.
func toValue(input any) (ast.Value, error) {
	doc, ok := input.(map[string]any)
	if !ok {
		return ast.InterfaceToValue(input)
	}
	return lazyDocument(doc, hashChanges(doc)), nil
}
