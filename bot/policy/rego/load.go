package rego

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	opa "github.com/open-policy-agent/opa/v1/rego"
)

// Kinds of decision.
const (
	Deny    = "deny"
	Require = "require"
	Warn    = "warn"
)

// root is the package every rule of Eos's lives under.
const root = "eos"

// DefaultTimeout bounds one evaluation when Load is given none.
const DefaultTimeout = time.Second

// Set is a compiled policy set, ready to judge plans. It is safe for concurrent use.
type Set struct {
	query opa.PreparedEvalQuery
	// units are the packages below eos, each with a query of its own, judged side by side
	// over a big plan (sidebyside.go); nil when the set's rules are in one package.
	units   []*unit
	timeout time.Duration
	sha     string
	// rules locates each deciding rule: "eos.firewall.deny" → "firewall.rego:12, 20".
	rules map[string]string
	// groups are the "group:NAME" strings the rules mention, sorted.
	groups []string
	// handles are the handles the rules name as literal approvers, sorted (handles.go).
	handles []string
}

// Load reads every .rego file under dirs (tests, *_test.rego, are left to `eos policy test`),
// compiles them together and prepares the query once. A file that does not parse or a set that
// does not compile is an error naming file and line. timeout bounds each evaluation (0 means
// DefaultTimeout). No files at all is a nil Set and no error: no policy as code.
func Load(ctx context.Context, dirs []string, timeout time.Duration) (*Set, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	files, err := regoFiles(dirs)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	h := sha256.New()
	modules := map[string]*ast.Module{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(f), len(src))
		h.Write(src)
		m, err := ast.ParseModuleWithOpts(f, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return nil, fmt.Errorf("policy %s", err)
		}
		modules[f] = m
	}
	c := ast.NewCompiler()
	if c.Compile(modules); c.Failed() {
		return nil, fmt.Errorf("the policy set does not compile: %s", c.Errors)
	}
	q, err := opa.New(opa.Query("data."+root), opa.Compiler(c), opa.StrictBuiltinErrors(true)).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("preparing the policy query: %w", err)
	}
	units, err := prepareUnits(ctx, c)
	if err != nil {
		return nil, err
	}
	return &Set{query: q, units: units, timeout: timeout, sha: hex.EncodeToString(h.Sum(nil)), rules: ruleLines(c.Modules), groups: groupsNamed(c.Modules),
		handles: approverHandles(c.Modules)}, nil
}

// regoFiles lists the policy files under dirs, sorted, without tests.
func regoFiles(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(path, ".rego") && !strings.HasSuffix(path, "_test.rego") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading policy_dirs: %w", err)
		}
	}
	slices.Sort(out)
	return out, nil
}

// ruleLines locates the deny, warn and require rules of every package under root.
func ruleLines(modules map[string]*ast.Module) map[string]string {
	lines := map[string][]string{}
	for _, m := range modules {
		pkg := strings.TrimPrefix(m.Package.Path.String(), "data.")
		if pkg != root && !strings.HasPrefix(pkg, root+".") {
			continue
		}
		for _, r := range m.Rules {
			name := r.Head.Name.String()
			if len(r.Head.Reference) > 0 {
				name = r.Head.Reference[0].String()
			}
			if name != Deny && name != Warn && name != Require {
				continue
			}
			loc := r.Location
			lines[pkg+"."+name] = append(lines[pkg+"."+name], fmt.Sprintf("%s:%d", filepath.Base(loc.File), loc.Row))
		}
	}
	out := map[string]string{}
	for k, v := range lines {
		slices.Sort(v)
		out[k] = strings.Join(v, ", ")
	}
	return out
}

// Rules are the set's deciding rules, each with where it is written, sorted:
// "eos.firewall.deny (firewall.rego:12, 20)".
func (s *Set) Rules() []string {
	out := make([]string, 0, len(s.rules))
	for name, at := range s.rules {
		out = append(out, name+" ("+at+")")
	}
	slices.Sort(out)
	return out
}

// Timeout bounds each evaluation of the set (Load's, or DefaultTimeout).
func (s *Set) Timeout() time.Duration { return s.timeout }

// SHA256 is the hash of the set's files (names and contents): the audit log names it with
// every decision, as proof of what judged a plan.
func (s *Set) SHA256() string { return s.sha }

// groupsNamed are the "group:NAME" strings the modules mention: the groups the engine asks the
// platform about for a requester, so input.request.requester.groups holds every group a rule
// could test.
func groupsNamed(modules map[string]*ast.Module) []string {
	seen := map[string]bool{}
	for _, m := range modules {
		ast.WalkTerms(m, func(t *ast.Term) bool {
			if s, ok := t.Value.(ast.String); ok && strings.HasPrefix(string(s), "group:") && len(s) > len("group:") {
				seen[string(s)] = true
			}
			return false
		})
	}
	return slices.Sorted(maps.Keys(seen))
}

// Groups are the "group:NAME" strings the set's rules mention, sorted.
func (s *Set) Groups() []string { return s.groups }
