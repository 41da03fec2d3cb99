package catalog

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Load reads every blueprint folder of every source, validates everything and returns the
// catalog. A later source never overrides an earlier one: a name defined twice is an error
// naming both places. The error, when there is one, is Diagnostics listing every problem.
func Load(sources ...Source) (*Catalog, error) {
	l := newLoader()
	for _, s := range sources {
		dirs, err := s.folders()
		if err != nil {
			l.diags = append(l.diags, Diagnostic{File: s.display("."), Message: fmt.Sprintf("reading blueprint folders: %v", err)})
			continue
		}
		for _, dir := range dirs {
			l.folder(s, dir)
		}
	}
	return l.finish()
}

// LoadDir validates a single blueprint folder on disk (`eos catalog check DIR`). Its
// dependencies may name the shipped services; the catalog returned holds those and the folder's
// blueprint, as Eos would run with them.
func LoadDir(path string) (*Catalog, error) {
	if _, err := os.Stat(filepath.Join(path, manifestName)); err != nil {
		return nil, Diagnostics{{File: filepath.Join(path, manifestName), Message: fmt.Sprintf("not a blueprint folder: %v", err)}}
	}
	l := newLoader()
	emb := Embedded()
	dirs, err := emb.folders()
	if err != nil {
		return nil, fmt.Errorf("reading shipped blueprints: %w", err)
	}
	for _, dir := range dirs {
		l.folder(emb, dir)
	}
	l.folder(Source{Name: path, FS: os.DirFS(path)}, ".")
	return l.finish()
}

// loader collects blueprints and problems across sources.
type loader struct {
	all   []*Blueprint
	decl  map[*Blueprint]hcl.Range // where each blueprint is declared
	byKey map[string]*Blueprint    // "service nextcloud", "operation resize lvm"
	diags Diagnostics
}

func newLoader() *loader {
	return &loader{decl: map[*Blueprint]hcl.Range{}, byKey: map[string]*Blueprint{}}
}

// folder decodes the blueprint folder dir of s and adds it; the Blueprint returned is nil when
// the manifest could not be read or names a blueprint already added.
func (l *loader) folder(s Source, dir string) *Blueprint {
	files, err := fs.Sub(s.FS, dir)
	if err != nil {
		l.diags = append(l.diags, Diagnostic{File: s.display(dir), Message: err.Error()})
		return nil
	}
	d := &decoder{src: s, dir: dir, files: files}
	b := d.decode()
	l.diags = append(l.diags, d.diags...)
	if b == nil {
		return nil
	}
	key := string(b.Kind) + " " + b.label()
	if first, dup := l.byKey[key]; dup {
		l.diags = append(l.diags, at(d.decl, "%s %q is defined twice: in %s and in %s; rename one of them",
			b.Kind, b.label(), l.decl[first].Filename, d.decl.Filename))
		return nil
	}
	l.byKey[key] = b
	l.decl[b] = d.decl
	l.all = append(l.all, b)
	return b
}

// finish runs the checks that need the whole catalog and builds it.
func (l *loader) finish() (*Catalog, error) {
	c := l.build()
	if err := l.diags.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// build runs the checks that need the whole catalog and returns it, problems or not.
func (l *loader) build() *Catalog {
	c := New(l.all...)
	for _, b := range l.all {
		l.checkRequires(c, b)
		l.checkServiceDefaults(c, b)
	}
	l.checkCycles(c)
	return c
}

// checkRequires reports dependencies on services that do not exist, and flags given to a
// dependency that it does not declare (or declares as secret).
func (l *loader) checkRequires(c *Catalog, b *Blueprint) {
	for _, rq := range b.Requires {
		dep, ok := c.Service(rq.Service)
		if !ok {
			l.diags = append(l.diags, at(rq.Range, "requires %q, but the catalog has no such service (services: %s)",
				rq.Service, strings.Join(c.ServiceNames(), ", ")))
			continue
		}
		keys, ok := staticKeys(rq.Flags)
		if !ok {
			continue
		}
		for _, name := range sortedKeys(keys) {
			f, found := dep.Flag(name)
			switch {
			case !found:
				l.diags = append(l.diags, at(keys[name], "%s has no flag %q (%s)", dep.Name, name, nameList("flags", dep.FlagNames())))
			case f.Secret:
				l.diags = append(l.diags, at(keys[name], "flag %q of %s is secret and cannot be passed by another service", name, dep.Name))
			}
		}
	}
}

// checkServiceDefaults reports service-typed defaults that name no service of the catalog.
func (l *loader) checkServiceDefaults(c *Catalog, b *Blueprint) {
	for _, f := range b.Flags {
		if f.Type != Service || f.Default == nil {
			continue
		}
		if _, ok := c.Service(f.Default.Text); !ok {
			l.diags = append(l.diags, at(l.decl[b], "default %q of flag %q names no service of the catalog", f.Default.Text, f.Name))
		}
	}
}

// checkCycles reports every dependency cycle between services once, at the requires block that
// closes it. Conditions are ignored: a cycle that some flags would avoid is still a cycle.
func (l *loader) checkCycles(c *Catalog) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(b *Blueprint)
	visit = func(b *Blueprint) {
		state[b.Name] = visiting
		stack = append(stack, b.Name)
		for _, rq := range b.Requires {
			dep, ok := c.Service(rq.Service)
			if !ok {
				continue
			}
			switch state[dep.Name] {
			case visiting:
				start := 0
				for i, n := range stack {
					if n == dep.Name {
						start = i
					}
				}
				cycle := append(append([]string{}, stack[start:]...), dep.Name)
				l.diags = append(l.diags, at(rq.Range, "dependency cycle: %s", strings.Join(cycle, " → ")))
			case unvisited:
				visit(dep)
			}
		}
		stack = stack[:len(stack)-1]
		state[b.Name] = done
	}
	for _, b := range c.Services() {
		if state[b.Name] == unvisited {
			visit(b)
		}
	}
}
