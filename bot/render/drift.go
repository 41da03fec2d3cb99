package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// ServiceDrift is one declared service's drift, over every layer.
type ServiceDrift struct {
	Service, Env string
	Status       executor.DriftStatus
	Layers       []executor.LayerDrift
}

// reasonLines bounds how much of a failed check's reason a digest reply shows.
const reasonLines = 12

// Drift answers `drift`: every service that is not clean, with what changed; a snoozed one
// (snoozes, by env/service, when its snooze still holds for this drift) is marked 🔕 until when.
func Drift(results []ServiceDrift, at time.Time, snoozes map[string]store.Snooze) adapters.Doc {
	drifted, unknown := 0, 0
	var items []string
	for _, r := range results {
		switch r.Status {
		case executor.DriftDrifted:
			drifted++
		case executor.DriftUnknown:
			unknown++
		default:
			continue
		}
		item := fmt.Sprintf("%s (%s) · %s", r.Service, r.Env, strings.Join(LayerDriftParts(r.Layers), " · "))
		if sn, ok := snoozes[r.Env+"/"+r.Service]; ok && sn.Holds(Fingerprint(r), at) {
			item += fmt.Sprintf(" · 🔕 snoozed by @%s until %s", sn.User, Day(sn.Until))
		}
		items = append(items, item)
	}
	when := at.UTC().Format("Mon 02 Jan 15:04 UTC")
	if drifted == 0 && unknown == 0 {
		return Reply(fmt.Sprintf("Drift · %s · %s.", when, cleanNamed(results)))
	}
	head := fmt.Sprintf("Drift · %s · %d of %d services drifted", when, drifted, len(results))
	if unknown > 0 {
		head += fmt.Sprintf(" · %d unknown", unknown)
	}
	var listed []ServiceDrift
	for _, r := range results {
		if r.Status == executor.DriftDrifted || r.Status == executor.DriftUnknown {
			listed = append(listed, r)
		}
	}
	return adapters.NewDoc(adapters.Heading{Text: head}, adapters.List{Items: items},
		adapters.Context{Text: driftFooter(listed)})
}

// driftFooter says where a `drift` answer's reactions work: each service that is not clean
// has its own reply in the thread, and the answer itself stands for it when it is the only one.
func driftFooter(listed []ServiceDrift) string {
	if len(listed) == 1 {
		return reactionsFor(listed[0]) + ", on this post · @eos drift history SERVICE"
	}
	return someReactions(listed) + ", on a service's reply in the thread · @eos drift history SERVICE"
}

// ChangeTexts is each change as "address detail".
func ChangeTexts(changes []executor.Change) []string {
	out := make([]string, len(changes))
	for i, ch := range changes {
		out[i] = strings.TrimSpace(ch.Address + " " + ch.Detail)
	}
	return out
}

// Digest is the digest's headline post. Its heading says the scale (how many of the
// services checked drifted, as a `drift` answer counts them), counts the news (new drift and
// resolved drift) and says how long the rest has drifted; the list names every service that is
// not clean, new first, then known, then snoozed. Each service but the snoozed has its own
// reply in the thread, with the reactions that triage it.
func Digest(results []ServiceDrift, v DigestView, now, due time.Time, late bool) adapters.Doc {
	when := due.UTC().Format("Mon 02 Jan 15:04 UTC")
	lateNote := ""
	if late {
		lateNote = fmt.Sprintf(" · late: due %s, Eos was not running", due.UTC().Format("Mon 15:04"))
	}
	rows, resolved := RowsOf(results, v, now)
	if len(rows) == 0 {
		line := fmt.Sprintf("Drift · %s · %s.", when, allClean(len(results)))
		if resolved > 0 {
			line += fmt.Sprintf(" %d resolved since the last digest.", resolved)
		}
		return Reply(line + lateNote)
	}
	fresh, known, snoozed, unknown := 0, 0, 0, 0
	var oldest time.Time
	var items []string
	for _, r := range rows {
		if r.Status == executor.DriftUnknown {
			unknown++
		}
		line := fmt.Sprintf("%s (%s) · %s · ", r.Service, r.Env, LayerCounts(r.ServiceDrift))
		switch r.kind {
		case rowNew:
			fresh++
			line += "new"
		case rowKnown:
			line += "drifted since " + Day(r.since)
		case rowSnoozed:
			snoozed++
			line += fmt.Sprintf("snoozed by @%s until %s", r.snooze.User, Day(r.snooze.Until))
		}
		if r.kind != rowNew {
			known++
			if !r.since.IsZero() && (oldest.IsZero() || r.since.Before(oldest)) {
				oldest = r.since
			}
		}
		items = append(items, line)
	}
	head := fmt.Sprintf("Drift · %s · %d of %d services drifted · %d new since the last digest · %d resolved",
		when, len(rows)-unknown, len(results), fresh, resolved)
	if known > 0 {
		head += fmt.Sprintf(" · %d still drifted", known)
		if !oldest.IsZero() {
			head += ", the oldest for " + age(now.Sub(oldest))
		}
		if snoozed > 0 {
			head += fmt.Sprintf(" (%d snoozed)", snoozed)
		}
	}
	if unknown > 0 {
		head += fmt.Sprintf(" · %d unknown (not counted as clean)", unknown)
	}
	return adapters.NewDoc(adapters.Heading{Text: head + lateNote}, adapters.List{Items: items},
		adapters.Context{Text: digestFooter(Actionable(rows))})
}

// triageReactions are the reactions that triage a drifted service.
const triageReactions = "React 🔧 to fix, 📥 to adopt what runs as declared, 🔕 to snooze 7 days"

// unknownReactions triage a service whose check failed: there is nothing known to adopt.
const unknownReactions = "React 🔧 to fix, 🔕 to snooze 7 days"

// saltOnlyReactions triage a service whose only drift is Salt's, which cannot be adopted: a
// state is the source of truth for what it manages.
const saltOnlyReactions = "React 🔧 to fix (Salt drift is not adopted: to keep it, change the blueprint or its pillar), 🔕 to snooze 7 days"

// reactionsFor are the reactions that triage r: 📥 only when r has drift an adopt can take in.
func reactionsFor(r ServiceDrift) string {
	switch {
	case r.Status == executor.DriftUnknown:
		return unknownReactions
	case !adoptable(r):
		return saltOnlyReactions
	}
	return triageReactions
}

// someReactions are the reactions for a post standing for several services: 📥 only when one
// of them has drift an adopt can take in (each service's reply says which).
func someReactions(listed []ServiceDrift) string {
	for _, r := range listed {
		if r.Status == executor.DriftDrifted && adoptable(r) {
			return triageReactions
		}
	}
	return unknownReactions
}

// adoptable reports whether r has drift an adopt can take in: drift in a layer other than
// Salt.
func adoptable(r ServiceDrift) bool {
	for _, l := range r.Layers {
		if l.Status == executor.DriftDrifted && l.Layer != executor.Salt {
			return true
		}
	}
	return false
}

// digestFooter says how to triage: a reaction on the headline works when it lists one
// service; with several, each service's reply is the post to react on.
func digestFooter(listed []ServiceDrift) string {
	switch len(listed) {
	case 0:
		return "Every service listed is snoozed · @eos drift snoozed"
	case 1:
		r := listed[0]
		return fmt.Sprintf("%s, on this post · or @eos reconcile %s in %s · details in the thread", reactionsFor(r), r.Service, r.Env)
	}
	return someReactions(listed) + ", on a service's reply in the thread · or @eos reconcile SERVICE in ENV"
}

// ServiceDriftDoc is one service's reply in the digest's thread: what drifted per layer, with
// resource names, or why its check failed, and each drifted file's diff (masked by the layer,
// cut, whole in an attachment when cut). A 🔧 on it plans the reconcile.
func ServiceDriftDoc(r ServiceDrift) adapters.Doc {
	blocks := []adapters.Block{adapters.Heading{Text: fmt.Sprintf("%s (%s) · %s", r.Service, r.Env, LayerCounts(r))}}
	var items []string
	var failed []string
	for _, l := range r.Layers {
		switch l.Status {
		case executor.DriftDrifted:
			for _, c := range ChangeTexts(l.Changes) {
				items = append(items, l.Layer.Title()+" · "+c)
			}
		case executor.DriftUnknown:
			items = append(items, l.Layer.Title()+" · check failed, not counted as clean: "+firstLineOf(l.Reason))
			if strings.Contains(strings.TrimSpace(l.Reason), "\n") {
				failed = append(failed, l.Layer.Title()+": "+headLines(strings.TrimSpace(l.Reason), reasonLines))
			}
		}
	}
	blocks = append(blocks, adapters.List{Items: items})
	if len(failed) > 0 {
		blocks = append(blocks, adapters.Code{Text: strings.Join(failed, "\n\n")})
	}
	diffs, whole := diffBlocks(driftChanges(r), "drift-"+r.Service+"-"+r.Env+".diff") // diffs.go
	blocks = append(blocks, diffs...)
	reactions := reactionsFor(r)
	blocks = append(blocks, adapters.Context{Text: fmt.Sprintf("%s · or @eos reconcile %s in %s · @eos drift history %s in %s",
		reactions, r.Service, r.Env, r.Service, r.Env)})
	doc := adapters.NewDoc(blocks...)
	doc.Attachment = whole
	return doc
}

// LayerCounts is "Terraform: 2 changes · Nomad: 1 change", or why the check failed.
func LayerCounts(r ServiceDrift) string {
	var parts []string
	for _, l := range r.Layers {
		switch l.Status {
		case executor.DriftDrifted:
			n := len(l.Changes)
			parts = append(parts, fmt.Sprintf("%s: %d change%s", l.Layer.Title(), n, Plural(n)))
		case executor.DriftUnknown:
			parts = append(parts, fmt.Sprintf("unknown: %s check failed (%s)", l.Layer.Title(), firstLineOf(l.Reason)))
		}
	}
	return strings.Join(parts, " · ")
}

// LayerDriftParts says, layer by layer, what differs from the declared state ("Nomad:
// grafana--local/grafana 1 of 1 allocations failed") or that the check failed; nothing for a
// clean or skipped layer.
func LayerDriftParts(layers []executor.LayerDrift) []string {
	var parts []string
	for _, l := range layers {
		switch l.Status {
		case executor.DriftDrifted:
			parts = append(parts, fmt.Sprintf("%s: %s", l.Layer.Title(), strings.Join(ChangeTexts(l.Changes), ", ")))
		case executor.DriftUnknown:
			parts = append(parts, fmt.Sprintf("unknown: %s check failed: %s (not counted as clean)", l.Layer.Title(), l.Reason))
		}
	}
	return parts
}

// cleanNamed says that the services of a `drift` answer all match their declared state, naming
// the one service asked about: "grafana in staging matches its declared state", or "grafana
// matches its declared state in production and staging" when it is deployed in several.
func cleanNamed(results []ServiceDrift) string {
	envs := make([]string, 0, len(results))
	for _, r := range results {
		if r.Service != results[0].Service {
			return allClean(len(results))
		}
		envs = append(envs, r.Env)
	}
	switch len(envs) {
	case 0:
		return allClean(0)
	case 1:
		return fmt.Sprintf("%s in %s matches its declared state", results[0].Service, envs[0])
	}
	slices.Sort(envs)
	return fmt.Sprintf("%s matches its declared state in %s and %s", results[0].Service, strings.Join(envs[:len(envs)-1], ", "), envs[len(envs)-1])
}

// allClean says that all n services checked match their declared state.
func allClean(n int) string {
	if n == 1 {
		return "the 1 service checked matches its declared state"
	}
	return fmt.Sprintf("all %d services match their declared state", n)
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// headLines is the first n lines of s, saying how many more there were.
func headLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… %d more lines", len(lines)-n)
}
