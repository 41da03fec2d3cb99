package nomad

import (
	"strings"
	"testing"
	"time"
)

func TestNewChecksConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		want string // "" means valid
	}{
		{"valid", Config{Address: "http://127.0.0.1:4646"}, ""},
		{"valid tls", Config{Address: "https://nomad.example:4646", TLS: &TLSConfig{ServerName: "nomad", Insecure: true}}, ""},
		{"missing cert files", Config{Address: "https://nomad.example:4646", TLS: &TLSConfig{ClientCert: "/nonexistent/c.pem", ClientKey: "/nonexistent/k.pem"}}, "making the nomad client"},
		{"no address", Config{}, "Address is required"},
		{"no scheme", Config{Address: "127.0.0.1:4646"}, `Address "127.0.0.1:4646"`},
		{"ftp", Config{Address: "ftp://host"}, "want http://host:port"},
		{"negative timeout", Config{Address: "http://h:1", DeployTimeout: -time.Second}, "DeployTimeout -1s is negative"},
		{"cert without key", Config{Address: "http://h:1", TLS: &TLSConfig{ClientCert: "c.pem"}}, "go together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l, err := New(tt.cfg)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("New: %v", err)
			case tt.want == "" && (l.timeout != DefaultDeployTimeout || l.Name() != "nomad"):
				t.Errorf("timeout = %s, name = %s; want the defaults", l.timeout, l.Name())
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestJobID(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ service, env, want string }{
		{"nextcloud", "production", "nextcloud--production"},
		{"grafana", "local", "grafana--local"},
		{"grafana", "", "grafana"},
	} {
		if got := JobID(tt.service, tt.env); got != tt.want {
			t.Errorf("JobID(%q, %q) = %q, want %q", tt.service, tt.env, got, tt.want)
		}
	}
}
