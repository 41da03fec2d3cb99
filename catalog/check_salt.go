package catalog

import (
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// checkSaltFiles parses every Salt state of the folder (*.sls) as YAML once its Jinja is
// replaced: a pure-Go approximation of Salt's jinja|yaml renderer that needs no Python. It finds
// YAML mistakes in the text around the Jinja (indentation, a missing colon, tabs), unclosed
// Jinja tags, and a state that is not a mapping of state IDs. It cannot see YAML that the Jinja
// itself produces: comments and statements become blanks, so both branches of an if are read
// and a loop's body once, and every {{ expression }} stands for one plain scalar. The catalog's
// own tests render the shipped states for real, with Python's jinja2.
func (f *folder) checkSaltFiles() Diagnostics {
	var diags Diagnostics
	for _, rel := range f.walk(".sls") {
		src, err := fs.ReadFile(f.files, rel)
		if err != nil {
			diags = append(diags, Diagnostic{File: f.display(rel), Message: err.Error()})
			continue
		}
		if d, bad := checkSalt(string(src)); bad {
			d.File = f.display(rel)
			diags = append(diags, d)
		}
	}
	return diags
}

// jinjaPlaceholder stands for the value of a {{ expression }}.
const jinjaPlaceholder = "jinja"

// checkSalt returns the first problem of one state (without its file name).
func checkSalt(src string) (Diagnostic, bool) {
	text, d, bad := stripJinja(src)
	if bad {
		return d, true
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return yamlProblem(err), true
	}
	if len(doc.Content) == 0 {
		return Diagnostic{}, false // nothing but Jinja and comments
	}
	if top := doc.Content[0]; top.Kind != yaml.MappingNode {
		return Diagnostic{Line: top.Line, Column: top.Column,
			Message: "a Salt state is a mapping of state IDs to their states, like `app-packages: {pkg.installed: ...}`"}, true
	}
	return Diagnostic{}, false
}

// stripJinja blanks Jinja comments and statements and replaces expressions with
// jinjaPlaceholder, keeping every newline so that YAML's line numbers are the file's.
func stripJinja(src string) (string, Diagnostic, bool) {
	closers := map[byte]string{'#': "#}", '%': "%}", '{': "}}"}
	var out strings.Builder
	out.Grow(len(src))
	for i := 0; i < len(src); {
		var closer string
		if src[i] == '{' && i+1 < len(src) {
			closer = closers[src[i+1]]
		}
		if closer == "" {
			out.WriteByte(src[i])
			i++
			continue
		}
		end := strings.Index(src[i+2:], closer)
		if end < 0 {
			line, col := position(src, i)
			return "", Diagnostic{Line: line, Column: col, Message: fmt.Sprintf("Jinja %s is never closed with %s", src[i:i+2], closer)}, true
		}
		tag := src[i : i+2+end+len(closer)]
		if src[i+1] == '{' {
			out.WriteString(jinjaPlaceholder)
			out.WriteString(strings.Repeat("\n", strings.Count(tag, "\n")))
		} else {
			for j := 0; j < len(tag); j++ {
				if tag[j] == '\n' {
					out.WriteByte('\n')
				} else {
					out.WriteByte(' ')
				}
			}
		}
		i += len(tag)
	}
	return out.String(), Diagnostic{}, false
}

// position is the 1-based line and column of byte offset off in src.
func position(src string, off int) (int, int) {
	line := 1 + strings.Count(src[:off], "\n")
	return line, off - strings.LastIndex(src[:off], "\n")
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlProblem turns a yaml.v3 error ("yaml: line 7: did not find expected key") into a
// Diagnostic at that line.
func yamlProblem(err error) Diagnostic {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Diagnostic{Line: line, Column: 1, Message: "not valid YAML once its Jinja is replaced: " + m[2]}
	}
	return Diagnostic{Message: "not valid YAML once its Jinja is replaced: " + strings.TrimPrefix(msg, "yaml: ")}
}
