package terraform

import (
	"encoding/json"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

func TestReplacementNamesWhatForcesIt(t *testing.T) {
	rcs := []*tfjson.ResourceChange{
		{Address: "eoslab_volume.data", Type: "eoslab_volume", Name: "data", ActionReason: tfjson.ActionReasonReplaceBecauseCannotUpdate,
			Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionDelete, tfjson.ActionCreate},
				Before: map[string]any{"format": "xfs", "size_gb": json.Number("200")}, After: map[string]any{"format": "ext4", "size_gb": json.Number("200")},
				ReplacePaths: []any{[]any{"format"}, []any{"rules", json.Number("0"), "port"}, []any{"format"}}}},
		{Address: "eoslab_server.main", Type: "eoslab_server", Name: "main", ActionReason: tfjson.ActionReasonReplaceBecauseTainted,
			Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionCreate, tfjson.ActionDelete}}},
		{Address: "eoslab_volume.logs[0]", Type: "eoslab_volume", Name: "logs",
			Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionDelete}, Before: map[string]any{"size": "50G"}}},
		{Address: "eoslab_dns_record.main", Type: "eoslab_dns_record", Name: "main",
			Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionDelete}}},
	}
	changes := resourceChanges("nextcloud", rcs)
	markDataLoss(changes, rcs, []string{"eoslab_volume.data", "eoslab_volume.logs"})
	want := []executor.Change{
		{Unit: "nextcloud", Action: executor.Replace, Address: "eoslab_volume.data", Detail: `format "xfs" → "ext4"`,
			Forces: "format, rules[0].port", Reason: "cannot update in place", DataLoss: true, Size: "200G"},
		{Unit: "nextcloud", Action: executor.Replace, Address: "eoslab_server.main", Reason: "tainted"},
		{Unit: "nextcloud", Action: executor.Delete, Address: "eoslab_volume.logs[0]", DataLoss: true, Size: "50G"},
		{Unit: "nextcloud", Action: executor.Delete, Address: "eoslab_dns_record.main"},
	}
	if len(changes) != len(want) {
		t.Fatalf("changes = %+v", changes)
	}
	for i := range want {
		if changes[i] != want[i] {
			t.Errorf("change %d = %+v\nwant       %+v", i, changes[i], want[i])
		}
	}
}
