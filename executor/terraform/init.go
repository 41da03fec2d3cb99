package terraform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/eosbot/eos/executor"
)

// initialise runs terraform init unless the directory is already initialised for what init
// reads, or is new and can be seeded from an earlier init of the same (see initcache.go);
// force runs it regardless.
func (r *run) initialise(ctx context.Context, force bool) error {
	dir := r.ud.dir
	key, err := r.l.initKey(dir)
	if err != nil {
		return fmt.Errorf("preparing %s: %w", r.ud.key, err)
	}
	if !force && initialisedFor(dir, key) {
		r.initSkipped = true
		return nil
	}
	wasFresh := fresh(dir)
	if !force && wasFresh {
		ok, err := r.l.restoreSnapshot(dir, key)
		if err != nil {
			executor.Log(ctx, r.l.log).Warn("cannot use the init snapshot; running terraform init", "unit", r.ud.key, "error", err)
		}
		if ok {
			r.initSkipped, r.seededFrom = true, key
			return nil
		}
	}
	if err := forgetInit(dir); err != nil {
		return fmt.Errorf("preparing %s: %w", r.ud.key, err)
	}
	r.initSkipped = false
	if err := r.init(ctx); err != nil {
		return err
	}
	if err := markInitialised(dir, key); err != nil {
		return fmt.Errorf("preparing %s: recording the init: %w", r.ud.key, err)
	}
	if wasFresh {
		if err := r.l.saveSnapshot(dir, key); err != nil {
			executor.Log(ctx, r.l.log).Warn("cannot keep the init snapshot", "unit", r.ud.key, "error", err)
		}
	}
	return nil
}

// initialised runs fn and, when it fails because the directory whose init was skipped is
// not initialised after all (a provider gone from the plugin cache, .terraform edited by
// hand), runs terraform init and fn once more.
func (r *run) initialised(ctx context.Context, fn func(ctx context.Context) error) error {
	err := fn(ctx)
	if err == nil || !r.initSkipped || !errors.Is(err, errNotInitialised) {
		return err
	}
	executor.Log(ctx, r.l.log).Info("the working directory needs terraform init after all", "unit", r.ud.key)
	if r.seededFrom != "" {
		// The snapshot it came from is as broken: later units must not start from it.
		if err := os.RemoveAll(r.l.snapshotPath(r.seededFrom)); err != nil {
			executor.Log(ctx, r.l.log).Warn("cannot remove a stale init snapshot", "unit", r.ud.key, "error", err)
		}
		r.seededFrom = ""
	}
	if err := r.initialise(ctx, true); err != nil {
		return err
	}
	return fn(ctx)
}

// init runs terraform init, renewing the dependency lock when the provider mirror changed.
func (r *run) init(ctx context.Context) error {
	opts, err := r.initOptions()
	if err != nil {
		return err
	}
	r.l.initMu.Lock()
	defer r.l.initMu.Unlock()
	// Not InitJSON: init -json needs Terraform 1.9, and its errors read as well from stderr.
	err = r.exec(ctx, "init", nil, func(ctx context.Context, _ io.Writer) error {
		return r.ud.tf.Init(ctx, opts...)
	})
	if err != nil && r.l.renewLocks && staleLock(err) {
		// A provider rebuilt into the mirror no longer matches the checksum (or the version)
		// the lock file recorded, and a plain init refuses it. The mirror is the operator's
		// own, so renew the lock from it.
		executor.Log(ctx, r.l.log).Warn("provider mirror changed since the last init; renewing the dependency lock", "unit", r.ud.key)
		err = r.exec(ctx, "init", nil, func(ctx context.Context, _ io.Writer) error {
			return r.ud.tf.Init(ctx, append(opts, tfexec.Upgrade(true))...)
		})
	}
	return err
}

// initOptions: never upgrade providers, use the configured backend with its non-secret
// arguments. terraform-exec always adds -input=false. When the directory was initialised with
// another backend, -reconfigure switches without migrating state; local state left behind
// would be lost to the new backend, so that case is refused instead.
func (r *run) initOptions() ([]tfexec.InitOption, error) {
	b := &r.l.backend
	opts := []tfexec.InitOption{tfexec.Backend(true), tfexec.Upgrade(false), tfexec.Get(true)}
	opts = append(opts, b.initOptions()...)
	prev, err := initializedBackend(r.ud.dir)
	if err != nil {
		return nil, fmt.Errorf("preparing %s: %w", r.ud.key, err)
	}
	switch {
	case b.remote() && hasLocalState(r.ud.dir):
		return nil, fmt.Errorf("preparing %s: %s holds local Terraform state, but the backend is now %s; "+
			"Eos does not move state: migrate it (terraform init -migrate-state there) or remove it", r.ud.key, r.ud.dir, b.Type)
	case b.remote() || prev != BackendLocal:
		// A remote backend's arguments may have changed since the last init (a new schema);
		// without -reconfigure, init would stop to ask about migrating.
		opts = append(opts, tfexec.Reconfigure(true))
	}
	return opts, nil
}

// errNotInitialised marks (through commandError's cause) a command that failed because the
// working directory needs terraform init.
var errNotInitialised = errors.New("the working directory is not initialised")

// needsInit reports whether a command failed because the directory needs terraform init:
// every such Terraform error ("Required plugins are not installed", "Inconsistent dependency
// lock file", "Backend initialization required", "Module not installed") says to run it.
func needsInit(stdout []byte, err error) bool {
	const s = "terraform init"
	return bytes.Contains(stdout, []byte(s)) || strings.Contains(err.Error(), s)
}

// staleLock reports whether init failed because .terraform.lock.hcl names a provider package
// the mirror no longer has.
func staleLock(err error) bool {
	msg := err.Error()
	for _, s := range []string{"dependency lock file", "previously-selected version", "locked provider", "checksums previously recorded"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
