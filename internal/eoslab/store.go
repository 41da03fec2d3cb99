package eoslab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ErrExists is returned by Store.Create when the object's file is already
// there, as a real cloud refuses a second object with the same name.
var ErrExists = errors.New("already exists")

// ErrSimulatedFailure is returned by Store.Create and Store.Put for an object
// listed in fail_on.
var ErrSimulatedFailure = errors.New("simulated failure (listed in fail_on)")

// StoreConfig configures a Store.
type StoreConfig struct {
	// Root is the directory holding the simulated cloud. It is created if it
	// does not exist.
	Root string
	// Delay is slept before every create, update and delete so progress is
	// visible; the sleep ends early when the context is cancelled.
	Delay time.Duration
	// FailOn lists objects whose create and update fail with
	// ErrSimulatedFailure. An entry matches a Ref's Name, its Key, or
	// "Kind/Key" (for example "proxy-nextcloud" or "server/proxy-nextcloud").
	FailOn []string
}

// Ref names one object in the store.
type Ref struct {
	// Kind is the directory under the root: server, volume, dns_record, firewall.
	Kind string
	// Key is the file name without ".json"; unique within Kind.
	Key string
	// Name is the object's name as written in configuration, matched by
	// fail_on. It equals Key except for DNS records (the FQDN).
	Name string
}

func (r Ref) String() string { return r.Kind + "/" + r.Key }

// Store keeps each simulated object as one pretty-printed JSON file,
// ROOT/<kind>/<key>.json. Writes are atomic (temporary file, then link or
// rename), so a reader never sees a half-written object.
type Store struct {
	root   string
	delay  time.Duration
	failOn map[string]bool
}

// NewStore creates the root directory if needed and returns the store.
func NewStore(cfg StoreConfig) (*Store, error) {
	if cfg.Root == "" {
		return nil, errors.New("eoslab store: root directory is empty")
	}
	if cfg.Delay < 0 {
		return nil, fmt.Errorf("eoslab store: negative delay %s", cfg.Delay)
	}
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, fmt.Errorf("resolving root %q: %w", cfg.Root, err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("creating root %s: %w", root, err)
	}
	failOn := make(map[string]bool, len(cfg.FailOn))
	for _, name := range cfg.FailOn {
		if name = strings.TrimSpace(name); name != "" {
			failOn[name] = true
		}
	}
	return &Store{root: root, delay: cfg.Delay, failOn: failOn}, nil
}

// Root returns the absolute root directory.
func (s *Store) Root() string { return s.root }

// Path returns the file that holds the object.
func (s *Store) Path(ref Ref) string {
	return filepath.Join(s.root, ref.Kind, ref.Key+".json")
}

// Create writes a new object after the configured delay. It fails with
// ErrExists when the file is already there and with ErrSimulatedFailure when
// the object is listed in fail_on; in both cases nothing is written.
func (s *Store) Create(ctx context.Context, ref Ref, v any) error {
	if err := s.prepareWrite(ctx, ref); err != nil {
		return err
	}
	tmp, err := s.writeTemp(ref, v)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, s.Path(ref)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("creating %s: %s %w", ref, s.Path(ref), ErrExists)
		}
		return fmt.Errorf("creating %s: %w", ref, err)
	}
	return nil
}

// Put replaces an object's file (or writes it if it vanished) after the
// configured delay, failing with ErrSimulatedFailure for objects in fail_on.
func (s *Store) Put(ctx context.Context, ref Ref, v any) error {
	if err := s.prepareWrite(ctx, ref); err != nil {
		return err
	}
	tmp, err := s.writeTemp(ref, v)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, s.Path(ref)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("updating %s: %w", ref, err)
	}
	return nil
}

// Get decodes the object's file into v. found is false when the file does
// not exist, which means the object was removed behind Terraform's back.
func (s *Store) Get(ctx context.Context, ref Ref, v any) (found bool, err error) {
	if err := checkRef(ref); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("reading %s: %w", ref, err)
	}
	data, err := os.ReadFile(s.Path(ref))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", ref, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("parsing %s: %w", s.Path(ref), err)
	}
	return true, nil
}

// Delete removes the object's file after the configured delay. An object
// that is already gone is not an error: the desired outcome holds.
func (s *Store) Delete(ctx context.Context, ref Ref) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := s.pause(ctx); err != nil {
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	if err := os.Remove(s.Path(ref)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	return nil
}

// Keys lists the keys of every object of a kind, sorted.
func (s *Store) Keys(ctx context.Context, kind string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing %s: %w", kind, err)
	}
	entries, err := os.ReadDir(filepath.Join(s.root, kind))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", kind, err)
	}
	var keys []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		keys = append(keys, strings.TrimSuffix(name, ".json"))
	}
	sort.Strings(keys)
	return keys, nil
}

// prepareWrite validates ref, waits out the delay, applies fail_on and makes
// sure the kind's directory exists.
func (s *Store) prepareWrite(ctx context.Context, ref Ref) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := s.pause(ctx); err != nil {
		return fmt.Errorf("writing %s: %w", ref, err)
	}
	if s.failOn[ref.Name] || s.failOn[ref.Key] || s.failOn[ref.String()] {
		return fmt.Errorf("writing %s: %w", ref, ErrSimulatedFailure)
	}
	if err := os.MkdirAll(filepath.Join(s.root, ref.Kind), 0o755); err != nil {
		return fmt.Errorf("creating directory for %s: %w", ref, err)
	}
	return nil
}

// writeTemp writes v, pretty-printed, to a synced temporary file beside the
// object's file and returns its path.
func (s *Store) writeTemp(ref Ref, v any) (string, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encoding %s: %w", ref, err)
	}
	data = append(data, '\n')
	f, err := os.CreateTemp(filepath.Join(s.root, ref.Kind), "."+ref.Key+".json.tmp-*")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", ref, err)
	}
	_, werr := f.Write(data)
	merr := f.Chmod(0o644)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing %s: %w", ref, err)
	}
	return f.Name(), nil
}

// pause sleeps for the configured delay, returning early with the context's
// error when it is cancelled.
func (s *Store) pause(ctx context.Context) error {
	if s.delay <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(s.delay)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("simulated delay interrupted: %w", ctx.Err())
	case <-t.C:
		return nil
	}
}

// checkRef rejects refs that would escape the root or hide as dot files.
func checkRef(ref Ref) error {
	for _, part := range []string{ref.Kind, ref.Key} {
		if part == "" || strings.HasPrefix(part, ".") || strings.ContainsAny(part, `/\`) {
			return fmt.Errorf("invalid object reference %q", ref.String())
		}
	}
	return nil
}
