package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// A digest's news is what changed since the previous digest: drift that is new (or drifts
// differently now) and drift that was resolved. Drift already reported is counted with its
// age, and a snoozed service is listed apart, with no reply of its own in the thread.

// DigestView is what a digest knows besides its scan.
type DigestView struct {
	// Before is each service's check at the previous digest.
	Before map[string]store.DriftRecord
	// Since is when each service that is not clean stopped being clean (its current streak).
	Since map[string]time.Time
	// Snoozes are the services' snoozes, live or not (RowsOf checks).
	Snoozes map[string]store.Snooze
}

// rowKind is how a digest lists a service that is not clean.
type rowKind int

const (
	rowNew     rowKind = iota // not drifted at the previous digest, or drifted otherwise
	rowKnown                  // the same drift as at the previous digest
	rowSnoozed                // known, and someone snoozed it
)

// digestRow is one service that is not clean, as a digest lists it.
type digestRow struct {
	ServiceDrift
	kind   rowKind
	since  time.Time
	snooze store.Snooze
}

// RowsOf sorts the services that are not clean into new, known and snoozed rows (in that
// order, each in service order), and counts those resolved since the previous digest.
func RowsOf(results []ServiceDrift, v DigestView, now time.Time) (rows []digestRow, resolved int) {
	for _, r := range results {
		key := r.Env + "/" + r.Service
		prev, seen := v.Before[key]
		wasClean := !seen || prev.Status == string(executor.DriftClean)
		if r.Status == executor.DriftClean {
			if !wasClean {
				resolved++
			}
			continue
		}
		fp := Fingerprint(r)
		row := digestRow{ServiceDrift: r, kind: rowKnown, since: v.Since[key]}
		if wasClean || (prev.Fingerprint != "" && prev.Fingerprint != fp) {
			row.kind = rowNew
		}
		if sn, ok := v.Snoozes[key]; ok && sn.Holds(fp, now) {
			row.kind, row.snooze = rowSnoozed, sn
		}
		rows = append(rows, row)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].kind < rows[j].kind })
	return rows, resolved
}

// Actionable are the rows that get their own reply and reactions: all but the snoozed.
func Actionable(rows []digestRow) []ServiceDrift {
	var out []ServiceDrift
	for _, r := range rows {
		if r.kind != rowSnoozed {
			out = append(out, r.ServiceDrift)
		}
	}
	return out
}

// Fingerprint names exactly what drifted: each layer's status and changes, or that its check
// failed (not why: a reason may name a time or a process and change every check).
func Fingerprint(r ServiceDrift) string {
	if r.Status == executor.DriftClean {
		return ""
	}
	var lines []string
	for _, l := range r.Layers {
		switch l.Status {
		case executor.DriftDrifted:
			for _, c := range l.Changes {
				lines = append(lines, fmt.Sprintf("%s %s %s %s %s", l.Layer, c.Unit, c.Action, c.Address, c.Detail))
			}
		case executor.DriftUnknown:
			lines = append(lines, string(l.Layer)+" unknown")
		}
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:8])
}

// StreakStart is when the service stopped being clean, from its checks (oldest first): the
// first check of the run of checks at the end that are not clean. Zero when the last is clean.
func StreakStart(hist []store.DriftRecord) time.Time {
	var since time.Time
	for i := len(hist) - 1; i >= 0 && hist[i].Status != string(executor.DriftClean); i-- {
		since = hist[i].At
	}
	return since
}

// age is a duration as a digest says it: "6 days", "5 hours", "40 minutes".
func age(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		n := int(d / (24 * time.Hour))
		return fmt.Sprintf("%d day%s", n, Plural(n))
	case d >= time.Hour:
		n := int(d / time.Hour)
		return fmt.Sprintf("%d hour%s", n, Plural(n))
	}
	n := int(d / time.Minute)
	return fmt.Sprintf("%d minute%s", n, Plural(n))
}

// day is a date as digests say it: "Tue 1 Dec".
func Day(t time.Time) string { return t.UTC().Format("Mon 2 Jan") }
