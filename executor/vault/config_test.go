package vault

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
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
		{"template of the old layout", Config{Address: "http://x", Token: "t", PathTemplate: "eos/{env}/{service}/{name}"}, "has {name}"},
		{"template without service", Config{Address: "http://x", Token: "t", PathTemplate: "eos/{env}"}, "lacks {env} or {service}"},
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
		tmpl, env, service string
		want, wantErr      string
	}{
		{DefaultPathTemplate, "production", "grafana", "eos/production/grafana", ""},
		{"apps/{service}-{env}", "staging", "nextcloud", "apps/nextcloud-staging", ""},
		{DefaultPathTemplate, "production", "a/b", "", "service"},
		{DefaultPathTemplate, "..", "grafana", "", "environment"},
		{DefaultPathTemplate, "", "grafana", "", "is empty"},
		{DefaultPathTemplate, "production", "graf ana", "", "only letters"},
	}
	for _, tt := range tests {
		got, err := expandPath(tt.tmpl, tt.env, tt.service)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("expandPath(%q, %q) error = %v, want %q", tt.env, tt.service, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("expandPath(%q, %q) = %q, %v; want %q", tt.env, tt.service, got, err, tt.want)
		}
	}
}

// TestSecretNamesArePathSegments: a secret name that could climb out of the entry's
// neighbourhood (the old layout's per-secret paths sit below it) is refused.
func TestSecretNamesArePathSegments(t *testing.T) {
	s := &Store{mount: "secret", template: DefaultPathTemplate}
	for _, name := range []string{"../../sys", "", "pass word", "a/b"} {
		spec := executor.Spec{Env: "production", Units: []executor.Unit{{Service: "grafana", Secrets: []string{name}}}}
		if _, err := s.entries(spec, false); err == nil || !strings.Contains(err.Error(), "secret name") {
			t.Errorf("secret name %q: err = %v, want a refusal", name, err)
		}
	}
}

func TestNomadSecretsPath(t *testing.T) {
	for _, tt := range []struct{ mount, tmpl, want string }{
		{"", "", "secret/data/eos/{env}/{service}"},
		{"/kv/", "apps/{service}-{env}", "kv/data/apps/{service}-{env}"},
	} {
		if got := NomadSecretsPath(tt.mount, tt.tmpl); got != tt.want {
			t.Errorf("NomadSecretsPath(%q, %q) = %q, want %q", tt.mount, tt.tmpl, got, tt.want)
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
