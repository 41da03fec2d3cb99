package catalog

import (
	"embed"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

//go:embed all:blueprints
var embedded embed.FS

// Source is a folder of blueprint folders: the embedded one or an operator's directory.
//
// Name prefixes every file name in messages: a directory path (files are joined to it) or a
// label ending in a colon such as "embedded:" (files are appended to it).
type Source struct {
	Name string
	FS   fs.FS
}

// Embedded is the shipped blueprints (catalog/blueprints, compiled into the binary).
func Embedded() Source {
	sub, err := fs.Sub(embedded, "blueprints")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "blueprints" is a constant valid one.
		sub = embedded
	}
	return Source{Name: "embedded:", FS: fixed(sub)} // never changes: rendering reads it once (fixedfs.go)
}

// Dir is an operator's directory of blueprint folders.
func Dir(path string) Source {
	return Source{Name: path, FS: os.DirFS(path)}
}

// display is the name of the file rel (slash-separated, relative to the source) in messages.
func (s Source) display(rel string) string {
	if s.Name == "" {
		return rel
	}
	if strings.HasSuffix(s.Name, ":") {
		return s.Name + rel
	}
	return filepath.Join(s.Name, filepath.FromSlash(rel))
}

// folderName is the Blueprint.Source of the folder dir of s ("embedded:nextcloud").
func (s Source) folderName(dir string) string {
	if dir == "." {
		if s.Name == "" || strings.HasSuffix(s.Name, ":") {
			return strings.TrimSuffix(s.Name, ":")
		}
		return s.Name
	}
	return s.display(dir)
}

// manifestName is the file every blueprint folder holds.
const manifestName = "manifest.hcl"

// folders lists the blueprint folders of s in name order: every directory that is not hidden.
func (s Source) folders() ([]string, error) {
	entries, err := fs.ReadDir(s.FS, ".")
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, path.Clean(e.Name()))
		}
	}
	return dirs, nil
}
