package terraform

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrStateLocked is returned (wrapped) when a terraform command could not take the state lock
// because another run holds it. Eos never forces the lock: the message says who holds it, and
// the caller tries again when that run is done.
var ErrStateLocked = errors.New("the terraform state is locked")

// lockSummary is Terraform's diagnostic summary when it cannot take the state lock.
const lockSummary = "Error acquiring the state lock"

// consulLockSummary is in the summary when Terraform's consul backend cannot open a named
// workspace because another run holds its lock: every command on a named workspace first takes
// the lock for a moment (to write an empty state if there is none), and a refusal there comes
// as "error loading state: failed to lock state in Consul: Lock Info: ..." with the holder's
// lock information in the summary itself and no detail.
const consulLockSummary = "failed to lock state in Consul"

// LockInfo is what a backend says about the holder of a state lock.
type LockInfo struct {
	// Who is the holder, like "root@build-1" (Terraform's user@host), or an Eos process.
	Who string
	// Operation is what the holder is doing: apply, plan, init, ...
	Operation string
	// Created is when the holder took the lock (or connected, for pg); zero when unknown.
	Created time.Time
}

// String is the holder as a person reads it: "root@host (apply since 03:12:04 UTC)".
func (li LockInfo) String() string {
	who := li.Who
	if who == "" {
		who = "another process"
	}
	var what []string
	if li.Operation != "" {
		what = append(what, li.Operation)
	}
	if !li.Created.IsZero() {
		what = append(what, "since "+li.Created.UTC().Format("15:04:05 UTC"))
	}
	if len(what) == 0 {
		return who
	}
	return who + " (" + strings.Join(what, " ") + ")"
}

// lockedMessage is the message of a command refused by the state lock.
func lockedMessage(li LockInfo) string {
	return "the state is locked by " + li.String() + "; try again when that run is done"
}

// lockInfoOf finds Terraform's lock diagnostic in a failed command's output: the -json stream
// (stdout) or the human diagnostics at the end of terraform-exec's error (stderr).
func lockInfoOf(stdout []byte, errText string) (LockInfo, bool) {
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for sc.Scan() {
		m, ok := parseUILine(sc.Bytes())
		if !ok || m.Diagnostic == nil {
			continue
		}
		if strings.HasPrefix(m.Diagnostic.Summary, lockSummary) {
			return parseLockInfo(m.Diagnostic.Detail), heldLock(m.Diagnostic.Detail)
		}
		if strings.Contains(m.Diagnostic.Summary, consulLockSummary) {
			detail := m.Diagnostic.Summary + "\n" + m.Diagnostic.Detail
			return parseLockInfo(detail), heldLock(detail)
		}
	}
	text := ansiRE.ReplaceAllString(errText, "")
	i := strings.Index(text, lockSummary)
	if i < 0 {
		i = strings.Index(text, consulLockSummary)
	}
	if i < 0 {
		return LockInfo{}, false
	}
	var lines []string
	for _, line := range strings.Split(text[i:], "\n") {
		line, _ = strings.CutPrefix(strings.TrimSpace(line), "│")
		lines = append(lines, line)
	}
	detail := strings.Join(lines, "\n")
	return parseLockInfo(detail), heldLock(detail)
}

// heldLock tells a lock held by someone else from the other failures Terraform reports under
// the same summary: a state file it cannot read ("Unsupported state file format") or a
// backend it cannot reach is a broken check, not a busy one. A held lock comes with the
// holder's "Lock Info:" (local, consul, s3), "already locked" (pg) or, when the local lock
// file could not be read, the flock's "resource temporarily unavailable".
func heldLock(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "lock info:") || strings.Contains(d, "already locked") || strings.Contains(d, "resource temporarily unavailable")
}

// parseLockInfo reads the "Lock Info:" block of Terraform's lock diagnostic:
//
//	Lock Info:
//	  ID:        0c209495-b1ac-ac0e-64b7-07294d5eae2a
//	  Operation: OperationTypeApply
//	  Who:       root@vm
//	  Created:   2026-11-23 03:25:53.471471247 +0000 UTC
func parseLockInfo(detail string) LockInfo {
	var li LockInfo
	for _, line := range strings.Split(detail, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "Who":
			li.Who = v
		case "Operation":
			li.Operation = operationName(v)
		case "Created":
			if t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", v); err == nil {
				li.Created = t
			}
		}
	}
	return li
}

// operationName turns Terraform's "OperationTypeApply" into "apply".
func operationName(s string) string {
	if rest, ok := strings.CutPrefix(s, "OperationType"); ok && rest != "" {
		return strings.ToLower(rest)
	}
	return s
}

// lockError is the commandError of a command refused by the state lock.
func lockError(op, key string, li LockInfo, redact func(string) string) error {
	return &commandError{op: op, key: key, cause: ErrStateLocked, msg: redact(lockedMessage(li))}
}

// appName is how an Eos terraform command names its PostgreSQL connection: "eos apply
// root@host pid 4242". pgLockHolder reads it back.
func appName(op, who string, pid int) string {
	return fmt.Sprintf("eos %s %s pid %d", op, who, pid)
}

// parseAppName reads an application name made by appName; ok is false for other clients.
func parseAppName(s string) (op, who string, ok bool) {
	f := strings.Fields(s)
	if len(f) < 3 || f[0] != "eos" {
		return "", "", false
	}
	return f[1], strings.Join(f[2:], " "), true
}
