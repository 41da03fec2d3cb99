package salt

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// batchNamespace finds, in a combined dry run's variant of a unit's state, the key of the
// unit's pillar under eos_batch (batchPrologue).
var batchNamespace = regexp.MustCompile(`'` + batchPillar + `:([\w]+)'`)

// startCombined answers a state.apply of several sls at once as Salt does: each file's states
// computed by f.run with that unit's part of the pillar, each marked with its __sls__ and
// numbered after the states of the files before it; a state id declared by two files makes
// Salt refuse the whole run. Called with mu held.
func (f *fakeSaltAPI) startCombined(c map[string]any, sls string, pillar map[string]any, test, queue bool, matched []string) any {
	mods := strings.Split(sls, ",")
	f.calls = append(f.calls, applyCall{Tgt: c["tgt"].(string), TgtType: c["tgt_type"].(string), SLS: sls, Pillar: pillar, Test: test, Queue: queue})
	f.jid++
	jid := fmt.Sprintf("20240101000000%06d", f.jid)
	if passed, _ := c["jid"].(string); passed != "" {
		jid = passed
	}
	ns, _ := pillar[batchPillar].(map[string]any)
	j := &fakeJob{minions: matched, returns: map[string]any{}, released: map[string]bool{}, test: test}
	for _, m := range matched {
		if f.down[m] || f.lostReturns[m] {
			continue
		}
		combined := map[string]any{}
		declared := map[string]string{}
		run := 0
		var refused []any
		for _, mod := range mods {
			text, found := f.files[strings.ReplaceAll(mod, ".", "/")+".sls"]
			if !found {
				refused = append(refused, fmt.Sprintf("No matching sls found for '%s' in env 'base'", mod))
				continue
			}
			var own map[string]any
			if k := batchNamespace.FindStringSubmatch(text); k != nil {
				own, _ = ns[k[1]].(map[string]any)
			}
			got, ok := f.run(m, mod, own, test).(map[string]any)
			if !ok {
				refused = append(refused, fmt.Sprint(f.run(m, mod, own, test)))
				continue
			}
			keys := make([]string, 0, len(got))
			for k := range got {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(a, b int) bool {
				return got[keys[a]].(map[string]any)["__run_num__"].(int) < got[keys[b]].(map[string]any)["__run_num__"].(int)
			})
			for _, k := range keys {
				st := map[string]any{}
				for kk, v := range got[k].(map[string]any) {
					st[kk] = v
				}
				id := strings.Split(k, "_|-")[1]
				if other, dup := declared[id]; dup && other != mod {
					refused = append(refused, fmt.Sprintf("Detected conflicting IDs, SLS IDs need to be globally unique.\n    The conflicting ID is '%s' and is found in SLS 'base:%s' and SLS 'base:%s'", id, other, mod))
				}
				declared[id] = mod
				st["__sls__"], st["__run_num__"] = mod, run
				run++
				combined[k] = st
			}
		}
		if refused != nil {
			j.returns[m] = refused
		} else {
			j.returns[m] = combined
		}
	}
	f.jobs[jid] = j
	f.publishJob(jid, j, c, false)
	return map[string]any{"jid": jid, "minions": matched}
}
