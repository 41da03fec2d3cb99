package eostest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// GrowVolume sets a simulated volume's size by hand, as someone with cloud access would.
func GrowVolume(t *testing.T, h *Harness, name string, gb int) {
	t.Helper()
	EditCloud(t, h, "volume", name, "size_gb", gb)
}

// EditCloud sets one attribute of a simulated cloud object (eoslab's JSON file of kind and
// name) by hand, as someone with cloud access would: drift for Eos to find.
func EditCloud(t *testing.T, h *Harness, kind, name, attr string, value any) {
	t.Helper()
	path := filepath.Join(h.Cloud(), kind, name+".json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	obj[attr] = value
	raw, _ = json.Marshal(obj)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// StateResources lists the resource addresses in a Terraform state file.
func StateResources(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading terraform state: %v", err)
	}
	var st struct {
		Resources []struct{ Type, Name string } `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range st.Resources {
		out = append(out, r.Type+"."+r.Name)
	}
	sort.Strings(out)
	return out
}
