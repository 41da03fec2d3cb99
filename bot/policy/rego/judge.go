package rego

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	opa "github.com/open-policy-agent/opa/v1/rego"
)

// Decision is one rule's verdict on a plan.
type Decision struct {
	// Kind is Deny, Require or Warn.
	Kind string `json:"kind"`
	// Msg is the policy author's message.
	Msg string `json:"msg"`
	// Rule names the rule: package and rule name ("eos.firewall.deny").
	Rule string `json:"rule"`
	// Where is the file and line of the rule's definitions ("firewall.rego:12").
	Where string `json:"where,omitempty"`
	// Approvers and Approvals are, for Require, who must also approve and how many of them.
	Approvers []string `json:"approvers,omitempty"`
	Approvals int      `json:"approvals,omitempty"`
}

// String is the decision as the preview lists it: "⛔ msg (eos.firewall.deny, firewall.rego:12)".
func (d Decision) String() string {
	where := d.Rule
	if d.Where != "" {
		where += ", " + d.Where
	}
	return d.Msg + " (" + where + ")"
}

// Judge evaluates the set over input (a JSON-shaped document: maps, slices, strings, numbers,
// bools) and returns every decision, denies first, then requires, then warnings, each kind in
// a stable order. It fails closed: an evaluation error, a time-out, or a decision of the wrong
// shape is a Deny that says so.
func (s *Set) Judge(ctx context.Context, input any) []Decision {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	out, err := s.decide(ctx, input)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return []Decision{failed(fmt.Errorf("evaluation took longer than %s", s.timeout))}
	}
	if err != nil {
		return []Decision{failed(err)}
	}
	sortDecisions(out)
	return out
}

// sortDecisions orders decisions denies first, then requires, then warnings, each kind by rule
// and message.
func sortDecisions(out []Decision) {
	order := map[string]int{Deny: 0, Require: 1, Warn: 2}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if order[a.Kind] != order[b.Kind] {
			return order[a.Kind] < order[b.Kind]
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Msg < b.Msg
	})
}

// decide evaluates the set over input: over a big plan, its units side by side
// (sidebyside.go); otherwise the one query over data.eos.
func (s *Set) decide(ctx context.Context, input any) ([]Decision, error) {
	doc, ok := input.(map[string]any)
	if !ok {
		v, err := ast.InterfaceToValue(input)
		if err != nil {
			return nil, fmt.Errorf("the plan's input document: %w", err)
		}
		return s.decisions(s.eval(ctx, s.query, v))
	}
	hashes := hashChanges(doc)
	if s.sideBySide(hashes) {
		return s.evalUnits(ctx, doc, hashes)
	}
	return s.decisions(s.eval(ctx, s.query, lazyDocument(doc, hashes)))
}

// decisions reads the decisions of the one query's result, the document of data.eos.
func (s *Set) decisions(rs opa.ResultSet, err error) ([]Decision, error) {
	if err != nil {
		return nil, err
	}
	return s.walk(root, resultDoc(rs), nil), nil
}

// resultDoc is the document a query over a package gives: its rules' values by name, and its
// sub-packages' documents; nil when the package holds nothing.
func resultDoc(rs opa.ResultSet) map[string]any {
	if len(rs) == 1 && len(rs[0].Expressions) == 1 {
		doc, _ := rs[0].Expressions[0].Value.(map[string]any)
		return doc
	}
	return nil
}

// eval runs the prepared query over input v. The document converts as rules read it
// (convert.go), and OPA panics on a value it cannot convert: that is an error here, which
// Judge turns into a deny, not a crash of the engine.
func (s *Set) eval(ctx context.Context, query opa.PreparedEvalQuery, v ast.Value) (rs opa.ResultSet, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the plan's input document: %v", r)
		}
	}()
	return query.Eval(ctx, opa.EvalParsedInput(v))
}

// failed is the deny an evaluation that went wrong becomes.
func failed(err error) Decision {
	return Decision{Kind: Deny, Rule: root, Msg: "the policy could not judge this plan, so it cannot be approved: " + err.Error()}
}

// walk collects the decisions of package pkg (doc is its document) and of the packages below.
func (s *Set) walk(pkg string, doc map[string]any, out []Decision) []Decision {
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := doc[k]
		switch k {
		case Deny, Warn, Require:
			if items, ok := v.([]any); ok {
				for _, it := range items {
					out = append(out, s.decision(pkg, k, it))
				}
				continue
			}
		}
		if sub, ok := v.(map[string]any); ok {
			out = s.walk(pkg+"."+k, sub, out)
		}
	}
	return out
}

// decision reads one element of a deny, warn or require set.
func (s *Set) decision(pkg, kind string, it any) Decision {
	d := Decision{Kind: kind, Rule: pkg + "." + kind, Where: s.rules[pkg+"."+kind]}
	switch v := it.(type) {
	case string:
		d.Msg = v
	case map[string]any:
		d.Msg, _ = v["msg"].(string)
		if kind == Require {
			for _, a := range asList(v["approvers"]) {
				if str, ok := a.(string); ok {
					d.Approvers = append(d.Approvers, str)
				}
			}
			d.Approvals = 1
			if n, ok := asInt(v["approvals"]); ok {
				d.Approvals = n
			}
		}
	}
	switch {
	case strings.TrimSpace(d.Msg) == "":
		return Decision{Kind: Deny, Rule: d.Rule, Where: d.Where, Msg: fmt.Sprintf("a %s decision without a message (%v): write it as a string, or an object with \"msg\"", kind, it)}
	case kind == Require && (len(d.Approvers) == 0 || d.Approvals < 1 || d.Approvals > len(d.Approvers) && !anyGroup(d.Approvers)):
		return Decision{Kind: Deny, Rule: d.Rule, Where: d.Where, Msg: fmt.Sprintf("%s: a require decision needs \"approvers\" (who may release it) and \"approvals\" of at least 1", d.Msg)}
	}
	return d
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// asInt reads a JSON number OPA gives back (json.Number) or a Go number.
func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		return int(n), n == float64(int(n))
	case interface{ Int64() (int64, error) }:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

// anyGroup reports whether approvers names a group, which may hold more people than entries.
func anyGroup(approvers []string) bool {
	for _, a := range approvers {
		if strings.HasPrefix(a, "group:") {
			return true
		}
	}
	return false
}
