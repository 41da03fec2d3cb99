package catalog

// What Render gives back: a blueprint evaluated for one request, layer by layer, and the
// mistakes a request can make.

// Rendered is a blueprint evaluated for one request: typed data per layer, file contents
// copied in.
type Rendered struct {
	Blueprint *Blueprint
	Env       string
	// Values is every flag (given or default; bools default to false) and argument, by name.
	// Secret flags are never included.
	Values    map[string]Value
	Salt      *RenderedSalt // nil when the blueprint has no salt part
	Terraform *RenderedTerraform
	Nomad     *RenderedNomad
	// Requires lists the dependencies whose condition held, in manifest order.
	Requires []Required
	// Deployed says a dependency was rendered from its declared values (Request.Deployed)
	// rather than from its defaults.
	Deployed bool
}

// RenderedSalt is the Salt state file and the pillar it is applied with.
type RenderedSalt struct {
	// Variant is the name of the variant whose state Text holds ("local", "production").
	Variant string
	State   string // path in the blueprint folder
	Text    string
	Pillar  map[string]any
	// HoldsData are the variant's paths on the minions that hold data (Variant.HoldsDataPaths,
	// evaluated): absolute mount points and devices.
	HoldsData []string
}

// RenderedTerraform is the module and its variables (written as terraform.tfvars.json).
type RenderedTerraform struct {
	// Variant is the name of the variant whose module Files holds ("local", "production").
	Variant string
	// Files holds every regular file of the module directory (recursively, skipping .terraform
	// directories), keyed by slash-separated path relative to the module directory.
	Files map[string]string
	Vars  map[string]any
	// HoldsData are the variant's resources that hold data (Variant.HoldsData).
	HoldsData []string
}

// RenderedNomad is the job specification and the values of its HCL2 variables.
type RenderedNomad struct {
	// Variant is the name of the variant whose job Template holds ("local", "production").
	Variant string
	// Job is that job file's path in the blueprint folder.
	Job      string
	Template string
	Vars     map[string]any
	// HoldsData are the job's task groups that hold data (Variant.HoldsData).
	HoldsData []string
}

// Required is another service the request brings in, with the flags it gets.
type Required struct {
	Service string
	Flags   map[string]Value
	Because string
}

// RequestError is a mistake in what was asked (a flag the blueprint lacks, a value its type
// refuses, a missing argument). Its text is meant for the person who asked.
type RequestError struct {
	Blueprint string // "nextcloud", "resize lvm"
	Message   string
}

func (e *RequestError) Error() string { return e.Blueprint + ": " + e.Message }
