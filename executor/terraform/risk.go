package terraform

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

// reasons are Terraform's action reasons in a reviewer's words.
var reasons = map[tfjson.ActionReason]string{
	tfjson.ActionReasonReplaceBecauseCannotUpdate:    "cannot update in place",
	tfjson.ActionReasonReplaceBecauseTainted:         "tainted",
	tfjson.ActionReasonReplaceByRequest:              "replacement requested",
	tfjson.ActionReasonReplaceByTriggers:             "replace_triggered_by changed",
	tfjson.ActionReasonDeleteBecauseNoResourceConfig: "no longer in the module",
	tfjson.ActionReasonDeleteBecauseNoModule:         "its module is gone",
	tfjson.ActionReasonDeleteBecauseCountIndex:       "count no longer has its index",
	tfjson.ActionReasonDeleteBecauseEachKey:          "for_each no longer has its key",
	tfjson.ActionReasonDeleteBecauseWrongRepetition:  "count or for_each changed",
	tfjson.ActionReasonDeleteBecauseNoMoveTarget:     "moved to an address that does not exist",
}

// reasonOf is rc's action reason in words; "" when Terraform gives none.
func reasonOf(rc *tfjson.ResourceChange) string {
	if r, ok := reasons[rc.ActionReason]; ok {
		return r
	}
	return strings.ReplaceAll(string(rc.ActionReason), "_", " ")
}

// replacePaths writes the plan's replace_paths as attribute paths: "image, rules[0].port".
func replacePaths(c *tfjson.Change) string {
	var out []string
	for _, p := range c.ReplacePaths {
		steps, ok := p.([]any)
		if !ok {
			continue
		}
		var b strings.Builder
		for _, s := range steps {
			switch x := s.(type) {
			case string:
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(x)
			case float64:
				fmt.Fprintf(&b, "[%d]", int(x))
			case json.Number:
				fmt.Fprintf(&b, "[%s]", x)
			}
		}
		if b.Len() > 0 && !slices.Contains(out, b.String()) {
			out = append(out, b.String())
		}
	}
	return strings.Join(out, ", ")
}

// markDataLoss flags the changes that delete or replace a resource of holds, with the size
// of the data from the plan's values. rcs are the plan's resource changes, for the values.
func markDataLoss(changes []executor.Change, rcs []*tfjson.ResourceChange, holds []string) {
	if len(holds) == 0 {
		return
	}
	for i := range changes {
		c := &changes[i]
		if c.Action != executor.Delete && c.Action != executor.Replace || !holdsData(c.Address, holds) {
			continue
		}
		c.DataLoss = true
		for _, rc := range rcs {
			if rc != nil && rc.Address == c.Address && rc.Change != nil {
				c.Size = dataSize(rc.Change.Before)
				if c.Size == "" {
					c.Size = dataSize(rc.Change.After)
				}
			}
		}
	}
}

// holdsData reports whether address is one of holds, or an instance of one
// ("eoslab_volume.data[0]").
func holdsData(address string, holds []string) bool {
	for _, h := range holds {
		if address == h || strings.HasPrefix(address, h+"[") {
			return true
		}
	}
	return false
}

// sizeAttrs are the attributes that say how large a volume or database is, in GB when they
// are numbers.
var sizeAttrs = []string{"size_gb", "size", "disk_size", "allocated_storage", "storage_gb"}

// dataSize reads the size of a resource from its values: "200G"; "" when none says.
func dataSize(v any) string {
	obj, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range sizeAttrs {
		v := obj[k]
		if n, ok := v.(json.Number); ok { // terraform-exec decodes plans with UseNumber
			v, _ = n.Float64()
		}
		switch x := v.(type) {
		case float64:
			if x > 0 && x == math.Trunc(x) {
				return strconv.FormatInt(int64(x), 10) + "G"
			}
		case string:
			if x != "" {
				return x
			}
		}
	}
	return ""
}
