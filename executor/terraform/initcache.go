package terraform

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Skipping terraform init. What init leaves in a directory (.terraform/ and
// .terraform.lock.hcl) is decided by the configuration files, the backend arguments, the CLI
// configuration with its provider mirror, the terraform binary, and the lock file it starts
// from. The layer hashes the first four into an init key (initKey) and, after each init,
// records the key and the lock file's checksum in .terraform/eos-init.json. A later plan of
// the unit skips init when both still match. A new unit's directory is seeded from an init
// snapshot (WorkDir/.eos-init/<key>): a copy of what init produced in an earlier fresh
// directory with the same key, which is exactly what init would produce again. A plan that
// finds the directory not initialised after all (a provider removed from the plugin cache)
// runs init and plans once more (see run.plan).

const (
	// initMarkerFile, inside .terraform, records what the directory was initialised for.
	initMarkerFile = "eos-init.json"
	// snapshotsDir, under WorkDir, holds one init snapshot per init key. Its leading dot keeps
	// it apart from environment directories (checkName refuses such names).
	snapshotsDir = ".eos-init"
	dataDir      = ".terraform"
	lockFile     = ".terraform.lock.hcl"
	// workspaceFile is the workspace selected in a directory: the unit's own, never copied.
	workspaceFile = "environment"
)

// initMarker is the content of initMarkerFile.
type initMarker struct {
	// Key is the init key the directory was initialised for.
	Key string `json:"key"`
	// Lock is the SHA-256 of .terraform.lock.hcl after init; "" when init wrote none.
	Lock string `json:"lock"`
}

// initKey hashes what terraform init reads in dir, apart from the lock file: the
// configuration files (module and backend override), the non-secret backend arguments, the
// CLI configuration, the provider mirror's files and the terraform binary. Secret backend
// arguments reach Terraform through the environment on every command and are not recorded by
// init, so they are not part of it; the variables file is not read by init.
func (l *Layer) initKey(dir string) (string, error) {
	h := sha256.New()
	field := func(name string, value []byte) {
		fmt.Fprintf(h, "%s %d\n", name, len(value))
		h.Write(value)
	}
	bin, err := os.Stat(l.bin)
	if err != nil {
		return "", fmt.Errorf("reading the terraform binary: %w", err)
	}
	field("binary", []byte(fmt.Sprintf("%s %d %d", l.bin, bin.Size(), bin.ModTime().UnixNano())))
	field("cli-config", l.cliConfig)
	field("backend", []byte(l.backend.Type+" "+strings.Join(l.backend.initArgs(), " ")))
	if l.mirror != "" {
		mirror, err := treeFingerprint(l.mirror)
		if err != nil {
			return "", fmt.Errorf("reading the provider mirror: %w", err)
		}
		field("mirror", []byte(mirror))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", dir, err)
	}
	for _, e := range entries { // sorted by name
		if !e.Type().IsRegular() || !isConfigFile(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", e.Name(), err)
		}
		field("file "+e.Name(), b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// treeFingerprint lists every entry under root with its size, modification time and link
// target: a provider rebuilt into a mirror changes it.
func treeFingerprint(root string) (string, error) {
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(&b, "%q %s %d %d", rel, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " -> %q", target)
		}
		b.WriteByte('\n')
		return nil
	})
	return b.String(), err
}

// lockSum is the SHA-256 of dir's lock file, "" when it has none.
func lockSum(dir string) (string, error) {
	sum, err := fileSHA256(filepath.Join(dir, lockFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return sum, err
}

// initialisedFor reports whether dir was initialised for key and its lock file is the one
// that init left.
func initialisedFor(dir, key string) bool {
	b, err := os.ReadFile(filepath.Join(dir, dataDir, initMarkerFile))
	if err != nil {
		return false
	}
	var m initMarker
	if json.Unmarshal(b, &m) != nil || m.Key != key {
		return false
	}
	sum, err := lockSum(dir)
	return err == nil && sum == m.Lock
}

// markInitialised records that dir is initialised for key with its current lock file.
func markInitialised(dir, key string) error {
	sum, err := lockSum(dir)
	if err != nil {
		return fmt.Errorf("reading %s: %w", lockFile, err)
	}
	b, err := json.Marshal(initMarker{Key: key, Lock: sum})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, dataDir), 0o750); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, dataDir, initMarkerFile), b, 0o600)
}

// forgetInit removes dir's marker, so the next plan runs init.
func forgetInit(dir string) error {
	err := os.Remove(filepath.Join(dir, dataDir, initMarkerFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// fresh reports whether dir has never been initialised: init there starts from nothing, so
// its result depends only on the init key.
func fresh(dir string) bool {
	for _, name := range []string{dataDir, lockFile} {
		if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			return false
		}
	}
	return true
}

// snapshotPath is where the init snapshot for key lives.
func (l *Layer) snapshotPath(key string) string {
	return filepath.Join(l.workDir, snapshotsDir, key)
}

// restoreSnapshot seeds the fresh directory dir from the init snapshot for key and marks it
// initialised. It reports false, leaving dir untouched, when there is no snapshot.
func (l *Layer) restoreSnapshot(dir, key string) (bool, error) {
	src := l.snapshotPath(key)
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err := copyInitFiles(src, dir); err != nil {
		// Leave nothing half-copied behind: the directory must look fresh to init.
		os.RemoveAll(filepath.Join(dir, dataDir))
		os.Remove(filepath.Join(dir, lockFile))
		return false, fmt.Errorf("copying the init snapshot: %w", err)
	}
	if err := markInitialised(dir, key); err != nil {
		return false, fmt.Errorf("marking the directory initialised: %w", err)
	}
	return true, nil
}

// saveSnapshot keeps what init produced in the fresh directory dir as the snapshot for key.
// Snapshots are never changed once in place: a new one is built aside and renamed in, and a
// concurrent builder of the same key simply loses the race.
func (l *Layer) saveSnapshot(dir, key string) error {
	dst := l.snapshotPath(key)
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	parent := filepath.Dir(dst)
	if err := os.MkdirAll(parent, 0o750); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyInitFiles(dir, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, serr := os.Stat(dst); serr == nil {
			return nil
		}
		return err
	}
	return nil
}

// copyInitFiles copies what init leaves (.terraform/ and the lock file) from src to dst,
// without the selected workspace and the marker, which belong to one directory. Provider
// packages are hard-linked when possible: Terraform replaces a package directory whole and
// never writes into one, and real providers are large. Everything else is copied, since
// Terraform rewrites some of those files in place. Symbolic links (into the plugin cache) are
// copied as links; a relative one resolves the same because snapshots and unit directories
// are both two levels below WorkDir.
func copyInitFiles(src, dst string) error {
	if err := copyFile(filepath.Join(src, lockFile), filepath.Join(dst, lockFile), false); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	root := filepath.Join(src, dataDir)
	if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == workspaceFile || rel == initMarkerFile {
			return nil
		}
		to := filepath.Join(dst, dataDir, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o750)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyFile(path, to, strings.HasPrefix(rel, "providers"+string(filepath.Separator)))
		}
		return fmt.Errorf("%s: not a file, directory or link", path)
	})
}

// copyFile copies a regular file, keeping its mode; link asks for a hard link first.
func copyFile(from, to string, link bool) error {
	if link && os.Link(from, to) == nil {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
