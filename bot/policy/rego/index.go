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
// Each lists the very changes of `changes` (the same terms, not copies), in plan order. They
// are made while converting, not kept in the document the store keeps: `eos policy replay`
// judges a document kept before they existed with them too. A layer that already holds a key
// of that name keeps its own.
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

// place is where in the document the converter is: the layers of a plan get indexes.
type place uint8

const (
	elsewhere place = iota
	atRoot          // the document
	atPlan          // input.plan
	atLayers        // input.plan.layers
	atLayer         // input.plan.layers.NAME
	atChanges       // input.plan.layers.NAME.changes
)

// child is the place of key k's value in an object at p.
func (p place) child(k string) place {
	switch {
	case p == atRoot && k == "plan":
		return atPlan
	case p == atPlan && k == "layers":
		return atLayers
	case p == atLayers:
		return atLayer
	case p == atLayer && k == "changes":
		return atChanges
	}
	return elsewhere
}

// layerIndex is the indexes of layer name (its document, and the term its changes converted
// to), as pairs to add to the layer's object.
func (c *converter) layerIndex(name string, layer map[string]any, changes *ast.Term) [][2]*ast.Term {
	list, ok := layer["changes"].([]any)
	arr, isArr := changes.Value.(*ast.Array)
	if !ok || !isArr || arr.Len() != len(list) {
		return nil
	}
	var lost []*ast.Term
	var types, restarts grouping
	for i, x := range list {
		ch, ok := x.(map[string]any)
		if !ok {
			continue
		}
		t := arr.Elem(i)
		if b, _ := ch["data_loss"].(bool); b {
			lost = append(lost, t)
		}
		switch name {
		case "terraform":
			if addr, ok := ch["address"].(string); ok {
				if typ, ok := typeOf(addr); ok {
					types.add(typ, t)
				}
			}
		case "salt":
			if mark, ok := ch["restart"].(string); ok && mark != "" {
				restarts.add(mark, t)
			}
		}
	}
	var out [][2]*ast.Term
	add := func(k string, v ast.Value) {
		if _, taken := layer[k]; !taken {
			out = append(out, [2]*ast.Term{c.key(k), ast.NewTerm(v)})
		}
	}
	if len(lost) == 0 {
		add(losingData, ast.InternedEmptyArrayValue)
	} else {
		add(losingData, ast.NewArray(lost...))
	}
	switch name {
	case "terraform":
		add(byType, types.object(c))
	case "salt":
		add(byRestart, restarts.object(c))
	}
	return out
}

// grouping collects changes under keys, keeping the order of both.
type grouping struct {
	keys   []string
	groups map[string][]*ast.Term
}

func (g *grouping) add(k string, t *ast.Term) {
	if g.groups == nil {
		g.groups = map[string][]*ast.Term{}
	}
	if _, seen := g.groups[k]; !seen {
		g.keys = append(g.keys, k)
	}
	g.groups[k] = append(g.groups[k], t)
}

// object is the grouping as OPA's object of lists.
func (g *grouping) object(c *converter) ast.Value {
	if len(g.keys) == 0 {
		return ast.InternedEmptyObjectValue
	}
	kvs := make([][2]*ast.Term, len(g.keys))
	for i, k := range g.keys {
		kvs[i] = [2]*ast.Term{c.key(k), ast.NewTerm(ast.NewArray(g.groups[k]...))}
	}
	return ast.NewObject(kvs...)
}
