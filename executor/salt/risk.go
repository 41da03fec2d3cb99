package salt

import (
	"regexp"
	"strings"

	"github.com/eosbot/eos/executor"
)

// serviceWatch is the comment of a service state's mod_watch in a test=True run: what the
// watch that fired would do to a running service.
var serviceWatch = regexp.MustCompile(`^Service is set to be (restarted|reloaded|fully restarted|forcefully reloaded|stopped|killed)`)

// restartWord finds a command or function that restarts, reloads or stops a service.
var restartWord = regexp.MustCompile(`(?i)\b(restart|reload|stop)\b`)

// restartOf says what a state that would change would do to a running service: "service
// nginx would restart", "command \"systemctl reload nginx\" would run"; empty when nothing
// is restarted (a service started for the first time, a command that restarts nothing). verb
// is the same as a word (restart, reload, stop) and service the service's name ("" for a
// command or a module.run).
func restartOf(s stateResult) (what, verb, service string) {
	switch s.Module {
	case "service":
		if m := serviceWatch.FindStringSubmatch(s.Comment); m != nil {
			w := strings.TrimSuffix(strings.TrimSuffix(m[1], "ed"), "p")
			return "service " + s.Name + " would " + w, restartVerb(w), s.Name
		}
		if s.Fun == "dead" {
			return "service " + s.Name + " would stop", "stop", s.Name
		}
	case "cmd":
		if (s.Fun == "run" || s.Fun == "wait" || s.Fun == "script") && restartWord.MatchString(s.Name) {
			return `command "` + s.Name + `" would run`, restartVerb(restartWord.FindString(s.Name)), ""
		}
	case "module":
		if text := s.ID + " " + s.Name + " " + s.Comment; strings.Contains(text, "service.") && restartWord.MatchString(text) {
			return "module.run " + s.ID + " would " + restartWord.FindString(text) + " a service", restartVerb(restartWord.FindString(text)), ""
		}
	}
	return "", "", ""
}

// restartVerb is a restart's word as a rule reads it: restart, reload or stop ("fully
// restart" restarts, "forcefully reload" reloads, "kill" stops).
func restartVerb(w string) string {
	w = strings.ToLower(w)
	switch {
	case strings.HasSuffix(w, "reload"):
		return "reload"
	case strings.HasSuffix(w, "restart"):
		return "restart"
	}
	return "stop"
}

// stateRisk is what applying one state that would change can hurt.
type stateRisk struct {
	action   executor.Action
	forces   string
	dataLoss bool
	// The same as data (executor.SaltState's fields of the same names).
	restart, service, mount, dataPath string
	triggers                          []string
	format, remove                    bool
}

// assess judges a state of m that would change: a service restarted, reloaded or stopped
// (with the states that trigger it, from idx), a mount changed or removed, a volume
// formatted or removed, a file changed under a path that holds data (holds, the
// blueprint's marking). ok is false for a state that hurts nothing running.
func assess(s stateResult, m minionReturn, idx lowIndex, holds []string) (r stateRisk, ok bool) {
	if what, verb, svc := restartOf(s); what != "" {
		t := idx.triggers(s, m)
		if len(t) > 0 {
			what += " (" + list3(t) + ")"
		}
		return stateRisk{action: executor.Update, forces: what, restart: verb, service: svc, triggers: t}, true
	}
	data := holding(s, holds)
	switch s.Module + "." + s.Fun {
	case "mount.mounted":
		if c := strings.ToLower(s.Comment); strings.Contains(c, "remount") || strings.Contains(c, "unmount") {
			return stateRisk{action: executor.Update, forces: "mount " + s.Name + " would change: " + firstLine(s.Comment), mount: "change", dataPath: data}, true
		}
	case "mount.unmounted":
		return stateRisk{action: executor.Update, forces: "mount " + s.Name + " would be unmounted", dataLoss: data != "", mount: "unmount", dataPath: data}, true
	case "blockdev.formatted":
		// Formatting a volume the same run creates loses nothing; formatting one that exists
		// replaces its filesystem.
		fresh := createsVolume(m, s.Name)
		if fresh {
			return stateRisk{}, false
		}
		return stateRisk{action: executor.Replace, forces: "blockdev " + s.Name + " would be formatted", dataLoss: data != "", format: true, dataPath: data}, true
	case "lvm.lv_absent", "lvm.vg_absent", "lvm.pv_absent":
		return stateRisk{action: executor.Delete, forces: s.Module + " " + s.Name + " would be removed", dataLoss: data != "", remove: true, dataPath: data}, true
	}
	if s.Module == "file" && data != "" {
		if s.Fun == "absent" {
			return stateRisk{action: executor.Delete, forces: "file " + s.Name + " under data path " + data + " would be removed", dataLoss: true, remove: true, dataPath: data}, true
		}
		return stateRisk{action: executor.Update, forces: "file " + s.Name + " under data path " + data + " would change", dataPath: data}, true
	}
	return stateRisk{}, false
}

// holding returns the path of holds that s manages or lies under: a mount point, a device
// (/dev/vg0/data-nextcloud, whose logical volume lvm states name data-nextcloud), or a file
// below a mount point.
func holding(s stateResult, holds []string) string {
	for _, h := range holds {
		h = strings.TrimSuffix(h, "/")
		for _, n := range []string{s.Name, s.ID} {
			if n != "" && (n == h || strings.HasPrefix(n, h+"/") || (s.Module == "lvm" && strings.HasSuffix(h, "/"+n))) {
				return h
			}
		}
	}
	return ""
}

// createsVolume reports whether m would create the logical volume of device in this run
// (lvm.lv_present of its last path element would change).
func createsVolume(m minionReturn, device string) bool {
	for _, s := range m.States {
		if s.Module == "lvm" && s.Fun == "lv_present" && s.wouldChange() && strings.HasSuffix(device, "/"+s.Name) {
			return true
		}
	}
	return false
}
