package executor

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Plan is every layer's plan for one Spec, and the hash an approval is bound to.
type Plan struct {
	Spec   Spec        `json:"spec"`
	Layers []LayerPlan `json:"layers"`
	// Secrets says which secrets will be generated or reused; nil when no secrets store is
	// configured.
	Secrets *SecretPlan `json:"secrets,omitempty"`
	// Hash is the hex SHA-256 over the spec and every layer's Digest. Approving a plan
	// approves this hash only; a plan whose hash changed must be approved again.
	Hash string `json:"hash"`

	// hashed is the spec as the hash was computed from it, and its JSON (Runner.Plan), so
	// that storing the plan does not encode the spec a second time (plancode.go). Nil for a
	// plan built or decoded otherwise.
	hashed *hashedSpec
}

// HashPlan computes the hash of a spec and its layer plans (and, through HashPlanSecrets,
// which secrets it generates). Layer-private State is left out: it names files, not changes.
func HashPlan(spec Spec, layers []LayerPlan) string { return HashPlanSecrets(spec, layers, nil) }

// HashPlanSecrets is HashPlan including the secrets plan.
func HashPlanSecrets(spec Spec, layers []LayerPlan, secrets *SecretPlan) string {
	hash, _ := hashPlan(spec, layers, secrets)
	return hash
}

// hashPlan is HashPlanSecrets, also returning the spec's JSON it hashed (nil when the spec
// could not be encoded).
func hashPlan(spec Spec, layers []LayerPlan, secrets *SecretPlan) (string, []byte) {
	h := sha256.New()
	specJSON, err := json.Marshal(spec)
	encoded := specJSON
	if err != nil {
		// Spec is plain data; Marshal fails only on unsupported values in Vars, which the
		// catalog never produces. Hash the error text so the hash is still deterministic.
		specJSON, encoded = []byte(err.Error()), nil
	}
	fmt.Fprintf(h, "spec %d\n", len(specJSON))
	h.Write(specJSON)
	for _, l := range layers {
		fmt.Fprintf(h, "\nlayer %s %s %d\n", l.Layer, l.Status, len(l.Digest))
		h.Write([]byte(l.Digest))
	}
	if secrets != nil {
		fmt.Fprintf(h, "\nsecrets create %q reuse %q\n", secrets.Create, secrets.Reuse)
	}
	return hex.EncodeToString(h.Sum(nil)), encoded
}

// Layer returns the plan of layer name, if the plan has one.
func (p Plan) Layer(name LayerName) (LayerPlan, bool) {
	for _, l := range p.Layers {
		if l.Layer == name {
			return l, true
		}
	}
	return LayerPlan{}, false
}

// HasChanges reports whether applying the plan would change anything.
func (p Plan) HasChanges() bool {
	for _, l := range p.Layers {
		if l.Status == PlanChanges {
			return true
		}
	}
	return false
}

// Failures are the reasons, layer by layer in run order, that applying the plan would fail
// ("Salt: eos-minion: pkg.installed xfsprogs: …"); none when every layer expects to succeed.
// A plan with failures cannot be approved.
func (p Plan) Failures() []string {
	var out []string
	for _, l := range p.Layers {
		for _, f := range l.Failures {
			out = append(out, l.Layer.Title()+": "+f)
		}
	}
	return out
}
