package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A configuration file that cannot be read is named with the operating system's reason, and
// one with a mistake with its file and line.
func TestAConfigurationThatCannotBeReadSaysWhy(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "eos.hcl")
	_, err := loadConfig(missing)
	if err == nil || !strings.Contains(err.Error(), missing+": no such file or directory") || strings.Contains(err.Error(), "<nil>") {
		t.Errorf("a missing file: %v; want its path and \"no such file or directory\"", err)
	}
	bad := filepath.Join(t.TempDir(), "eos.hcl")
	if err := os.WriteFile(bad, []byte("default_env = \"local\"\nenvironments = [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = loadConfig(bad)
	if err == nil || !strings.Contains(err.Error(), bad+":3,") {
		t.Errorf("a file with a mistake: %v; want its file and line", err)
	}
}
