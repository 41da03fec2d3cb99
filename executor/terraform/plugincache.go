package terraform

import (
	"fmt"
	"os"
	"syscall"
)

// The CLI configuration sets plugin_cache_may_break_dependency_lock_file (cliconfig.go), so
// Terraform links a provider from the plugin cache without checking it against a unit's
// .terraform.lock.hcl. Whoever can write to the cache can therefore choose the code Eos runs
// with the cloud's credentials. trustedDir refuses, at start-up, a cache that someone other
// than Eos's own user could write: owned by another user, or writable by group or others.

// trustedDir reports why dir (which exists) cannot be trusted to hold code Eos runs, or nil.
func trustedDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("the provider plugin cache %s is writable by group or others (mode %04o): Terraform runs the providers it finds there without checking them, so only the user Eos runs as may write it (chmod go-w %s)",
			dir, fi.Mode().Perm(), dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("the provider plugin cache %s belongs to user id %d, not to the user Eos runs as (%d): Terraform runs the providers it finds there without checking them, so it must be Eos's own (chown it, or point XDG_CACHE_HOME elsewhere)",
			dir, st.Uid, os.Geteuid())
	}
	return nil
}
