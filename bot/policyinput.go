package bot

import (
	"context"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// policyInput is the input document a plan's policy as code (bot/policy/rego) judges: one
// document for the whole cross-layer plan, JSON-shaped (maps, slices, strings, numbers,
// bools). It holds what the preview shows and nothing more: the request with every value it
// set (secret values are never among them: a secret flag is refused before any plan), who
// asked and on which platform, the plan layer by layer (each change's unit, action, address,
// detail, every attribute line with sensitive values already masked, Terraform's values
// before and after as data, a Salt state's or a Nomad group's data (policyattrs.go), what
// forces it, data
// loss, and what a layer says would fail), the secrets it creates or reuses by name, the
// risk counts, the declared values before the change, and the time. requester.groups are the
// entries the platform confirms for the person now ("group:sre").
func policyInput(p *store.Plan, requester Person, declared map[string]map[string]string, now time.Time, zone *time.Location) map[string]any {
	spec := p.Plan.Spec
	units := make([]any, 0, len(spec.Units))
	for _, u := range spec.Units {
		unit := map[string]any{"service": u.Service, "destroy": u.Destroy, "values": stringMap(u.Values), "reason": u.Reason}
		if u.Salt != nil {
			unit["salt_targets"] = strs(u.Salt.Targets)
		}
		units = append(units, unit)
	}
	layers := map[string]any{}
	var destroys, replaces int
	dataLoss := false
	for _, lp := range p.Plan.Layers {
		changes := make([]any, 0, len(lp.Changes))
		for _, c := range lp.Changes {
			before, after := attrValues(lp.Layer, c) // policyattrs.go
			change := map[string]any{"before": before, "after": after,
				"unit": c.Unit, "action": string(c.Action), "address": c.Address, "detail": c.Detail,
				"attrs": strs(nonEmptyLines(c.Attrs)), "forces": strs(splitList(c.Forces)), "reason": c.Reason,
				"data_loss": c.DataLoss, "size": c.Size,
			}
			for k, v := range changeData(c) { // policyattrs.go
				change[k] = v
			}
			changes = append(changes, change)
			switch c.Action {
			case executor.Delete:
				destroys++
			case executor.Replace:
				replaces++
			}
			dataLoss = dataLoss || c.DataLoss
		}
		layers[string(lp.Layer)] = map[string]any{"status": string(lp.Status), "summary": lp.Summary,
			"changes": changes, "failures": strs(lp.Failures), "kept": lp.Kept}
	}
	secrets := map[string]any{"create": []any{}, "reuse": []any{}}
	if sp := p.Plan.Secrets; sp != nil {
		secrets["create"], secrets["reuse"] = strs(sp.Create), strs(sp.Reuse)
	}
	before := map[string]any{}
	for svc, vals := range declared {
		before[svc] = stringMap(vals)
	}
	if zone == nil {
		zone = time.UTC
	}
	local := now.In(zone)
	return map[string]any{
		"request": map[string]any{
			"verb": spec.Verb, "target": spec.Target, "environment": spec.Env, "asked": strs(spec.Asked),
			"purge_secrets": spec.PurgeSecrets, "purge_data": spec.PurgeData, "adopt": spec.Adopt,
			"units": units, "channel": p.Request.Platform + ":" + p.Request.Channel,
			"requester": map[string]any{"platform": requester.Platform, "id": requester.ID, "handle": requester.Name,
				"groups": strs(groupsOf(requester.Matches))},
		},
		"plan":     map[string]any{"id": p.ID, "hash": p.Plan.Hash, "layers": layers, "secrets": secrets},
		"risk":     map[string]any{"data_loss": dataLoss, "destroys": destroys, "replaces": replaces},
		"declared": before,
		"time": map[string]any{"utc": now.UTC().Format(time.RFC3339), "zone": zone.String(), "local": local.Format(time.RFC3339),
			"weekday": local.Weekday().String(), "hour": local.Hour(), "minute": local.Minute()},
	}
}

// changeKeys are the field names of every change of the document (policyInput, changeData),
// and of a layer's: OPA shares one value for each (rego.InternKeys), so a rule that reads
// every change of a big plan does not pay an allocation per field of each.
var changeKeys = []string{
	// a layer, and any change
	"status", "summary", "changes", "failures", "kept", "unit", "action", "address", "detail", "attrs",
	"forces", "reason", "data_loss", "size", "before", "after",
	// a Salt state (executor.SaltState)
	"minion", "id", "function", "name", "restart", "service", "triggers", "data_path", "format", "mount", "remove",
	// a Nomad group (executor.NomadGroup), its tasks and fields
	"job", "group", "count", "tasks", "fields", "driver", "image", "cpu", "memory_mb", "memory_max_mb",
}

func init() { rego.InternKeys(changeKeys...) }

// strs is a list as the document holds it: never null, so a rule can count it.
func strs(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// groupsOf keeps the group entries of a person's matches ("group:sre").
func groupsOf(matches []string) []string {
	var out []string
	for _, m := range matches {
		if strings.HasPrefix(m, policy.GroupPrefix) {
			out = append(out, m)
		}
	}
	return out
}

// PolicyInputOf is the input document the policy set in force judges plan id by, as judgeCode
// builds it: what a rule sees of that plan now (the README's policy examples show it).
func (e *Engine) PolicyInputOf(ctx context.Context, id string) (map[string]any, error) {
	p, err := e.st.Plan(ctx, id)
	if err != nil {
		return nil, err
	}
	e.code.mu.Lock()
	set, zone := e.code.set, e.code.zone
	e.code.mu.Unlock()
	var groups []string
	if set != nil {
		groups = set.Groups()
	}
	return e.inputOf(ctx, p, groups, zone), nil
}
