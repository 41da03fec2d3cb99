package main

import "testing"

// The refusal of a typed secret names the entry and key Eos really writes (one entry per
// service, one key per secret), with or without Vault configured.
func TestSecretsPathNamesEntryAndKey(t *testing.T) {
	for _, tt := range []struct {
		vault *VaultConfig
		want  string
	}{
		{nil, "secret/eos/{env}/{service}, key {name}"},
		{&VaultConfig{Address: "http://127.0.0.1:8200"}, "secret/eos/{env}/{service}, key {name}"},
		{&VaultConfig{Mount: "/kv/", PathTemplate: "apps/{env}/{service}"}, "kv/apps/{env}/{service}, key {name}"},
	} {
		c := &Config{Vault: tt.vault}
		if got := c.secretsPath(); got != tt.want {
			t.Errorf("secretsPath(%+v) = %q, want %q", tt.vault, got, tt.want)
		}
	}
}
