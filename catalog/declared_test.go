package catalog

import (
	"reflect"
	"testing"
)

func TestResolveDeployedDependencyKeepsItsValues(t *testing.T) {
	c := loadEmbedded(t)
	nc := service(t, c, "nextcloud")
	var asked []string
	deployed := func(s string) (map[string]string, bool) {
		asked = append(asked, s)
		if s != "authentik" {
			return nil, false
		}
		return map[string]string{"domain": "sso.example.org", "frontend-for": "grafana"}, true
	}
	rs, err := c.Resolve(nc, Request{Flags: map[string]Value{"sso": BoolValue(true)}, Env: "local", Deployed: deployed})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(rs); got != "authentik,nextcloud" {
		t.Fatalf("resolved %s", got)
	}
	ak := rs[0]
	if !ak.Deployed || rs[1].Deployed {
		t.Errorf("Deployed = %v (authentik), %v (nextcloud); want true, false", ak.Deployed, rs[1].Deployed)
	}
	// The declared domain stays; the flag the requires block sets wins over the declared one.
	if d, f := ak.Values["domain"].Text, ak.Values["frontend-for"].Text; d != "sso.example.org" || f != "nextcloud" {
		t.Errorf("authentik --domain %s --frontend-for %s, want sso.example.org and nextcloud", d, f)
	}
	if got := ak.Terraform.Vars["domain"]; got != "sso.example.org" {
		t.Errorf("terraform domain = %v", got)
	}
	if !reflect.DeepEqual(asked, []string{"authentik"}) {
		t.Errorf("asked about %v, want only the dependency authentik (never the target)", asked)
	}

	// Not deployed: defaults, as before.
	rs, err = c.Resolve(nc, Request{Flags: map[string]Value{"sso": BoolValue(true)}, Env: "local", Deployed: func(string) (map[string]string, bool) { return nil, false }})
	if err != nil {
		t.Fatal(err)
	}
	if _, given := rs[0].Values["domain"]; rs[0].Deployed || given || rs[0].Terraform.Vars["domain"] != "auth.local.test" {
		t.Errorf("undeployed authentik: Deployed %v, values %v, terraform domain %v (want the environment's default, auth.local.test)", rs[0].Deployed, rs[0].Values, rs[0].Terraform.Vars["domain"])
	}
}

func TestDeclaredFlagsLeaveOutSecretsAndStaleValues(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	got := nc.DeclaredFlags(map[string]string{
		"admin-password": "hunter2", // secret: never from stored values
		"storage":        "200G",
		"sso":            "true",
		"gone":           "x",          // no such flag any more
		"domain":         "not a host", // refused by its type now
	})
	if len(got) != 2 || got["storage"].Text != "200G" || got["storage"].Type != Size || !got["sso"].Bool {
		t.Errorf("DeclaredFlags = %+v, want storage 200G and sso true only", got)
	}
}

func TestRequirementsFollowTheValues(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	rq, err := nc.Requirements(Request{Flags: nc.DeclaredFlags(map[string]string{"sso": "true"}), Env: "local"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rq) != 1 || rq[0].Service != "authentik" || rq[0].Because != "--sso" || rq[0].Flags["frontend-for"].Text != "nextcloud" {
		t.Errorf("Requirements with sso = %+v", rq)
	}
	rq, err = nc.Requirements(Request{Flags: nc.DeclaredFlags(map[string]string{"sso": "false"})})
	if err != nil || len(rq) != 0 {
		t.Errorf("Requirements without sso = %+v, %v; want none", rq, err)
	}
}

// An adopt that takes a Terraform variable from what runs declares the flag it comes from: a
// volume grown to 300 GB by hand is --storage 300G; a variable no single flag sets (the
// server's size, not a flag of nextcloud) changes no flag.
func TestAdoptedFlagsTakeTheRealValueBackToItsFlag(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	storage, err := ParseSize("200G")
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Flags: map[string]Value{"storage": storage}, Env: "local"}
	r, err := nc.Render(req)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]any{}
	for k, v := range r.Terraform.Vars {
		vars[k] = v
	}
	vars["volume_gb"] = float64(300) // as read back from a plan's JSON
	vars["server_size"] = "xlarge"
	flags, changed := nc.AdoptedFlags(req, vars)
	if got := flags["storage"].Text; got != "300G" {
		t.Errorf("--storage = %q, want 300G", got)
	}
	if want := map[string][2]string{"storage": {"200G", "300G"}}; !reflect.DeepEqual(changed, want) {
		t.Errorf("changed = %v, want %v", changed, want)
	}
	again, err := nc.Render(Request{Flags: flags, Env: "local"})
	if err != nil || again.Salt.Pillar["lv_size"] != "300G" {
		t.Errorf("rendered with the adopted flags: pillar lv_size = %v (%v), want 300G", again.Salt.Pillar["lv_size"], err)
	}
}
