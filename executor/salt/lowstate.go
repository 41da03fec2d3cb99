package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
)

// lowChunk is one compiled state of state.show_low_sls: enough to name the states that
// trigger it. A test=True return does not say why a state would run (a watch met, an
// onchanges met); its low chunk does.
type lowChunk struct {
	State     string              `json:"state"`
	ID        string              `json:"__id__"`
	Name      string              `json:"name"`
	Fun       string              `json:"fun"`
	Watch     []map[string]string `json:"watch"`
	Listen    []map[string]string `json:"listen"`
	OnChanges []map[string]string `json:"onchanges"`
}

// key is the chunk's key in a state.apply return: "<module>_|-<id>_|-<name>_|-<function>".
func (c lowChunk) key() string { return c.State + "_|-" + c.ID + "_|-" + c.Name + "_|-" + c.Fun }

// lowIndex is one minion's compiled states by their return key.
type lowIndex map[string]lowChunk

// parseLow reads one minion's answer to state.show_low_sls: a list of chunks, or a list of
// strings (a render error), which gives no index.
func parseLow(raw json.RawMessage) lowIndex {
	var chunks []lowChunk
	if json.Unmarshal(raw, &chunks) != nil {
		return nil
	}
	idx := lowIndex{}
	for _, c := range chunks {
		idx[c.key()] = c
	}
	return idx
}

// lowStates compiles a unit's state on the minions on with its pillar (state.show_low_sls,
// which runs nothing) and returns each minion's index. With queue=True: like state.apply, Salt
// refuses show_low_sls while the minion runs states ("The function "state.apply" is running
// as PID …"), which left a restart's triggers unnamed whenever another job ran.
func (l *Layer) lowStates(ctx context.Context, sls string, on []string, pillar map[string]any) (map[string]lowIndex, error) {
	if pillar == nil {
		pillar = map[string]any{}
	}
	tgt, tgtType, _ := onList(on)
	ret, err := l.read(ctx, true, nil, map[string]any{
		"client": "local", "tgt": tgt, "tgt_type": tgtType, "fun": "state.show_low_sls",
		"arg": []any{sls}, "kwarg": map[string]any{"pillar": pillar, "saltenv": l.saltEnv, "queue": true},
	})
	if err != nil {
		return nil, fmt.Errorf("state.show_low_sls %s on %s: %w", sls, tgt, err)
	}
	var answers map[string]json.RawMessage
	_ = json.Unmarshal(ret[0], &answers)
	out := map[string]lowIndex{}
	for m, a := range answers {
		if idx := parseLow(a); idx != nil {
			out[m] = idx
		}
	}
	return out, nil
}

// triggers names the states of m that would change and that s watches (or listens to, or
// runs on changes of): "watch: file /etc/nginx/nginx.conf", sorted. None without an index.
func (idx lowIndex) triggers(s stateResult, m minionReturn) []string {
	c, ok := idx[s.Key]
	if !ok {
		return nil
	}
	var out []string
	for _, req := range []struct {
		kind string
		refs []map[string]string
	}{{"watch", c.Watch}, {"listen", c.Listen}, {"onchanges", c.OnChanges}} {
		for _, ref := range req.refs {
			for mod, name := range ref {
				if t, ok := changing(m, mod, name); ok {
					out = append(out, req.kind+": "+mod+" "+t)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// changing finds m's state of module mod, with ID or name ref, if it would change, and
// names it by what it manages (its name: a file's path rather than its ID).
func changing(m minionReturn, mod, ref string) (string, bool) {
	for _, s := range m.States {
		if s.Module == mod && (s.ID == ref || s.Name == ref) && s.wouldChange() {
			if s.Name != "" {
				return s.Name, true
			}
			return ref, true
		}
	}
	return "", false
}

// needsTriggers reports whether any assessment of m's states would name its triggers, so
// that the layer compiles the state only then.
func needsTriggers(m minionReturn) bool {
	for _, s := range m.States {
		if what, _, _ := restartOf(s); s.wouldChange() && what != "" {
			return true
		}
	}
	return false
}
