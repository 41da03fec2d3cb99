package rego

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func input(env string, ports []string, memory int) map[string]any {
	ps := make([]any, len(ports))
	for i, p := range ports {
		ps[i] = p
	}
	return map[string]any{
		"request": map[string]any{"environment": env},
		"plan": map[string]any{
			"terraform": map[string]any{"resource_changes": []any{
				map[string]any{"address": "eoslab_firewall.proxy", "type": "eoslab_firewall", "after": map[string]any{"ports": ps}},
			}},
			"nomad": map[string]any{"groups": []any{map[string]any{"name": "app", "memory_mb": memory}}},
		},
	}
}

func load(t *testing.T, dirs ...string) *Set {
	t.Helper()
	s, err := Load(context.Background(), dirs, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The three kinds of decision come back with the author's message and the rule that made it:
// package, rule name, file and line.
func TestDecisionsNameTheirRule(t *testing.T) {
	s := load(t, "testdata/policies")
	got := s.Judge(context.Background(), input("production", []string{"22", "443"}, 16384))
	var lines []string
	for _, d := range got {
		lines = append(lines, d.Kind+": "+d.String())
	}
	want := []string{
		"deny: eoslab_firewall.proxy opens SSH to the world in production (eos.firewall.deny, firewall.rego:3)",
		"require: group app asks for 16384 MiB, more than 8 GiB (eos.capacity.require, capacity.rego:3)",
		"warn: a firewall changes (eos.firewall.warn, firewall.rego:11)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("decisions:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if r := got[1]; len(r.Approvers) != 1 || r.Approvers[0] != "group:capacity" || r.Approvals != 1 {
		t.Errorf("require = %+v, want group:capacity ×1", r)
	}
	if g := s.Groups(); len(g) != 1 || g[0] != "group:capacity" {
		t.Errorf("groups the rules name = %v, want [group:capacity]: the engine asks the platform about these for the requester", g)
	}
	if quiet := s.Judge(context.Background(), input("staging", []string{"443"}, 512)); len(quiet) != 1 || quiet[0].Kind != Warn {
		t.Errorf("a plan the rules allow: %+v, want only the warning", quiet)
	}
}

// A set that does not compile is refused with file and line; a set that errs or takes too long
// while judging denies the plan, naming why (fail closed).
func TestThePolicyFailsClosed(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.rego"), []byte("package eos.bad\n\ndeny contains msg if {\n\tmsg := undefined_fn(1)\n}\n"), 0o644)
	if _, err := Load(context.Background(), []string{dir}, 0); err == nil || !strings.Contains(err.Error(), "bad.rego:4") {
		t.Fatalf("a set that does not compile: %v, want an error at bad.rego:4", err)
	}
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "err.rego"), []byte("package eos.err\n\ndeny contains msg if {\n\tmsg := sprintf(\"%d\", [to_number(input.request.environment)])\n}\n"), 0o644)
	s := load(t, dir)
	got := s.Judge(context.Background(), input("production", nil, 0))
	if len(got) != 1 || got[0].Kind != Deny || !strings.Contains(got[0].Msg, "the policy could not judge this plan") {
		t.Fatalf("an evaluation error: %+v, want a deny that says so", got)
	}
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "slow.rego"), []byte("package eos.slow\n\ndeny contains \"x\" if {\n\tcount([x | some x in numbers.range(1, 100000000)]) < 0\n}\n"), 0o644)
	slow, err := Load(context.Background(), []string{dir}, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	got = slow.Judge(context.Background(), input("production", nil, 0))
	if len(got) != 1 || got[0].Kind != Deny || !strings.Contains(got[0].Msg, "took longer than 50ms") {
		t.Fatalf("a slow evaluation: %+v, want a deny naming the time-out", got)
	}
}

// The set's hash changes with any file's content; no files is no policy.
func TestTheSetsHashFollowsItsFiles(t *testing.T) {
	dir := t.TempDir()
	body := "package eos.x\n\nwarn contains \"a\" if { true }\n"
	os.WriteFile(filepath.Join(dir, "x.rego"), []byte(body), 0o644)
	a := load(t, dir).SHA256()
	os.WriteFile(filepath.Join(dir, "x.rego"), []byte(strings.Replace(body, `"a"`, `"b"`, 1)), 0o644)
	if b := load(t, dir).SHA256(); a == b || len(a) != 64 {
		t.Fatalf("hashes %s and %s: want two different SHA-256", a, b)
	}
	if s, err := Load(context.Background(), []string{t.TempDir()}, 0); s != nil || err != nil {
		t.Fatalf("no files: %v, %v; want no set", s, err)
	}
}
