package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needTerraform skips a test that runs terraform fmt when terraform is missing, except in CI.
func needTerraform(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("terraform"); err != nil {
		missing(t, "terraform is not on PATH: "+err.Error())
	}
}

// missing stops a test that lacks a server or tool it needs: it fails when CI is set to any
// non-empty value (a test must never pass in CI by not running) and skips otherwise.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set, so this fails rather than skips: " + msg)
	}
	t.Skip(msg)
}

func TestCatalogCheckShipped(t *testing.T) {
	needTerraform(t)
	t.Setenv("EOS_CATALOG_DIRS", "")
	out, err := run(t, "catalog", "check")
	if err != nil || out != "no problems in the shipped blueprints\n" {
		t.Errorf("eos catalog check: %v\n%s", err, out)
	}
}

func TestCatalogCheckBroken(t *testing.T) {
	needTerraform(t)
	fixtures := filepath.Join("..", "..", "catalog", "testdata", "check")
	out, err := run(t, "catalog", "check", filepath.Join(fixtures, "unformatted"), filepath.Join(fixtures, "missing-variable"))
	if !errors.As(err, new(exitError)) {
		t.Fatalf("err = %v, want exit status 1 after printing the problems\n%s", err, out)
	}
	want := filepath.Join(fixtures, "missing-variable", "manifest.hcl") + `:17:7: terraform variable "domain" is not declared in terraform/production (declared: name)` + "\n" +
		filepath.Join(fixtures, "unformatted", "terraform", "local", "main.tf") + ":1:1: not formatted (terraform fmt)\n" +
		"2 problems\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// A bad constraint is reported by eos catalog check like any other problem of a manifest.
func TestCatalogCheckConstraints(t *testing.T) {
	fixture := filepath.Join("..", "..", "catalog", "testdata", "check", "bad-constraint")
	out, err := run(t, "catalog", "check", fixture)
	if !errors.As(err, new(exitError)) {
		t.Fatalf("err = %v, want exit status 1 after printing the problem\n%s", err, out)
	}
	want := filepath.Join(fixture, "manifest.hcl") + `:7:19: flag "storage" has min 2T above its max 500G` + "\n1 problem\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestCatalogNewThenCheck(t *testing.T) {
	needTerraform(t)
	dir := t.TempDir()
	out, err := run(t, "catalog", "new", "team-wiki", "--dir", dir)
	path := filepath.Join(dir, "team-wiki")
	if err != nil || !strings.HasPrefix(out, "created "+path+"\n") {
		t.Fatalf("eos catalog new: %v\n%s", err, out)
	}
	if out, err := run(t, "catalog", "check", path); err != nil || out != "no problems in "+path+"\n" {
		t.Errorf("eos catalog check on the scaffold: %v\n%s", err, out)
	}
	// A folder of blueprint folders is checked too, as a team's repository would be.
	if out, err := run(t, "catalog", "check", dir); err != nil || out != "no problems in "+dir+"\n" {
		t.Errorf("eos catalog check on the parent folder: %v\n%s", err, out)
	}
	if _, err := run(t, "catalog", "new", "team-wiki", "--dir", dir); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("scaffolding over an existing folder: err = %v, want a refusal", err)
	}
}

func TestCatalogNewRefusesBadNames(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"Wiki", `blueprint name "Wiki" must be lowercase words joined by hyphens`},
		{"grafana", "grafana is a shipped blueprint; give yours another name"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			dir := t.TempDir()
			_, err := run(t, "catalog", "new", tc.args, "--dir", dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a refused name left %d entries behind", len(entries))
			}
		})
	}
	if _, err := run(t, "catalog", "new"); err == nil {
		t.Error("eos catalog new without a name succeeded")
	}
}
