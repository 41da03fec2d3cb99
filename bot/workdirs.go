package bot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// probeSize is what a work-directory probe writes: a page, so a disk with no block left
// fails it even when it still has inodes for the file.
const probeSize = 4096

// probeWritable checks that a run could write its working files in dir: it creates a file
// there, writes a page, syncs it, and removes it.
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".eos-probe-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, probeSize))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// unwritableWorkDir is the first of Config.WorkDirs a run could not write in, with why; ""
// when every one can be written.
func (e *Engine) unwritableWorkDir() (string, error) {
	for _, d := range e.cfg.WorkDirs {
		if err := probeWritable(d); err != nil {
			return d, err
		}
	}
	return "", nil
}

// diskFull reports whether err is a full disk, typed or as another program's text (Terraform
// writes "no space left on device" into its own error).
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), "no space left on device")
}

// startAdvice says why an approved plan could not start and what the approver does about it.
// A full disk names the directory when Eos can tell which (the path of the failed write, or the
// work directory a probe cannot write now).
func (e *Engine) startAdvice(err error) string {
	var se storeError
	var uk unkept
	switch {
	case errors.As(err, &uk):
		return fmt.Sprintf("could not start: %s is full (no space left on device), and Eos could not record that it keeps the approval (store: %v). Nothing changed, and your approval is not kept: free space there, then remove and add your ✅ again",
			e.fullWhere(uk.cause), uk.store)
	case errors.As(err, &se):
		return fmt.Sprintf("could not start: Eos could not write to its store (%v). Nothing changed, and your approval is not kept: once the store can be written again (/healthz says), remove and add your ✅ again", se.error)
	}
	if !diskFull(err) {
		return fmt.Sprintf("could not start: %s. Nothing changed, and your approval is not kept: once that is fixed, remove and add your ✅ again", err)
	}
	return fmt.Sprintf("could not start: %s is full (no space left on device). Nothing changed, and your approval is not kept: free space there, then remove and add your ✅ again", e.fullWhere(err))
}

// unkept is a full work directory whose hold the store could not record (held.go): the
// approval is not kept, and the answer says why.
type unkept struct{ cause, store error }

func (u unkept) Error() string { return u.cause.Error() + "; recording the hold: " + u.store.Error() }
func (u unkept) Unwrap() error { return u.cause }

// fullWhere names the full disk of err: the disk holding a work directory, when Eos can tell
// which (the path of the failed write, or the work directory a probe cannot write now).
func (e *Engine) fullWhere(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "the disk holding " + e.workDirOf(pe.Path)
	}
	if d, perr := e.unwritableWorkDir(); perr != nil {
		return "the disk holding " + d
	}
	return "the disk Eos writes its working files to"
}

// workDirOf names the configured work directory that holds path (the innermost one), or the
// directory of path when none does: "the disk holding …/terraform is full" reads better than a
// temporary file's name.
func (e *Engine) workDirOf(path string) string {
	best := ""
	for _, d := range e.cfg.WorkDirs {
		if rel, err := filepath.Rel(d, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && len(d) > len(best) {
			best = d
		}
	}
	if best == "" {
		return filepath.Dir(path)
	}
	return best
}
