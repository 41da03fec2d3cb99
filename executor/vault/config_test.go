package vault

import (
	"strings"
	"testing"
)

func TestConfigNormalise(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"defaults", Config{Address: "http://x", Token: "t"}, ""},
		{"no address", Config{Token: "t"}, "Address is required"},
		{"no credentials", Config{Address: "http://x"}, "Token or AppRole is required"},
		{"both credentials", Config{Address: "http://x", Token: "t", AppRole: &AppRole{RoleID: "r", SecretID: "s"}}, "not both"},
		{"approle without secret id", Config{Address: "http://x", AppRole: &AppRole{RoleID: "r"}}, "both RoleID and SecretID"},
		{"template without name", Config{Address: "http://x", Token: "t", PathTemplate: "eos/{env}/{service}"}, "lacks {name}"},
		{"short secrets", Config{Address: "http://x", Token: "t", SecretLength: 8}, "below the minimum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.normalise()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("normalise: %v", err)
				}
				if tt.cfg.Mount != "secret" || tt.cfg.PathTemplate != DefaultPathTemplate || tt.cfg.SecretLength != 32 || tt.cfg.ProviderPath != "eos/providers" {
					t.Errorf("defaults not applied: %+v", tt.cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("normalise error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestExpandPath(t *testing.T) {
	tests := []struct {
		tmpl, env, service, name string
		want, wantErr            string
	}{
		{DefaultPathTemplate, "production", "grafana", "admin_password", "eos/production/grafana/admin_password", ""},
		{"apps/{service}-{env}/{name}", "staging", "nextcloud", "db.password", "apps/nextcloud-staging/db.password", ""},
		{DefaultPathTemplate, "production", "grafana", "../../sys", "", "secret name"},
		{DefaultPathTemplate, "production", "a/b", "x", "", "service"},
		{DefaultPathTemplate, "..", "grafana", "x", "", "environment"},
		{DefaultPathTemplate, "production", "grafana", "", "", "is empty"},
		{DefaultPathTemplate, "production", "grafana", "pass word", "", "only letters"},
	}
	for _, tt := range tests {
		got, err := expandPath(tt.tmpl, tt.env, tt.service, tt.name)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("expandPath(%q, %q, %q) error = %v, want %q", tt.env, tt.service, tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("expandPath(%q, %q, %q) = %q, %v; want %q", tt.env, tt.service, tt.name, got, err, tt.want)
		}
	}
}

func TestIsEnvName(t *testing.T) {
	for name, want := range map[string]bool{
		"HCLOUD_TOKEN": true, "_X": true, "a1": true,
		"": false, "1A": false, "A-B": false, "A=B": false, "A B": false,
	} {
		if got := isEnvName(name); got != want {
			t.Errorf("isEnvName(%q) = %v, want %v", name, got, want)
		}
	}
}
