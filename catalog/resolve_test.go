package catalog

import (
	"errors"
	"strings"
	"testing"
)

func names(rs []*Rendered) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Blueprint.label())
	}
	return strings.Join(out, ",")
}

func TestResolveOrder(t *testing.T) {
	c := loadEmbedded(t)
	nc := service(t, c, "nextcloud")
	cases := []struct {
		name  string
		flags map[string]Value
		want  string
	}{
		{"with sso", map[string]Value{"sso": BoolValue(true)}, "authentik,nextcloud"},
		{"without sso", nil, "nextcloud"},
		{"sso off", map[string]Value{"sso": BoolValue(false)}, "nextcloud"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := c.Resolve(nc, Request{Flags: tc.flags, Env: "production"})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(rs); got != tc.want {
				t.Errorf("resolved %s, want %s", got, tc.want)
			}
			if rs[0].Env != "production" {
				t.Errorf("dependency env = %q, want production", rs[0].Env)
			}
		})
	}
	rs, _ := c.Resolve(nc, Request{Flags: map[string]Value{"sso": BoolValue(true)}})
	if v := rs[0].Values["frontend-for"]; v.Type != Service || v.Text != "nextcloud" {
		t.Errorf("authentik --frontend-for = %+v, want service nextcloud", v)
	}
}

func TestResolveEachServiceOnce(t *testing.T) {
	dir := t.TempDir()
	stack := `service "stack" {
  description = "needs wiki and cache, which both need base"

  requires "wiki" {
    because = "the stack has a wiki"
  }
  requires "cache" {
    because = "the stack has a cache"
  }
}
`
	writeBlueprint(t, dir, "stack", map[string]string{"manifest.hcl": stack})
	for _, name := range []string{"wiki", "cache"} {
		writeBlueprint(t, dir, name, map[string]string{"manifest.hcl": `service "` + name + `" {
  description = "needs base"

  requires "base" {
    flags   = { owner = "shared" }
    because = "everything needs base"
  }
}
`})
	}
	writeBlueprint(t, dir, "base", map[string]string{"manifest.hcl": `service "base" {
  description = "the bottom"

  flag "owner" {
    type        = string
    description = "who owns it"
  }
}
`})
	c, err := Load(Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := c.Resolve(service(t, c, "stack"), Request{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(rs), "base,wiki,cache,stack"; got != want {
		t.Errorf("resolved %s, want %s", got, want)
	}
}

func TestResolveConflictingRequirements(t *testing.T) {
	dir := t.TempDir()
	writeBlueprint(t, dir, "portal", map[string]string{"manifest.hcl": `service "portal" {
  description = "needs nextcloud and grafana, both with sso"

  requires "nextcloud" {
    flags   = { sso = true }
    because = "files"
  }
  requires "grafana" {
    because = "dashboards"
  }
  requires "authentik" {
    flags   = { frontend-for = "grafana" }
    because = "grafana sign-in"
  }
}
`})
	c, err := Load(Embedded(), Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Resolve(service(t, c, "portal"), Request{})
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want a *RequestError", err)
	}
	want := "authentik: required twice with different flags: --frontend-for nextcloud (by nextcloud) and --frontend-for grafana (by portal) (brought in by portal because grafana sign-in)"
	if re.Error() != want {
		t.Errorf("got  %s\nwant %s", re, want)
	}
}

func TestResolveCycleInHandBuiltCatalog(t *testing.T) {
	a := &Blueprint{Kind: KindService, Name: "a", Requires: []Requirement{{Service: "b", Because: "x"}}}
	b := &Blueprint{Kind: KindService, Name: "b", Requires: []Requirement{{Service: "a", Because: "y"}}}
	_, err := New(a, b).Resolve(a, Request{})
	if err == nil || !strings.Contains(err.Error(), "dependency cycle: a → b → a") {
		t.Errorf("got %v, want a dependency cycle", err)
	}
}
