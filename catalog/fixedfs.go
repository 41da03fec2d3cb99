package catalog

import (
	"io/fs"
	"maps"
	"sync"
)

// fixedFS is a file system whose files never change: the embedded blueprints. Render copies a
// blueprint's state, module files and job template into every rendered request; from a fixed
// file system each is read once and then shared (strings are immutable), instead of being
// walked, read and copied again for each request (in a burst of requests about 4 % of the
// CPU and 8 % of the allocations; docs/PERFORMANCE.md, row 2b (h33b)). An operator's
// directory (Dir) is read at each request, as before.
type fixedFS struct {
	fs.FS
	texts sync.Map // name → string: a file's content
	trees sync.Map // dir → map[string]string: readTree's answer, never handed out itself
}

func fixed(fsys fs.FS) *fixedFS { return &fixedFS{FS: fsys} }

// Sub keeps a folder of a fixed file system fixed, with its own cache.
func (f *fixedFS) Sub(dir string) (fs.FS, error) {
	sub, err := fs.Sub(f.FS, dir)
	if err != nil {
		return nil, err
	}
	return fixed(sub), nil
}

func (f *fixedFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(f.FS, name) }

func (f *fixedFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.FS, name) }

// cachedText is read(name) once per fixed file system; fsys not fixed: read(name) each time.
// Failures are not kept.
func cachedText(fsys fs.FS, name string, read func(string) (string, error)) (string, error) {
	f, ok := fsys.(*fixedFS)
	if !ok {
		return read(name)
	}
	if s, ok := f.texts.Load(name); ok {
		return s.(string), nil
	}
	s, err := read(name)
	if err == nil {
		f.texts.Store(name, s)
	}
	return s, err
}

// cachedTree is read(dir) once per fixed file system, each caller getting its own map (the
// texts shared); fsys not fixed: read(dir) each time. Failures are not kept.
func cachedTree(fsys fs.FS, dir string, read func(string) (map[string]string, error)) (map[string]string, error) {
	f, ok := fsys.(*fixedFS)
	if !ok {
		return read(dir)
	}
	if t, ok := f.trees.Load(dir); ok {
		return maps.Clone(t.(map[string]string)), nil
	}
	t, err := read(dir)
	if err != nil {
		return nil, err
	}
	f.trees.Store(dir, t)
	return maps.Clone(t), nil
}
