package salt

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/eosbot/eos/executor"
)

// batchPillar is the pillar key under which a combined dry run passes each unit's pillar,
// by the unit's sls base name ("nextcloud_1a2b3c4d5e6f").
const batchPillar = "eos_batch"

// conflictingIDs is how Salt starts its refusal of a run in which two sls files declare the
// same state id.
const conflictingIDs = "Detected conflicting IDs"

// batchPrologue rebinds, for the rest of one sls file's render, the Jinja variable pillar to
// the unit's own part of the combined pillar, and salt to a dict of just the execution
// functions the text calls (salt['...'] with a literal name, from text), with 'pillar.get'
// the get of that part. Both are template variables of this file alone: the salt object
// the file is rendered with is not changed (in Salt 3006 it may be the minion's loader
// itself). It ends without a newline, so the text's lines keep their numbers.
func batchPrologue(base, text string) string {
	funcs := map[string]bool{}
	for _, m := range saltCall.FindAllStringSubmatch(jinjaComment.ReplaceAllString(text, ""), -1) {
		funcs[m[1]] = true
	}
	var entries []string
	for _, f := range slices.Sorted(maps.Keys(funcs)) {
		if f == "pillar.get" {
			entries = append(entries, "'pillar.get': pillar.get")
		} else {
			entries = append(entries, "'"+f+"': salt['"+f+"']")
		}
	}
	return "{%- set pillar = salt['pillar.get']('" + batchPillar + ":" + base + "', {}) %}" +
		"{%- set salt = {" + strings.Join(entries, ", ") + "} %}"
}

var (
	jinjaComment = regexp.MustCompile(`(?s)\{#.*?#\}`)
	// saltCall is salt['module.function'] with a literal name; saltOther is any other use
	// of salt as a variable (salt.cmd.run, salt[name]); salt:// URLs are neither.
	saltCall  = regexp.MustCompile(`\bsalt\[\s*['"]([\w.]+)['"]\s*\]`)
	saltOther = regexp.MustCompile(`\bsalt\s*(\.\s*\w|\[)`)
	// saltPillarGet is salt['pillar.get']('key' followed by "," (a default) or ")".
	saltPillarGet = regexp.MustCompile(`salt\[\s*['"]pillar\.get['"]\s*\]\(\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*([,)])`)
	// pillarVar is the Jinja variable pillar read as pillar['key'] or pillar.get(.
	pillarVar = regexp.MustCompile(`(^|[^.\w'"])pillar(\s*\[\s*(?:'[^'\\]*'|"[^"\\]*")\s*\]|\.get\()`)
	// configGet is config.get('key', which falls back to the pillar.
	configGet = regexp.MustCompile(`config\.get(?:['"]\s*\])?\(\s*['"]([^'"]*)`)
	// otherTemplates are what renders with the whole pillar outside the file's own render:
	// templates rendered when a state runs, and other files pulled into this one.
	otherTemplates = regexp.MustCompile(`(?m)^\s*-\s*template\s*:|\{%-?\s*(include|import|from|extends|macro|call)\b`)
)

// unbatchable says why a unit's state cannot share a combined dry run with other units, or
// "" when it can. It can when every read of the pillar is one the prologue rebinds to the
// unit's own pillar, exactly as in a run of its own: pillar['key'], pillar.get(...), and
// salt['pillar.get']('key', default) (or without a default, for a key the pillar has; a
// missing key then reads "" in Salt but None from a dict). Anything else reading the pillar
// (salt.pillar.get, pillar.items, __pillar__, a nested key "a:b", config.get of a key the
// pillar has, a template rendered as the state runs, an included file, another renderer) would
// read the combined pillar, so the unit runs alone, as it always did.
func unbatchable(u executor.Unit) string {
	text := u.Salt.Text
	if strings.HasPrefix(strings.TrimSpace(text), "#!") {
		return "it names its own renderer"
	}
	text = jinjaComment.ReplaceAllString(text, "")
	if otherTemplates.MatchString(text) {
		return "it renders other templates"
	}
	if saltOther.MatchString(saltCall.ReplaceAllString(text, "")) {
		return "it calls Salt functions by other than salt['module.function']"
	}
	for _, m := range configGet.FindAllStringSubmatch(text, -1) {
		if _, ok := u.Salt.Pillar[strings.SplitN(m[1], ":", 2)[0]]; ok {
			return "config.get reads its pillar key " + m[1]
		}
	}
	why := ""
	text = saltPillarGet.ReplaceAllStringFunc(text, func(call string) string {
		m := saltPillarGet.FindStringSubmatch(call)
		key := m[1] + m[2]
		_, has := u.Salt.Pillar[key]
		switch {
		case strings.Contains(key, ":"):
			why = "it reads the nested pillar key " + key
		case m[3] == ")" && !has:
			why = "it reads the pillar key " + key + " without a default"
		}
		return ""
	})
	if why != "" {
		return why
	}
	text = pillarVar.ReplaceAllString(text, "$1")
	if strings.Contains(text, "pillar") {
		return "it reads the pillar in a way a combined run cannot keep to its own"
	}
	return ""
}

// batches groups the units (by index) whose dry runs can share one job: those resolved to
// the same minions whose state can run combined (unbatchable). Every other unit is a group of
// its own. Groups are in the order of their first unit.
func (l *Layer) batches(ctx context.Context, units []executor.Unit, ons [][]string) [][]int {
	var groups [][]int
	at := map[string]int{}
	for i, u := range units {
		if why := unbatchable(u); why != "" {
			executor.Log(ctx, l.log).Debug("dry-running a unit in a job of its own", "unit", u.Service, "why", why)
			groups = append(groups, []int{i})
			continue
		}
		key := strings.Join(ons[i], ",")
		if g, ok := at[key]; ok {
			groups[g] = append(groups[g], i)
			continue
		}
		at[key] = len(groups)
		groups = append(groups, []int{i})
	}
	return groups
}

// errSeparately says a combined dry run cannot tell its units' results apart or was refused
// by Salt as a whole: the units are dry-run again in jobs of their own, which report their
// causes exactly as they always did.
var errSeparately = errors.New("run the units separately")

// dryRunBatch runs the units' states, all resolved to the minions on, in one test-mode job:
// state.apply of every unit's sls (a variant of it starting with batchPrologue) with the
// pillar {eos_batch: {<base>: <unit's pillar>}}, so that no unit sees another's keys. The
// minion then compiles and runs them in one state run instead of queueing one run per unit.
// Each state's __sls__ gives it back to its unit; within a unit the states keep their order.
// errSeparately means: dry-run them one by one.
func (l *Layer) dryRunBatch(ctx context.Context, units []executor.Unit, on []string) ([]unitRun, error) {
	mods, names := make([]string, len(units)), make([]string, len(units))
	pillar := map[string]any{}
	owner := map[string]int{}
	for i, u := range units {
		_, sls, err := l.slsFor(u)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Service, err)
		}
		base := sls[strings.LastIndexByte(sls, '.')+1:]
		up := u.Salt.Pillar
		if up == nil {
			up = map[string]any{}
		}
		pillar[base] = up
		names[i] = u.Service
	}
	// The variants' files are written side by side, and the event stream opens meanwhile:
	// each is a round trip to the master.
	tgt, tgtType, list := onList(on)
	req := jobRequest{name: strings.Join(names, ","), tgt: tgt, tgtType: tgtType, list: list, pillar: map[string]any{batchPillar: pillar}}
	var werr error
	es, err := l.openStreamWhile(ctx, req.name, false, func() error {
		werr = eachUnit(ctx, len(units), func(ctx context.Context, i int) error {
			u := units[i]
			_, sls, _ := l.slsFor(u)
			variant := u
			part := *u.Salt
			part.Text = batchPrologue(sls[strings.LastIndexByte(sls, '.')+1:], u.Salt.Text) + u.Salt.Text
			variant.Salt = &part
			vsls, err := l.writeState(ctx, variant, true, nil)
			if err != nil {
				return fmt.Errorf("%s: %w", u.Service, err)
			}
			mods[i] = vsls
			return nil
		})
		return werr
	})
	switch {
	case werr != nil:
		return nil, werr
	case err != nil:
		return nil, fmt.Errorf("%s: %w", units[0].Service, err)
	}
	if es != nil {
		defer es.close()
	}
	for i, m := range mods {
		owner[m] = i
	}
	req.sls = strings.Join(mods, ",")
	j, err := l.submit(ctx, req, true, false, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", units[0].Service, err)
	}
	var rets []minionReturn
	if err := l.follow(ctx, j, es, &watch{ret: func(m minionReturn) { rets = append(rets, m) }}); err != nil {
		return nil, fmt.Errorf("%s: %w", units[0].Service, err)
	}
	byMinion(rets)
	runs := make([]unitRun, len(units))
	for i, u := range units {
		runs[i] = unitRun{unit: u, on: on}
	}
	for _, m := range rets {
		switch {
		case strings.Contains(m.Err, conflictingIDs):
			executor.Log(ctx, l.log).Info("two units' states declare the same state id, which Salt refuses in one run; dry-running them in separate jobs",
				"units", names, "minion", m.Minion, "salt", strings.Join(strings.Fields(m.Err), " "))
			return nil, errSeparately
		case m.Err == "did not return" || strings.HasPrefix(m.Err, "Minion did not return"):
			return nil, fmt.Errorf("%s: minion %s: %s", units[0].Service, m.Minion, m.Err)
		case m.Err != "":
			executor.Log(ctx, l.log).Info("Salt refused the combined dry run; dry-running the units in separate jobs to name each one's cause",
				"units", names, "minion", m.Minion, "salt", firstLine(m.Err))
			return nil, errSeparately
		}
		split := make([]minionReturn, len(units))
		for i := range split {
			split[i].Minion = m.Minion
		}
		for _, s := range m.States {
			i, ok := owner[s.SLS]
			if !ok {
				executor.Log(ctx, l.log).Warn("a state of the combined dry run names no unit's sls; dry-running the units in separate jobs",
					"units", names, "minion", m.Minion, "state", s.Key, "sls", s.SLS)
				return nil, errSeparately
			}
			split[i].States = append(split[i].States, s)
		}
		for i := range split {
			if len(split[i].States) == 0 {
				// Alone, a state that renders nothing is Salt's error, not an empty run.
				return nil, errSeparately
			}
			runs[i].rets = append(runs[i].rets, split[i])
		}
	}
	return runs, nil
}
