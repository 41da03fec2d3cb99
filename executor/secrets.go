package executor

import "context"

// Secrets keeps the secrets blueprints need (an admin password, an API key). Eos generates
// each one once and stores it; later plans reuse it. Values never leave the implementation
// through this interface: plans and results carry names and paths only.
type Secrets interface {
	// PlanSecrets reports, for every secret the spec's units need, whether it exists already
	// (reused) or would be generated. It changes nothing.
	PlanSecrets(ctx context.Context, spec Spec) (SecretPlan, error)
	// EnsureSecrets generates and stores the secrets that do not exist yet. It is called
	// before the first layer applies; existing secrets are never overwritten.
	EnsureSecrets(ctx context.Context, spec Spec) (SecretPlan, error)
	// PurgeSecrets deletes the secrets of the spec's units (destroy --purge-secrets).
	PurgeSecrets(ctx context.Context, spec Spec) ([]string, error)
}

// SecretPlan names the secrets a spec needs by where they live.
type SecretPlan struct {
	// Create are the paths of secrets that will be (or were) generated.
	Create []string `json:"create,omitempty"`
	// Reuse are the paths of secrets that exist already.
	Reuse []string `json:"reuse,omitempty"`
}

// Empty reports whether the spec needs no secrets.
func (p SecretPlan) Empty() bool { return len(p.Create) == 0 && len(p.Reuse) == 0 }
