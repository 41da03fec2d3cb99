package rego

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// bigDoc is a production plan of n firewall changes, one in ten opening SSH to the world,
// one volume destroyed, and a Salt restart, at 10:00 on a Wednesday.
func bigDoc(n int) map[string]any {
	var tf []any
	for i := range n {
		src := "10.0.0.0/8"
		if i%10 == 3 {
			src = "0.0.0.0/0"
		}
		tf = append(tf, map[string]any{"unit": fmt.Sprintf("svc%03d", i), "address": "eoslab_firewall.main", "action": "create", "data_loss": false,
			"attrs": []any{}, "detail": "", "after": map[string]any{"rules": []any{
				map[string]any{"direction": "in", "protocol": "tcp", "port": "22", "source_ips": []any{src}}}}})
	}
	tf = append(tf, map[string]any{"unit": "db", "address": "eoslab_volume.data", "action": "delete", "data_loss": true, "attrs": []any{}, "detail": "", "after": map[string]any{}})
	return map[string]any{
		"request": map[string]any{"environment": "production", "target": "platform"},
		"risk":    map[string]any{"data_loss": true},
		"time":    map[string]any{"weekday": "Wednesday", "hour": 10, "minute": 0, "zone": "UTC"},
		"plan": map[string]any{"layers": map[string]any{
			"terraform": map[string]any{"changes": tf},
			"salt": map[string]any{"changes": []any{
				map[string]any{"address": "m: service.running a (a)", "restart": "restart", "service": "a", "triggers": []any{}, "data_loss": false}}},
		}},
	}
}

// strings of decisions, for comparing two judgements.
func said(ds []Decision) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind+": "+d.String())
	}
	return out
}

// A big plan's packages judged side by side decide exactly what the one query over data.eos
// decides, in the same order; a small plan is judged by the one query.
func TestAPlansPackagesJudgedSideBySideDecideTheSame(t *testing.T) {
	s := load(t, filepath.Join("..", "..", "..", "examples", "policies"))
	if len(s.units) != 6 {
		t.Fatalf("the example library's units: %d, want one per package below eos (6, lib's included)", len(s.units))
	}
	big := bigDoc(sideBySideFrom)
	if !s.sideBySide(hashChanges(big)) || s.sideBySide(hashChanges(bigDoc(10))) {
		t.Fatalf("a plan of %d changes is judged side by side, one of 11 is not: want both true", sideBySideFrom+3)
	}
	for range 3 { // the order of the units changes as their costs are learnt
		together := said(s.Judge(t.Context(), big))
		v := lazyDocument(big, hashChanges(big))
		one, err := s.decisions(s.eval(t.Context(), s.query, v))
		if err != nil {
			t.Fatal(err)
		}
		sortDecisions(one)
		opened := 0 // firewalls opening SSH to the world: one in ten
		for i := range sideBySideFrom {
			if i%10 == 3 {
				opened++
			}
		}
		if len(together) != opened+2 || !slices.Equal(together, said(one)) { // and the data loss's require, the restart's warning
			t.Fatalf("side by side the examples decide\n%s\nthe one query decides\n%s", strings.Join(together, "\n"), strings.Join(said(one), "\n"))
		}
	}
	for _, u := range s.units {
		if u.cost.Load() <= 0 {
			t.Errorf("unit %s has no cost learnt after three judgements", u.name)
		}
	}
}

// A set with rules in package eos itself, or in one package below it, is judged by the one
// query, whatever the plan's size.
func TestASetInOnePackageHasNoUnits(t *testing.T) {
	for _, pkgs := range [][]string{{"eos", "eos.fw"}, {"eos.fw", "eos.fw.ssh"}} {
		dir := t.TempDir()
		for i, p := range pkgs {
			body := fmt.Sprintf("package %s\n\nwarn contains \"%s\" if { input.request.environment == \"production\" }\n", p, p)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.rego", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s := load(t, dir)
		if s.units != nil {
			t.Errorf("packages %v make units %v, want none", pkgs, s.units)
		}
		if got := said(s.Judge(t.Context(), bigDoc(sideBySideFrom))); len(got) != 2 {
			t.Errorf("packages %v decide %v, want a warning of each", pkgs, got)
		}
	}
}

// Side by side, the set still fails closed: an error in one package, or a time-out, is one
// deny that names it, whatever the other packages decided.
func TestSideBySideFailsClosed(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.rego":  "package eos.ok\n\nwarn contains \"fine\" if { true }\n",
		"err.rego": "package eos.err\n\ndeny contains msg if {\n\tmsg := sprintf(\"%d\", [to_number(input.request.environment)])\n}\n",
	}
	for f, body := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := load(t, dir)
	got := s.Judge(t.Context(), bigDoc(sideBySideFrom))
	if len(got) != 1 || got[0].Kind != Deny || !strings.Contains(got[0].Msg, "the policy could not judge this plan") {
		t.Fatalf("an error in one package, side by side: %v, want one deny that says so", said(got))
	}
	slow := "package eos.slow\n\ndeny contains \"x\" if {\n\tcount([x | some x in numbers.range(1, 100000000)]) < 0\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "err.rego"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(t.Context(), []string{dir}, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	got = s.Judge(t.Context(), bigDoc(sideBySideFrom))
	if len(got) != 1 || got[0].Kind != Deny || !strings.Contains(got[0].Msg, "took longer than 50ms") {
		t.Fatalf("a slow package, side by side: %v, want one deny naming the time-out", said(got))
	}
}
