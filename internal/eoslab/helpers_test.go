package eoslab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// factories serves the provider in-process to the real terraform binary
// found on PATH (or at $TF_ACC_TERRAFORM_PATH).
var factories = map[string]func() (tfprotov6.ProviderServer, error){
	"eoslab": providerserver.NewProtocol6WithError(New("test")()),
}

// providerConfig is a provider block rooted at root, followed by body.
func providerConfig(root, body string) string {
	return fmt.Sprintf("provider \"eoslab\" {\n  root = %q\n}\n\n%s", root, body)
}

func objectPath(root, kind, key string) string {
	return filepath.Join(root, kind, key+".json")
}

func readObject(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	return m, nil
}

// fileHas checks that the object's JSON file holds want (a subset of its
// fields, compared after a JSON round trip so numbers are float64).
func fileHas(root, kind, key string, want map[string]any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := readObject(objectPath(root, kind, key))
		if err != nil {
			return err
		}
		raw, err := json.Marshal(want)
		if err != nil {
			return err
		}
		var norm map[string]any
		if err := json.Unmarshal(raw, &norm); err != nil {
			return err
		}
		for k, w := range norm {
			if g, ok := got[k]; !ok || !reflect.DeepEqual(g, w) {
				return fmt.Errorf("%s/%s.json: %s = %#v, want %#v", kind, key, k, got[k], w)
			}
		}
		return nil
	}
}

// fileAbsent checks that the object's file does not exist.
func fileAbsent(root, kind, key string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := os.Stat(objectPath(root, kind, key))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("%s/%s.json still exists (err=%v)", kind, key, err)
	}
}

// noObjects is a CheckDestroy asserting that every object file is gone.
func noObjects(root string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		matches, err := filepath.Glob(filepath.Join(root, "*", "*.json"))
		if err != nil {
			return err
		}
		if len(matches) > 0 {
			return fmt.Errorf("objects left after destroy: %v", matches)
		}
		return nil
	}
}

// editObject changes an object's file behind Terraform's back, as a person
// with access to the cloud console would.
func editObject(t *testing.T, root, kind, key string, edit func(map[string]any)) {
	t.Helper()
	path := objectPath(root, kind, key)
	m, err := readObject(path)
	if err != nil {
		t.Fatalf("out-of-band edit: %v", err)
	}
	edit(m)
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatalf("out-of-band edit: %v", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatalf("out-of-band edit: %v", err)
	}
}

// removeObject deletes an object's file behind Terraform's back.
func removeObject(t *testing.T, root, kind, key string) {
	t.Helper()
	if err := os.Remove(objectPath(root, kind, key)); err != nil {
		t.Fatalf("out-of-band removal: %v", err)
	}
}
