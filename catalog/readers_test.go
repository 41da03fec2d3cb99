package catalog

import (
	"strings"
	"testing"
)

func TestReadersNamesTheLayersAValueReaches(t *testing.T) {
	c := loadEmbedded(t)
	gr := service(t, c, "grafana")
	for name, want := range map[string]string{"domain": "salt terraform nomad", "port": "nomad", "admin-password": ""} {
		if got := strings.Join(gr.Readers(name), " "); got != want {
			t.Errorf("grafana.Readers(%s) = %q, want %q", name, got, want)
		}
	}
	lvm, _ := c.Operation("resize", "lvm")
	if got := strings.Join(lvm.Readers("name"), " "); got != "salt" {
		t.Errorf("resize lvm reads NAME in %q, want salt", got)
	}
}
