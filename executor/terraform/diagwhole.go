package terraform

import (
	"bufio"
	"bytes"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// detailBound is how long a diagnostic's detail may be in a message: longer when it carries
// the list it announces, which is the reason itself and must not be cut mid-way.
func detailBound(list bool) int {
	if list {
		return maxListDetail
	}
	return maxDetail
}

// wholeDiagnostics is every error diagnostic of a failed command, whole (every paragraph,
// without colours), for the log: the message keeps what a person needs in chat, the log
// keeps the rest. stdout is the -json output; text is terraform-exec's error.
func wholeDiagnostics(stdout []byte, text string) string {
	var parts []string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for sc.Scan() {
		if m, ok := parseUILine(sc.Bytes()); ok && m.Type == "diagnostic" && m.Diagnostic != nil && m.Diagnostic.Severity == tfjson.DiagnosticSeverityError {
			d := m.Diagnostic
			parts = append(parts, strings.TrimSpace(d.Address+" Error: "+d.Summary+"\n"+d.Detail))
		}
	}
	if len(parts) == 0 {
		return strings.TrimSpace(ansiRE.ReplaceAllString(text, ""))
	}
	return strings.Join(parts, "\n\n")
}
