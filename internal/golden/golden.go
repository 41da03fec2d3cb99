// Package golden compares what a test produced with a file kept under testdata (a golden
// file), and rewrites the file instead when the tests run with -update. Every golden test of
// Eos goes through it, so the flag is declared once.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata with what the tests produce now")

// Check fails t when got differs from the file at path, showing both. With -update it writes
// got to path first (making its folder), so the comparison passes and the diff is in git.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", t.Name(), path, got, want)
	}
}
