package terraform

import (
	"encoding/json"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

func change(t *testing.T, js string) *tfjson.Change {
	t.Helper()
	var c tfjson.Change
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func TestAttrDiff(t *testing.T) {
	tests := []struct {
		name, change, want string
		all                string // every attribute, when want leaves some out
	}{
		{"one string",
			`{"actions":["update"],"before":{"size":"small","id":"x"},"after":{"size":"large","id":"x"}}`,
			`size "small" → "large"`, ""},
		{"sensitive on either side",
			`{"actions":["update"],"before":{"pw":"old","n":1},"after":{"pw":"new","n":2},"before_sensitive":{"pw":true},"after_sensitive":{}}`,
			`n 1 → 2, pw (sensitive) → (sensitive)`, ""},
		{"nested sensitive hides the whole attribute",
			`{"actions":["update"],"before":{"m":{"a":"1","s":"x"}},"after":{"m":{"a":"2","s":"y"}},"after_sensitive":{"m":{"s":true}}}`,
			`m (sensitive) → (sensitive)`, ""},
		{"unknown only when nothing known changes",
			`{"actions":["update"],"before":{"size":"s","output":"s"},"after":{"size":"l"},"after_unknown":{"output":true}}`,
			`size "s" → "l"`, ""},
		{"only unknown",
			`{"actions":["update"],"before":{"output":"s"},"after":{},"after_unknown":{"output":true}}`,
			`output "s" → (known after apply)`, ""},
		{"many",
			`{"actions":["update"],"before":{"a":1,"b":1,"c":1,"d":1,"e":1},"after":{"a":2,"b":2,"c":2,"d":2,"e":2}}`,
			`a 1 → 2, b 1 → 2, c 1 → 2, and 2 more`,
			"a 1 → 2\nb 1 → 2\nc 1 → 2\nd 1 → 2\ne 1 → 2"},
		{"many with a sensitive one past the first three",
			`{"actions":["update"],"before":{"a":1,"b":1,"c":1,"pw":"old"},"after":{"a":2,"b":2,"c":2,"pw":"new"},"after_sensitive":{"pw":true}}`,
			`a 1 → 2, b 1 → 2, c 1 → 2, and 1 more`,
			"a 1 → 2\nb 1 → 2\nc 1 → 2\npw (sensitive) → (sensitive)"},
		{"a long value is shortened in the detail only",
			`{"actions":["update"],"before":{"motd":"short","n":1},"after":{"motd":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","n":2}}`,
			`motd "short" → "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…, n 1 → 2`,
			"motd \"short\" → \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\nn 1 → 2"},
		{"a long collection too",
			`{"actions":["update"],"before":{"tags":[]},"after":{"tags":["aaaaaaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbbbbbb","cccccccccccccccccccc"]}}`,
			`tags [] → ["aaaaaaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbbbbbb","ccccccccccc…`,
			`tags [] → ["aaaaaaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbbbbbb","cccccccccccccccccccc"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, all := attrDiff(change(t, tt.change))
			if got != tt.want || all != tt.all {
				t.Errorf("got  %s\n     all %q\nwant %s\n     all %q", got, all, tt.want, tt.all)
			}
		})
	}
}

func TestResourceChangesSkipsNoOpsAndReads(t *testing.T) {
	var rcs []*tfjson.ResourceChange
	js := `[
	 {"address":"a.noop","mode":"managed","change":{"actions":["no-op"]}},
	 {"address":"data.x.y","mode":"data","change":{"actions":["read"]}},
	 {"address":"a.new","mode":"managed","change":{"actions":["create"],"after":{"x":1}}},
	 {"address":"a.swap","mode":"managed","change":{"actions":["delete","create"],"before":{"x":1},"after":{"x":2}}},
	 {"address":"a.cbd","mode":"managed","change":{"actions":["create","delete"],"before":{"x":1},"after":{"x":3}}},
	 {"address":"a.gone","mode":"managed","change":{"actions":["delete"],"before":{"x":1}}}
	]`
	if err := json.Unmarshal([]byte(js), &rcs); err != nil {
		t.Fatal(err)
	}
	got := resourceChanges("web", rcs)
	want := []executor.Change{
		{Unit: "web", Action: executor.Create, Address: "a.new", Attrs: "x = 1"},
		{Unit: "web", Action: executor.Replace, Address: "a.swap", Detail: "x 1 → 2"},
		{Unit: "web", Action: executor.Replace, Address: "a.cbd", Detail: "x 1 → 3"},
		{Unit: "web", Action: executor.Delete, Address: "a.gone"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// The full plan shows what a create sets: every attribute, sensitive values masked, values
// Terraform learns while applying said so, nulls left out.
func TestCreatedAttrs(t *testing.T) {
	var c tfjson.Change
	js := `{"actions":["create"],
	 "after":{"name":"grafana","size":"small","password":"hunter2-not-shown","tags":["a","b"],"note":null},
	 "after_unknown":{"id":true},
	 "after_sensitive":{"password":true}}`
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	want := "id = (known after apply)\nname = \"grafana\"\npassword = (sensitive)\nsize = \"small\"\ntags = [\"a\",\"b\"]"
	if got := createdAttrs(&c); got != want {
		t.Errorf("createdAttrs =\n%s\nwant\n%s", got, want)
	}
}

func TestUnitDigest(t *testing.T) {
	plan := func(pw string, order ...string) *tfjson.Plan {
		var p tfjson.Plan
		rc := map[string]string{
			"a": `{"address":"t.a","mode":"managed","change":{"actions":["create"],"after":{"pw":"` + pw + `","n":1},"after_sensitive":{"pw":true},"after_unknown":{"id":true}}}`,
			"b": `{"address":"t.b","mode":"managed","change":{"actions":["no-op"],"before":{"n":1},"after":{"n":1}}}`,
			"c": `{"address":"t.c","mode":"managed","change":{"actions":["delete"],"before":{"id":"123"}}}`,
		}
		var parts []string
		for _, k := range order {
			parts = append(parts, rc[k])
		}
		js := `{"format_version":"1.2","resource_changes":[` + strings.Join(parts, ",") + `],
		  "output_changes":{"o":{"actions":["update"],"before":"x","after":"y","after_sensitive":true}}}`
		if err := json.Unmarshal([]byte(js), &p); err != nil {
			t.Fatal(err)
		}
		return &p
	}
	d1 := unitDigest("prod/web", plan("hunter2", "a", "b", "c"))
	if d2 := unitDigest("prod/web", plan("hunter2", "c", "b", "a")); d1 != d2 {
		t.Errorf("order changed the digest:\n%s\n%s", d1, d2)
	}
	if d3 := unitDigest("prod/web", plan("hunter3", "a", "b", "c")); d1 == d3 {
		t.Error("a different sensitive value gave the same digest")
	}
	if strings.Contains(d1, "hunter2") || strings.Contains(d1, `"y"`) || strings.Contains(d1, "t.b") {
		t.Errorf("digest shows a secret or a no-op:\n%s", d1)
	}
	for _, want := range []string{"terraform prod/web:", "create t.a after={\"n\":1,\"pw\":\"(sensitive sha256:", "delete t.c", "update output.o"} {
		if !strings.Contains(d1, want) {
			t.Errorf("digest lacks %q:\n%s", want, d1)
		}
	}
	if got := unitDigest("prod/web", &tfjson.Plan{}); got != "terraform prod/web: no changes\n" {
		t.Errorf("empty digest = %q", got)
	}
}
