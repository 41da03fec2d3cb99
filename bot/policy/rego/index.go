package rego

import (
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The indexes Judge adds to each layer of a plan's input document (input.plan.layers.NAME),
// beside its changes, so that a rule about a few changes of a big plan need not visit all
// of them (issue #31: the example library over 500 Terraform changes spent most of its
// evaluation in `some c in changes; startswith(c.address, …)`):
//
//   - by_type: Terraform changes by resource type ("eoslab_firewall" → the firewalls' changes);
//   - losing_data: the layer's changes that lose data (data_loss);
//   - by_restart: Salt changes by disruption mark ("restart", "reload", "stop").
//
// Each lists the very changes of `changes` (the same lazy objects, converted once), in plan
// order. They are made for each judgement, not kept in the document the store keeps: `eos
// policy replay` judges a document kept before they existed with them too. A layer that
// already holds a key of that name keeps its own.
const (
	byType     = "by_type"
	losingData = "losing_data"
	byRestart  = "by_restart"
)

// resourceType is the pattern of a Terraform address's resource type: after any module path,
// the type before the name ("module.db.eoslab_volume.data" → "eoslab_volume"; a data source
// "data.eoslab_image.debian" → "data.eoslab_image"). lib.resources in examples/policies uses
// the same pattern for documents without the index (Rego unit tests).
var resourceType = regexp.MustCompile(`^(?:module\.[^.]+\.)*((?:data\.)?[^.]+)\.`)

// typeOf is the resource type of a Terraform address, as resourceType reads it; most
// addresses are TYPE.NAME, read without the regular expression (a third of indexing's time).
func typeOf(addr string) (string, bool) {
	if !strings.HasPrefix(addr, "module.") && !strings.HasPrefix(addr, "data.") {
		i := strings.IndexByte(addr, '.')
		return addr[:max(i, 0)], i > 0
	}
	if m := resourceType.FindStringSubmatch(addr); m != nil {
		return m[1], true
	}
	return "", false
}

// layersOf is document doc's input.plan.layers, if it has them.
func layersOf(doc map[string]any) (map[string]any, bool) {
	plan, ok := doc["plan"].(map[string]any)
	if !ok {
		return nil, false
	}
	layers, ok := plan["layers"].(map[string]any)
	return layers, ok
}

// withIndexes is document doc with the indexes added to each layer of input.plan.layers,
// its changes' hashes taken from hashes (hashChanges): the maps on the way to the layers are
// copied, the caller's document is left as it is.
func withIndexes(doc map[string]any, hashes changeHashes) map[string]any {
	layers, ok := layersOf(doc)
	if !ok {
		return doc
	}
	indexed := make(map[string]any, len(layers))
	for name, l := range layers {
		indexed[name] = l
		if layer, ok := l.(map[string]any); ok {
			indexed[name] = indexLayer(name, layer, hashes[name])
		}
	}
	plan := doc["plan"].(map[string]any)
	return with(doc, "plan", with(plan, "layers", indexed))
}

// with is a copy of m with key k set to v.
func with(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}

// indexLayer is a copy of layer name with its changes and its indexes as lists of lazy
// changes (lists.go), hashes holding each change's hash.
func indexLayer(name string, layer map[string]any, hashes []int) map[string]any {
	raw, ok := layer["changes"].([]any)
	if !ok {
		return layer
	}
	changes := make([]lazyChange, 0, len(raw))
	all := make([]*ast.Term, len(raw))
	terms, stands := make([]ast.Term, len(raw)), make([]hashed, len(raw))
	lost := []*ast.Term{}
	var types, restarts grouping
	for i, x := range raw {
		ch, ok := x.(map[string]any)
		if !ok {
			v, err := ast.InterfaceToValue(x)
			if err != nil {
				return layer // OPA fails on it when a rule reads it, and Judge denies
			}
			all[i] = ast.NewTerm(v)
			continue
		}
		stands[i] = hashed(hashes[i])
		c := newLazyChange(ch, &terms[i], &stands[i])
		changes = append(changes, c)
		all[i] = c.term
		if b, _ := ch["data_loss"].(bool); b {
			lost = append(lost, c.term)
		}
		switch name {
		case "terraform":
			if addr, ok := ch["address"].(string); ok {
				if typ, ok := typeOf(addr); ok {
					types.add(typ, c.term)
				}
			}
		case "salt":
			if mark, ok := ch["restart"].(string); ok && mark != "" {
				restarts.add(mark, c.term)
			}
		}
	}
	out := with(layer, "changes", list(all))
	add := func(k string, v any) {
		if _, taken := layer[k]; !taken {
			out[k] = v
		}
	}
	add(losingData, list(lost))
	switch name {
	case "terraform":
		add(byType, types.object())
	case "salt":
		add(byRestart, restarts.object())
	}
	for _, c := range changes {
		c.settle()
	}
	return out
}

// grouping collects changes under keys, each group in plan order.
type grouping struct {
	keys   []string
	groups map[string][]*ast.Term
}

func (g *grouping) add(k string, change *ast.Term) {
	if g.groups == nil {
		g.groups = map[string][]*ast.Term{}
	}
	if _, ok := g.groups[k]; !ok {
		g.keys = append(g.keys, k)
	}
	g.groups[k] = append(g.groups[k], change)
}

// object is the groups as an object of lists, {} when there are none.
func (g *grouping) object() map[string]any {
	out := make(map[string]any, len(g.keys))
	for _, k := range g.keys {
		out[k] = list(g.groups[k])
	}
	return out
}
