package terraform

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
)

// ErrStalePlan is returned (wrapped) by Apply when the saved plan can no longer be applied
// because the state changed after it was made, or a newer plan replaced it: plan again.
var ErrStalePlan = errors.New("the saved plan is stale")

// staleSummary is Terraform's diagnostic summary for a saved plan whose state moved on.
const staleSummary = "Saved plan is stale"

// errLockRelease marks (through commandError's cause) a command that did its work but could
// not release the state lock afterwards: the lock was lost or its backend went away. Undoing
// the work because of it would be wrong.
var errLockRelease = errors.New("the state lock could not be released")

// unlockSummary starts Terraform's diagnostic summary when it cannot release the state lock.
const unlockSummary = "Error releasing the state lock"

// maxDetail bounds a diagnostic's detail in an error message; maxListDetail one that carries
// the list of problems it announces.
const (
	maxDetail     = 240
	maxListDetail = 720
)

// commandError is a failed terraform command, with a message meant for people: Terraform's
// diagnostics without colours, snippets or secrets. It never carries the raw stderr.
type commandError struct {
	op, key, msg string
	// cause is ErrStalePlan (joined with errPlanGone for a missing file), ErrStateLocked,
	// errLockRelease, errNotInitialised, context.DeadlineExceeded, context.Canceled or nil.
	cause error
	// diags are the error diagnostics the message was made from.
	diags []diagnostic
}

func (e *commandError) Error() string {
	return fmt.Sprintf("terraform %s for %s: %s", e.op, e.key, e.msg)
}
func (e *commandError) Unwrap() error { return e.cause }

// diagnostic is the part of a Terraform diagnostic a person needs.
type diagnostic struct {
	Address, Summary, Detail string
	// Located is set when Terraform ties the error to a resource or a place in the
	// configuration (a provider refusing a planned value, a variable's validation): an error
	// about what was asked for, not about reaching a backend or a provider.
	Located bool
}

func (d diagnostic) String() string {
	s := d.Summary
	if d.Detail != "" {
		s += ": " + d.Detail
	}
	if d.Address != "" {
		s = d.Address + ": " + s
	}
	return s
}

// uiMessage is one line of Terraform's machine-readable UI (-json) output. terraform-json
// types the diagnostics but not the apply hooks, so the hooks are decoded here.
type uiMessage struct {
	Level      string             `json:"@level"`
	Message    string             `json:"@message"`
	Type       string             `json:"type"`
	Hook       *uiHook            `json:"hook,omitempty"`
	Diagnostic *tfjson.Diagnostic `json:"diagnostic,omitempty"`
}

type uiHook struct {
	Resource struct {
		Addr string `json:"addr"`
	} `json:"resource"`
	Action string `json:"action"`
}

// parseUILine decodes one line of -json output; lines that are not JSON messages are skipped.
func parseUILine(line []byte) (uiMessage, bool) {
	var m uiMessage
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &m) != nil || m.Type == "" {
		return uiMessage{}, false
	}
	return m, true
}

// errorOf returns m's error diagnostic, if it is one.
func (m uiMessage) errorOf() (diagnostic, bool) {
	if m.Type != "diagnostic" || m.Diagnostic == nil || m.Diagnostic.Severity != tfjson.DiagnosticSeverityError {
		return diagnostic{}, false
	}
	d := m.Diagnostic
	detail := firstParagraph(d.Detail)
	first, rest, _ := strings.Cut(strings.TrimSpace(d.Detail), "\n\n")
	list := strings.HasSuffix(first, ":") && rest != ""
	return diagnostic{Address: d.Address, Summary: clean(d.Summary), Detail: shorten(clean(detail), detailBound(list)),
		Located: d.Address != "" || d.Range != nil}, true
}

// jsonDiagnostics returns the error diagnostics in a -json output stream.
func jsonDiagnostics(stream []byte) []diagnostic {
	var out []diagnostic
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for sc.Scan() {
		if m, ok := parseUILine(sc.Bytes()); ok {
			if d, ok := m.errorOf(); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

var (
	ansiRE  = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// clean removes terminal colour codes and folds whitespace into single spaces.
func clean(s string) string {
	return strings.TrimSpace(spaceRE.ReplaceAllString(ansiRE.ReplaceAllString(s, ""), " "))
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// textDiagnostics extracts the errors from Terraform's human output (stderr):
//
//	╷
//	│ Error: Unsupported argument
//	│
//	│   on main.tf line 3, in resource "terraform_data" "a":
//	│    3:   bogus = 1
//	│
//	│ An argument named "bogus" is not expected here.
//	╵
//
// Terraform wraps long summaries onto the next lines. The detail is the first paragraph after
// the summary that is not a source snippet (snippet paragraphs are indented).
func textDiagnostics(text string) []diagnostic {
	var out []diagnostic
	var cur *diagnostic
	var para []string
	inSummary, listed := false, false
	endPara := func() {
		prose := len(para) > 0 && !strings.HasPrefix(para[0], " ")
		switch {
		case cur == nil:
		case inSummary:
			cur.Summary = clean(strings.Join(para, " "))
			inSummary = false
		case cur.Detail == "" && prose:
			cur.Detail = clean(strings.Join(para, " "))
		case strings.HasSuffix(cur.Detail, ":") && !listed && prose:
			// A detail that announces a list ("…as a statefile: 2 problems:") keeps the list.
			cur.Detail += " " + clean(strings.Join(para, " "))
			listed = true
		}
		para = nil
	}
	flush := func() {
		endPara()
		if cur != nil {
			cur.Detail = shorten(cur.Detail, detailBound(listed))
			out = append(out, *cur)
		}
		cur, listed = nil, false
	}
	for _, line := range strings.Split(ansiRE.ReplaceAllString(text, ""), "\n") {
		line = strings.TrimRight(line, " \r")
		if strings.HasPrefix(line, "╷") || strings.HasPrefix(line, "╵") {
			endPara()
			continue
		}
		if rest, ok := strings.CutPrefix(line, "│"); ok {
			line = strings.TrimPrefix(rest, " ")
		}
		switch {
		case strings.HasPrefix(line, "Error: "):
			flush()
			cur, inSummary = &diagnostic{}, true
			para = []string{strings.TrimPrefix(line, "Error: ")}
		case strings.HasPrefix(line, "Warning: "):
			flush()
		case line == "":
			endPara()
		default:
			if cur != nil && strings.HasPrefix(line, "  on ") && strings.Contains(line, " line ") {
				cur.Located = true // "  on main.tf line 3, in resource …": a place in the configuration
			}
			para = append(para, line)
		}
	}
	flush()
	return slices.DeleteFunc(out, func(d diagnostic) bool { return strings.HasPrefix(d.Summary, initPreamble) })
}

// initPreamble starts the error init prints before the configuration errors that caused it.
const initPreamble = "Terraform encountered problems during initiali"

// firstParagraph keeps what a person needs from a diagnostic's detail; later paragraphs are
// about where a rule was declared and the like. A first paragraph that only announces a list
// ("Error message: 2 problems:") keeps the list after it.
func firstParagraph(s string) string {
	p, rest, _ := strings.Cut(strings.TrimSpace(s), "\n\n")
	if strings.HasSuffix(p, ":") && rest != "" {
		next, _, _ := strings.Cut(rest, "\n\n")
		p += " " + next
	}
	return p
}

// failure turns a failed command into a commandError. stdout is the command's -json output, if
// any; err is terraform-exec's error, whose text ends with stderr; ctx is the caller's context
// and timeout the command's own bound.
func failure(ctx context.Context, op, key string, stdout []byte, err error, timeout time.Duration, redact func(string) string) error {
	e := &commandError{op: op, key: key}
	switch {
	case ctx.Err() != nil:
		e.msg, e.cause = "cancelled", ctx.Err()
		return e
	case errors.Is(err, context.DeadlineExceeded):
		e.msg, e.cause = fmt.Sprintf("timed out after %s", timeout), context.DeadlineExceeded
		return e
	}
	diags := jsonDiagnostics(stdout)
	if len(diags) == 0 {
		diags = textDiagnostics(err.Error())
	}
	for _, d := range diags {
		if d.Summary == staleSummary {
			e.msg = "the saved plan is stale (the state changed after it was made); plan again"
			e.cause = ErrStalePlan
			return e
		}
		if strings.HasPrefix(d.Summary, unlockSummary) {
			e.msg = redact("the state lock could not be released afterwards (" + d.String() + "); a later run may find it held")
			e.cause = errLockRelease
			return e
		}
	}
	e.diags = diags
	e.msg = redact(joinDiagnostics(diags))
	if e.msg == "" {
		first, _, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
		e.msg = redact(shorten(clean(first), maxDetail))
	}
	return e
}

// planRefusal is, for a plan Terraform refused because of what was asked (every error tied to
// a resource or a place in the configuration: a provider refusing a planned value, a
// variable's validation), the one line that says why; "" for every other failure (a backend or
// provider not answering, a lock, a timeout), which stays an error: nothing can be planned.
func planRefusal(err error) string {
	var ce *commandError
	if !errors.As(err, &ce) || ce.op != "plan" || ce.cause != nil || len(ce.diags) == 0 {
		return ""
	}
	for _, d := range ce.diags {
		if !d.Located {
			return ""
		}
	}
	return ce.msg
}

// joinDiagnostics says each failure once: an error repeated with another address or none
// (Terraform reports some per instance, or from both validation and the plan) is the same
// error, named by the first address given; a detail's sentence that only repeats the summary
// is dropped (withoutEcho); errors sharing a detail name it once after the last of them
// ("a; b: Remove the file or import the object."); and only the first two distinct errors are
// kept, since more would not help a person in chat.
func joinDiagnostics(diags []diagnostic) string {
	type group struct {
		heads  []string
		detail string
	}
	var groups []*group
	byDetail := map[string]*group{}
	seen := map[string]bool{}
	n := 0
	for _, d := range diags {
		d.Detail = withoutEcho(d.Summary, d.Detail)
		key := diagnostic{Summary: d.Summary, Detail: d.Detail}.String()
		if d.String() == "" || seen[key] {
			continue
		}
		seen[key] = true
		n++
		if n > 2 {
			continue
		}
		head := diagnostic{Address: d.Address, Summary: d.Summary}.String()
		if g, ok := byDetail[d.Detail]; ok && d.Detail != "" {
			g.heads = append(g.heads, head)
			continue
		}
		g := &group{heads: []string{head}, detail: d.Detail}
		groups = append(groups, g)
		byDetail[d.Detail] = g
	}
	parts := make([]string, 0, len(groups)+1)
	for _, g := range groups {
		p := strings.Join(g.heads, "; ")
		if g.detail != "" {
			p += ": " + g.detail
		}
		parts = append(parts, p)
	}
	if n > 2 {
		parts = append(parts, fmt.Sprintf("and %d more errors", n-2))
	}
	return strings.Join(parts, "; ")
}

// withoutEcho drops the first sentence of detail when it only repeats how summary ends: a
// provider's "Cannot create: already exists. Remove the file or import the object." under
// "eoslab firewall "proxy-grafana" already exists" keeps "Remove the file or import the
// object.".
func withoutEcho(summary, detail string) string {
	first, rest, ok := strings.Cut(detail, ". ")
	if !ok {
		return detail
	}
	reason := first
	if i := strings.LastIndex(first, ": "); i >= 0 {
		reason = first[i+2:]
	}
	if reason != "" && strings.HasSuffix(strings.ToLower(summary), strings.ToLower(reason)) {
		return strings.TrimSpace(rest)
	}
	return detail
}

// redactor replaces every secret value in a text with "(redacted)". Values shorter than three
// characters are left alone: hiding every "1" would make messages unreadable, not safer.
func redactor(secrets []string) func(string) string {
	var vals []string
	for _, s := range secrets {
		if len(s) >= 3 {
			vals = append(vals, s)
		}
	}
	if len(vals) == 0 {
		return func(s string) string { return s }
	}
	sort.Slice(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	pairs := make([]string, 0, 2*len(vals))
	for _, v := range vals {
		pairs = append(pairs, v, "(redacted)")
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}
