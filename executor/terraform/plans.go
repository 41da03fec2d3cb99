package terraform

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Saved plans. Every Plan of a unit writes its own saved plan file,
// WorkDir/<env>/<service>/eos-plans/<id>.tfplan, and its LayerPlan.State names that file and
// its checksum; Apply runs exactly that file. So a preview (a `plan` typed while a run waits to
// apply, or the bot's re-plan of another plan) never replaces the file a run was approved on.
//
// Why one file per plan and not a scratch copy of the working directory: `terraform apply
// FILE` reads the configuration, the variable values, the backend settings and the provider
// selections from the saved plan itself; from the directory it reads only .terraform (the
// installed providers, the backend and the workspace) and the state. The module files and
// eos.tfvars.json are read by plan and init only. Every terraform command of a unit runs under
// the unit's mutex, so a later plan may rewrite those files, but never while an apply runs. A
// copy per plan would instead duplicate .terraform (providers are large) and need the local
// state redirected to the unit's. A plan running beside an apply of the same unit would read
// state the apply is writing (the local backend writes it in place) or wait for its lock
// anyway, so previews of a unit still wait for a running command of that unit.
//
// A preview may still change .terraform between a plan and its apply (a module needing a new
// provider version); Terraform then refuses the old plan before changing anything, and Apply
// reports that as a halt, not a failure.
//
// Plan files are removed when applied, and pruned when older than planRetention or beyond the
// newest maxPlanFiles of a unit, each time the unit is planned: previews nobody approves do not
// pile up. The bot re-plans just before it applies, so an approved plan's file is seconds old
// when it is applied.

const (
	// plansDir holds a unit's saved plans. Module files cannot be named eos-* (checkFileName),
	// and Terraform reads no subdirectory of a module on its own.
	plansDir = "eos-plans"
	// planExt ends every saved plan file's name.
	planExt = ".tfplan"
	// legacyPlanFile is where earlier versions kept the unit's one saved plan; plans stored
	// before an upgrade still name it.
	legacyPlanFile = "eos.tfplan"
	// planRetention is how long an unapplied saved plan is kept.
	planRetention = 24 * time.Hour
	// maxPlanFiles bounds the saved plans kept per unit.
	maxPlanFiles = 32
)

// newPlanFile returns a fresh saved plan path for ud, relative to its directory, creating the
// plans directory. Names sort by creation time.
func newPlanFile(ud *unitDir, now time.Time) (string, error) {
	if err := os.MkdirAll(filepath.Join(ud.dir, plansDir), 0o750); err != nil {
		return "", fmt.Errorf("creating the plans directory of %s: %w", ud.key, err)
	}
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("naming a saved plan for %s: %w", ud.key, err)
	}
	name := now.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b) + planExt
	return filepath.Join(plansDir, name), nil
}

// ownPlanFile returns path relative to ud's directory when it is one of ud's saved plans, so
// Apply never runs a file from elsewhere.
func ownPlanFile(ud *unitDir, path string) (string, bool) {
	rel, err := filepath.Rel(ud.dir, path)
	if err != nil {
		return "", false
	}
	if rel == legacyPlanFile {
		return rel, true
	}
	dir, name := filepath.Split(rel)
	ok := dir == plansDir+string(filepath.Separator) && strings.HasSuffix(name, planExt) && checkName(name) == nil
	return rel, ok
}

// prunePlans removes ud's saved plans that are older than planRetention, and the oldest
// beyond the newest maxPlanFiles. keep, the plan being made (it may not exist yet), is never
// removed and always counts as one of the kept. The caller holds ud's lock.
func prunePlans(ud *unitDir, now time.Time, keep string) []error {
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	var errs []error
	if info, err := os.Stat(filepath.Join(ud.dir, legacyPlanFile)); err == nil {
		files = append(files, file{filepath.Join(ud.dir, legacyPlanFile), info.ModTime()})
	}
	entries, err := os.ReadDir(filepath.Join(ud.dir, plansDir))
	if err != nil && !os.IsNotExist(err) {
		return []error{err}
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), planExt) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, file{filepath.Join(ud.dir, plansDir, e.Name()), info.ModTime()})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	kept := 1 // keep
	for _, f := range files {
		if f.path == keep {
			continue
		}
		if now.Sub(f.mod) <= planRetention && kept < maxPlanFiles {
			kept++
			continue
		}
		if err := os.Remove(f.path); err != nil && !os.IsNotExist(err) {
			errs = append(errs, err)
		}
	}
	return errs
}
