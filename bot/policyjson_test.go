package bot

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// The kept policy input is json.Marshal's bytes, whatever the document holds: encodeDocument
// only writes the common values faster. A plan's document with every kind of change, and
// values chosen for each of encoding/json's special cases, encode to the same bytes.
func TestTheKeptPolicyInputIsJSONMarshalsBytes(t *testing.T) {
	p, three := samplePlan(), 3
	p.Request = adapters.PostRef{Platform: "mattermost", Channel: "infra", ID: "p1"}
	p.Plan.Layers = append(p.Plan.Layers,
		executor.LayerPlan{Layer: executor.Terraform, Status: executor.PlanChanges, Changes: []executor.Change{
			{Unit: "nextcloud", Action: executor.Replace, Address: "eoslab_volume.data", Forces: "format", DataLoss: true, Size: "200G",
				Attrs: "format \"xfs\" → \"ext4\"\nsize_gb 200 → 1e-7\nratio = 0.25\nbig = 1e21\nlist = [1, \"<a>\", null]"},
		}},
		executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanChanges, Changes: []executor.Change{
			{Unit: "nextcloud", Action: executor.Update, Address: "file./etc/x", Salt: &executor.SaltState{Minion: "m1", ID: "x", Function: "file.managed"}},
		}},
		executor.LayerPlan{Layer: executor.Nomad, Status: executor.PlanChanges, Changes: []executor.Change{
			{Unit: "nextcloud", Action: executor.Create, Address: "job.nextcloud", Nomad: &executor.NomadGroup{Job: "nextcloud", Group: "web", Count: executor.IntChange{After: &three}}},
		}})
	alice := Person{Platform: "mattermost", ID: "u-alice", Name: "alice & <bob>", Matches: []string{"alice", "group:dev"}}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	docs := map[string]any{
		"a plan's input": policyInput(p, alice, map[string]map[string]string{"nextcloud": {"storage": "200G", "note": "tab\there"}},
			time.Date(2026, 11, 26, 14, 5, 0, 0, time.UTC), berlin),
		"special values": map[string]any{
			"texts": []any{"", "plain", "quote\"", `back\slash`, "<>&", "ctl\x01\x1f", "del\x7f", "é → ü", "line\u2028", "para\u2029", "bad\xffutf8", "日本"},
			"numbers": []any{0, -1, int64(math.MaxInt64), 0.0, math.Copysign(0, -1), 1.5, 1e-6, 9.99e-7, 1e20, 1e21, -3e25, 123456789.125,
				float32(1.5), json.Number("12"), uint8(7)},
			"empty":  map[string]any{},
			"nils":   []any{nil, []any(nil), map[string]any(nil)},
			"nested": map[string]any{"z": true, "a": false, "é": map[string]string{"k": "v"}, "s": []string{"x"}},
		},
	}
	for name, doc := range docs {
		want, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeDocument(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), map[string]any{"f": func() {}}} {
		if _, err := encodeDocument(bad); err == nil {
			t.Errorf("%v encoded; json.Marshal refuses it", bad)
		}
	}
}

func BenchmarkKeptPolicyInput(b *testing.B) {
	p := samplePlan()
	doc := policyInput(p, Person{Platform: "console", ID: "alice", Name: "alice"}, nil, time.Now(), time.UTC)
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(doc)
		}
	})
	b.Run("encodeDocument", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			encodeDocument(doc)
		}
	})
}
