// Package executor owns the compiled desired state (Spec), the Layer interface every system
// implements (Salt, Terraform, Nomad), the ordered runner that plans, applies, rolls back and
// checks drift layer by layer, and the plan hash an approval is bound to.
//
// It may import catalog and nothing else of Eos: a layer never knows it is driven from chat.
// Each system lives in a sub-package (executor/terraform, ...) that imports only this one.
package executor

import "encoding/json"

// LayerName names a layer; the order of Layers is the order of every run.
type LayerName string

// The layers, in run order.
const (
	Salt      LayerName = "salt"
	Terraform LayerName = "terraform"
	Nomad     LayerName = "nomad"
	// Vault is not a layer in the run order; it names the secrets step in results.
	Vault LayerName = "vault"
)

// Layers is the fixed run order: host configuration, then cloud resources, then workloads.
var Layers = []LayerName{Salt, Terraform, Nomad}

// destroyOrder is the run order of a destroy, Layers reversed: workloads stop before the
// hosts and volumes they run on go, and host configuration is the last to be touched.
var destroyOrder = []LayerName{Nomad, Terraform, Salt}

// RunOrder is the order spec's layers are planned, shown and applied in: Layers, or for a
// destroy (a spec whose every unit is destroyed) the reverse, Nomad → Terraform → Salt. A
// rollback undoes the applied layers in the reverse of this order, so undoing a destroy
// brings hosts back before the workloads that run on them.
func RunOrder(spec Spec) []LayerName {
	if spec.Destroys() {
		return destroyOrder
	}
	return Layers
}

// Destroys reports whether spec removes every unit it has (and has some).
func (s Spec) Destroys() bool {
	for _, u := range s.Units {
		if !u.Destroy {
			return false
		}
	}
	return len(s.Units) > 0
}

// Title is the layer's display name ("Terraform").
func (l LayerName) Title() string {
	switch l {
	case Salt:
		return "Salt"
	case Terraform:
		return "Terraform"
	case Nomad:
		return "Nomad"
	case Vault:
		return "Vault"
	}
	return string(l)
}

// Spec is the declarative desired state one request compiles to. It is self-contained (module
// files and templates are copied in), so a Spec stored in bbolt can be planned, applied or
// rolled back to later even if the catalog changed since.
type Spec struct {
	// Verb is what was asked: create, update, destroy, or an operation's verb.
	Verb string `json:"verb"`
	// Target is the service (or operation noun) that was asked for.
	Target string `json:"target"`
	// Env is the environment ("local", "staging", "production").
	Env string `json:"env"`
	// Units are the services this request touches, dependencies first.
	Units []Unit `json:"units"`
	// Adopt makes the spec take the real world as its declared state rather than change the
	// real world: Terraform applies a refresh-only plan (the state takes in what changed
	// outside it), Nomad registers nothing, Salt applies nothing (what differs is named as left
	// as is). Runner.Adopt makes such specs.
	Adopt bool `json:"adopt,omitempty"`
	// AdoptedValues are the declared values an adopt takes from what runs, old → new
	// ("--storage 200G → 300G"): what an adopt takes in besides the layers' own state. The
	// preview says them as Spec.Changes, as for any other verb. Empty for every other spec.
	AdoptedValues []string `json:"adopted_values,omitempty"`
	// PurgeSecrets deletes the units' secrets after a successful destroy; without it a
	// destroy keeps them, so a later create reuses them.
	PurgeSecrets bool `json:"purge_secrets,omitempty"`
	// PurgeData makes a destroy's Salt layer remove what the units' states created under each
	// minion's data directory (eos_data_dir), instead of keeping it: the service's directory
	// there whole, or the files its states manage. The preview lists each removal as a
	// destroy that loses data. Without it Salt keeps them and the preview names them.
	PurgeData bool `json:"purge_data,omitempty"`
	// Asked is what the request set, each item as the preview's first line repeats it after
	// the verb and target: an operation's arguments in order, then each flag as given
	// ("--port 3002", "--sso", "--no-backup"), a secret's value masked. The approver sees every
	// value the request gives the layers, and the hash covers it. Empty when the request set
	// none, and in specs stored before it was recorded.
	Asked []string `json:"asked,omitempty"`
	// Changes are the target's declared values this spec changes, as the preview's first
	// lines say them, with the layers that get each ("--port 3001 → 3002 (Nomad)"): for an
	// update, a rollback, a reconcile or an adopt, against the declared state when it was
	// planned. Under the hash like the rest.
	Changes []string `json:"changes,omitempty"`
	// ReturnsTo names the run whose state a rollback returns to, and when it applied it
	// ("run 1a2b3c4d of Mon 23 Nov 14:02 UTC"); empty for every other verb.
	ReturnsTo string `json:"returns_to,omitempty"`
	// Deployed are the dependencies that were deployed before this request, and what it
	// changes of them. One it leaves as it is has no Unit: the run neither applies nor records
	// it, but still locks it, so nothing destroys it while the run relies on it. One it
	// changes is a Unit of this spec like any other.
	Deployed []Dependency `json:"deployed,omitempty"`
}

// Dependency is a service the request needs that is deployed already.
type Dependency struct {
	Service string `json:"service"`
	// Reason says why it is needed ("because of --sso").
	Reason string `json:"reason,omitempty"`
	// Changes are the declared values the request changes ("--frontend-for unset → nextcloud");
	// none means the dependency is left as it is and has no Unit in the spec.
	Changes []string `json:"changes,omitempty"`
}

// Unit is one service's share of a Spec.
type Unit struct {
	// Service is the blueprint name ("nextcloud", "authentik", or "lvm" for an operation).
	Service string `json:"service"`
	// Reason says why a dependency is here ("because of --sso"); empty for the target.
	Reason string `json:"reason,omitempty"`
	// Destroy removes what the unit manages instead of creating or updating it.
	Destroy bool `json:"destroy,omitempty"`
	// Values are the flags and arguments in text form, for previews and the audit log.
	// Secret flags never appear here.
	Values map[string]string `json:"values,omitempty"`
	// Secrets are the names of secrets the unit needs from Vault.
	Secrets   []string       `json:"secrets,omitempty"`
	Salt      *SaltPart      `json:"salt,omitempty"`
	Terraform *TerraformPart `json:"terraform,omitempty"`
	Nomad     *NomadPart     `json:"nomad,omitempty"`
}

// Key names the unit's state in its environment: "production/nextcloud". Terraform keeps one
// working directory per key; locks are per key.
func (u Unit) Key(env string) string { return env + "/" + u.Service }

// SaltPart is a Salt state with its pillar data.
type SaltPart struct {
	// State is the state file's name in the blueprint ("nextcloud.sls").
	State string `json:"state"`
	// Text is the state file's content.
	Text string `json:"text"`
	// Pillar is the typed data the state receives, as JSON.
	Pillar map[string]any `json:"pillar,omitempty"`
	// Targets are the minions to apply to; empty means the configured default.
	Targets []string `json:"targets,omitempty"`
	// HoldsData are the paths on the minions that hold data (a mount point, a device such as
	// /dev/vg0/data-nextcloud): a state that formats, unmounts or removes one loses it.
	HoldsData []string `json:"holds_data,omitempty"`
}

// TerraformPart is a Terraform module with its variables.
type TerraformPart struct {
	// Files maps file names in the module directory to their content.
	Files map[string]string `json:"files"`
	// Vars are the module's variables; the layer writes them as a tfvars JSON file.
	Vars map[string]any `json:"vars,omitempty"`
	// HoldsData are the addresses of the module's resources that hold data
	// ("eoslab_volume.data"): destroying or replacing one loses it.
	HoldsData []string `json:"holds_data,omitempty"`
}

// NomadPart is a Nomad job template with its variables.
type NomadPart struct {
	// Template is the job file (HCL2 with variables), parsed by Nomad, never pasted into.
	Template string `json:"template"`
	// Vars are the job's HCL2 variables.
	Vars map[string]any `json:"vars,omitempty"`
	// HoldsData are the job's task groups that hold data ("db"): stopping the job, dropping
	// the group or replacing its allocations loses it.
	HoldsData []string `json:"holds_data,omitempty"`
	// Adopted, when set, is the job as it ran when an adopt took it as the declared state: it
	// is declared instead of the template's, until a request declares the service anew.
	Adopted *AdoptedJob `json:"adopted,omitempty"`
}

// AdoptedJob is a running Nomad job taken as the declared state.
type AdoptedJob struct {
	// Version is the job version that ran.
	Version uint64 `json:"version"`
	// Job is the job as Nomad returned it (its API JSON).
	Job json.RawMessage `json:"job"`
}

// Has reports whether any unit of the spec has a part for layer l.
func (s Spec) Has(l LayerName) bool {
	for _, u := range s.Units {
		switch {
		case l == Salt && u.Salt != nil, l == Terraform && u.Terraform != nil, l == Nomad && u.Nomad != nil:
			return true
		}
	}
	return false
}
