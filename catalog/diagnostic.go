package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Diagnostic is one problem in a blueprint, at a position in one of its files.
type Diagnostic struct {
	File         string
	Line, Column int
	Message      string
}

func (d Diagnostic) String() string {
	if d.Line == 0 {
		return fmt.Sprintf("%s: %s", d.File, d.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
}

// Diagnostics is every problem found while loading or rendering, one per line when printed.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// at is a Diagnostic at the start of rng.
func at(rng hcl.Range, format string, args ...any) Diagnostic {
	return Diagnostic{File: rng.Filename, Line: rng.Start.Line, Column: rng.Start.Column, Message: fmt.Sprintf(format, args...)}
}

// fromHCL converts HCL's diagnostics (errors only) into ours.
func fromHCL(hds hcl.Diagnostics) Diagnostics {
	var ds Diagnostics
	for _, hd := range hds {
		if hd.Severity != hcl.DiagError {
			continue
		}
		msg := hd.Summary
		if hd.Detail != "" {
			msg += ": " + hd.Detail
		}
		if hd.Subject == nil {
			ds = append(ds, Diagnostic{Message: msg})
			continue
		}
		ds = append(ds, at(*hd.Subject, "%s", msg))
	}
	return ds
}

// sorted orders ds by file and position, so messages read top to bottom.
func (ds Diagnostics) sorted() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return ds
}

// err returns ds as an error, or nil when there is nothing to report.
func (ds Diagnostics) err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds.sorted()
}
