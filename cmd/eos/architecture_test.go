package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The import rules of docs/ARCHITECTURE.md: who may import whom inside Eos.
var mayImport = map[string][]string{
	"adapters":              {},
	"adapters/":             {"adapters"}, // each platform: the neutral model only
	"catalog":               {},
	"intents":               {"catalog"},
	"executor":              {"catalog"},
	"executor/":             {"executor", "catalog"},
	"internal/":             {},
	"bot/store":             {"adapters", "executor", "catalog"},
	"leader":                {},                                    // the election: PostgreSQL only
	"bot/policy":            {"adapters", "executor", "bot/store"}, // the approval policy as data and decisions: never the engine
	"bot/policy/rego":       {},                                    // policy as code: OPA only
	"bot/store/pgtest":      nil,                                   // test support: anything
	"bot":                   {"adapters", "intents", "catalog", "executor", "bot/store", "bot/policy", "bot/policy/rego", "bot/render", "bot/runwatch", "bot/webapi", "bot/compile", "bot/queue"},
	"bot/compile":           {"catalog", "executor", "intents"},                                                           // intent + catalog + declared state → Spec: never the engine nor its store
	"bot/queue":             {},                                                                                           // the ordered, bounded work queue: generic, nothing of Eos
	"bot/eostest":           nil,                                                                                          // test support: anything
	"bot/render/rendertest": nil,                                                                                          // test support: the texts' shared fixtures
	"bot/e2e":               nil,                                                                                          // test only: the engine's end-to-end and conformance tests
	"bot/enginetest":        nil,                                                                                          // test only: the engine's behaviour tests through its public API
	"bot/web":               {"adapters", "executor", "catalog", "bot/store", "bot/render", "bot/runwatch", "bot/webapi"}, // the status page: never the engine
	"bot/render":            {"adapters", "executor", "catalog", "intents", "bot/store", "bot/policy", "bot/policy/rego"}, // every text Eos posts, from plain data: never the engine
	"bot/runwatch":          {"executor"},                                                                                 // the run-watch hub
	"bot/webapi":            {},                                                                                           // what the page and the engine share
	"cmd/":                  nil,                                                                                          // wiring: anything
}

func TestImportRules(t *testing.T) {
	const mod = "github.com/eosbot/eos/"
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkg := strings.TrimPrefix(p.ImportPath, mod)
		allowed, ok := rule(pkg)
		if !ok {
			t.Errorf("package %s has no import rule: add it to mayImport", pkg)
			continue
		}
		if allowed == nil {
			continue
		}
		checked++
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			if !contains(allowed, dep) && !strings.HasPrefix(dep, pkg+"/") {
				t.Errorf("%s imports %s, which the architecture forbids", pkg, dep)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d packages checked", checked)
	}
	// The engine's parts below it never reach it, not even through another package.
	for _, pkg := range neverEngine {
		out, err := exec.Command("go", "list", "-deps", "../../"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == mod+"bot" {
				t.Errorf("%s depends on bot (the engine), which it must never do", pkg)
			}
		}
	}
}

// neverEngine are the packages under bot/ that must not depend on bot, directly or not.
var neverEngine = []string{"bot/compile", "bot/queue"}

// rule finds the most specific rule for pkg: an exact name, else the longest "prefix/".
func rule(pkg string) ([]string, bool) {
	if r, ok := mayImport[pkg]; ok {
		return r, true
	}
	best, found := "", false
	for k := range mayImport {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(pkg, k) && len(k) > len(best) {
			best, found = k, true
		}
	}
	return mayImport[best], found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
