package catalog

import (
	"io/fs"
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// Kind separates services (create, update, destroy, status ... a long-lived thing) from
// operations (a one-off action with its own verb, like `resize lvm data 100G`).
type Kind string

const (
	KindService   Kind = "service"
	KindOperation Kind = "operation"
)

// Flag is a --flag a blueprint accepts.
type Flag struct {
	Name        string
	Type        Type
	Description string
	// Default is the value when the flag is not given; nil means "not set" (false for bools).
	Default *Value
	// Values lists the allowed values of an enum flag.
	Values []string
	// Secret marks a value that must never be typed in chat, logged or shown (a password).
	// Eos refuses it in chat and generates the value into Vault instead.
	Secret bool
	// Required flags must be given.
	Required bool
	// Min and Max bound an int, port or size flag, inclusive (sizes compare in bytes); nil is
	// unbounded, and a port is within 1–65535 besides. Values of the flag's type.
	Min, Max *Value
	// Pattern is an RE2 regexp the whole value of a string, hostname or path flag (each item
	// of a list flag) must match; "" is none. Check applies them all (see constraint.go).
	Pattern string
	// Range is the flag block in its manifest, for messages; zero for flags built in code.
	Range hcl.Range
	// positional marks the view of an Arg as a flag (Arg.AsFlag): messages name it NAME.
	positional bool
}

// Arg is a typed positional argument (`resize lvm NAME SIZE`). It takes the constraints a flag
// takes, checked the same way (Check): what an operation is given reaches its layers, often
// as part of a path or a command, so `eos catalog check` wants every string argument bounded.
type Arg struct {
	Name        string
	Type        Type
	Description string
	// Values lists the allowed values of an enum argument.
	Values []string
	// Min, Max and Pattern are a flag's (see Flag).
	Min, Max *Value
	Pattern  string
	// Range is the arg block in its manifest, for messages.
	Range hcl.Range
}

// AsFlag is the argument seen as a flag, for code that shows or checks constraints (help,
// Check); the messages of its Check name it the way usage does (NAME), not as --name.
func (a *Arg) AsFlag() *Flag {
	return &Flag{Name: a.Name, Type: a.Type, Description: a.Description, Values: a.Values,
		Min: a.Min, Max: a.Max, Pattern: a.Pattern, Range: a.Range, positional: true}
}

// Check reports whether v, already of the argument's type, satisfies its constraints, like
// Flag.Check.
func (a *Arg) Check(v Value) error { return a.AsFlag().Check(v) }

// Requirement pulls another service into the same plan when its condition holds
// (`--sso` brings in authentik).
type Requirement struct {
	Service string
	// When is an expression over flag.*, arg.* and env; nil means always.
	When hcl.Expression
	// Flags is an expression for the object of flags the required service gets; may be nil.
	Flags hcl.Expression
	// Because is the human reason shown in the preview ("because of --sso").
	Because string
	Range   hcl.Range
}

// SecretDecl is a secret the blueprint needs. Eos generates it once and keeps it in Vault.
type SecretDecl struct {
	Name        string
	Description string
}

// Part is one layer's share of a blueprint: a file or module in the blueprint folder plus an
// expression for the typed data it receives.
type Part struct {
	// Path is the Salt state file, the Terraform module directory, or the Nomad job template,
	// relative to the blueprint folder.
	Path string
	// Data is an object expression: Salt pillar, Terraform variables or Nomad template
	// variables. Evaluated with flag.*, arg.*, env, service.name and the functions gib() and
	// seconds().
	Data  hcl.Expression
	Range hcl.Range
}

// DefaultVariant names the Terraform module a blueprint's terraform block gives with module =:
// the one a request without a variant gets.
const DefaultVariant = "local"

// Variant is one Terraform module of a blueprint. DefaultVariant is the terraform block's module
// attribute (a simulated cloud, for the embedded default); variant blocks name others, such as
// "production" for a real cloud. Every variant receives the same variables.
type Variant struct {
	Name string
	// Path is the module directory, relative to the blueprint folder.
	Path  string
	Range hcl.Range
	// HoldsData are the addresses of the module's resources that hold data (a volume, a
	// database: "eoslab_volume.data"), from holds_data; a plan that destroys or replaces one
	// loses data, which the preview shows first and a policy can ask more for. Terraform
	// variants only; each variant names its own module's resources.
	HoldsData []string
	// HoldsDataRange is where holds_data is written, or the block without one.
	HoldsDataRange hcl.Range
	// HoldsDataPaths, for a Salt variant, is its holds_data expression: the paths on the
	// minions that hold data (mount points, devices), evaluated at render with the flags, like
	// the pillar ("/srv/${service.name}"). Nil when the variant keeps none.
	HoldsDataPaths hcl.Expression
}

// Blueprint is one service or operation of the catalog: a folder with a manifest.hcl and the
// files its layers need.
type Blueprint struct {
	Kind Kind
	// Name is the noun: "nextcloud", or "lvm" for `resize lvm`.
	Name string
	// Verb is the operation's own verb ("resize"); empty for services.
	Verb        string
	Description string
	Flags       []Flag
	Args        []Arg
	Requires    []Requirement
	Secrets     []SecretDecl
	Salt        *Part
	Terraform   *Part
	Nomad       *Part
	// Variants lists the Terraform modules, DefaultVariant first, then in manifest order; nil
	// without a terraform part. Terraform.Path is the default variant's module.
	Variants []Variant
	// NomadVariants lists the Nomad job files the same way: DefaultVariant (the nomad block's
	// job) first, then its variant blocks; nil without a nomad part. Nomad.Path is the default.
	NomadVariants []Variant
	// SaltVariants lists the Salt states the same way: DefaultVariant (the salt block's state,
	// which for the shipped blueprints manages only files under the minion's eos_data_dir)
	// first, then its variant blocks ("production": the host's real storage and packages).
	SaltVariants []Variant
	// Files is the blueprint folder.
	Files fs.FS
	// Source names the folder in messages ("embedded:nextcloud" or a path on disk).
	Source string
}

// Flag looks a flag up by name.
func (b *Blueprint) Flag(name string) (*Flag, bool) {
	for i := range b.Flags {
		if b.Flags[i].Name == name {
			return &b.Flags[i], true
		}
	}
	return nil, false
}

// FlagNames lists the blueprint's flag names in manifest order.
func (b *Blueprint) FlagNames() []string {
	names := make([]string, len(b.Flags))
	for i, f := range b.Flags {
		names[i] = f.Name
	}
	return names
}

// Variant looks a Terraform variant up by name; "" is DefaultVariant.
func (b *Blueprint) Variant(name string) (*Variant, bool) {
	if name == "" {
		name = DefaultVariant
	}
	vs := b.variants()
	for i := range vs {
		if vs[i].Name == name {
			return &vs[i], true
		}
	}
	return nil, false
}

// VariantNames lists the Terraform variants, DefaultVariant first; none without a terraform
// part.
func (b *Blueprint) VariantNames() []string {
	vs := b.variants()
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return names
}

// variants is Variants, or for a blueprint built by hand without them, its terraform part's
// module as the default variant.
func (b *Blueprint) variants() []Variant {
	if len(b.Variants) == 0 && b.Terraform != nil {
		return []Variant{{Name: DefaultVariant, Path: b.Terraform.Path, Range: b.Terraform.Range}}
	}
	return b.Variants
}

// NomadVariant looks a Nomad variant up by name; "" is DefaultVariant. A name the nomad part
// does not declare gives its default job with ok false; nil without a nomad part.
func (b *Blueprint) NomadVariant(name string) (v *Variant, ok bool) {
	return partVariant(b.Nomad, b.NomadVariants, name)
}

// SaltVariant looks a Salt variant up by name, like NomadVariant.
func (b *Blueprint) SaltVariant(name string) (v *Variant, ok bool) {
	return partVariant(b.Salt, b.SaltVariants, name)
}

// partVariant finds variant name of a part with variants vs ("" is DefaultVariant); a name the
// part does not declare gives its default with ok false; nil without the part.
func partVariant(p *Part, vs []Variant, name string) (v *Variant, ok bool) {
	if p == nil {
		return nil, false
	}
	if name == "" {
		name = DefaultVariant
	}
	if len(vs) == 0 {
		vs = []Variant{{Name: DefaultVariant, Path: p.Path, Range: p.Range}}
	}
	for i := range vs {
		if vs[i].Name == name {
			return &vs[i], true
		}
	}
	return &vs[0], false
}

// Catalog is every blueprint Eos knows: the embedded ones and those operators add.
type Catalog struct {
	services   map[string]*Blueprint
	operations map[string]map[string]*Blueprint // verb → noun → blueprint
}

// New builds a catalog from blueprints already loaded (tests build small ones this way). It
// does not validate; Load does.
func New(bps ...*Blueprint) *Catalog {
	c := &Catalog{services: map[string]*Blueprint{}, operations: map[string]map[string]*Blueprint{}}
	for _, b := range bps {
		c.add(b)
	}
	return c
}

func (c *Catalog) add(b *Blueprint) {
	if b.Kind == KindOperation {
		if c.operations[b.Verb] == nil {
			c.operations[b.Verb] = map[string]*Blueprint{}
		}
		c.operations[b.Verb][b.Name] = b
		return
	}
	c.services[b.Name] = b
}

// Service returns the service blueprint called name.
func (c *Catalog) Service(name string) (*Blueprint, bool) {
	b, ok := c.services[name]
	return b, ok
}

// Services lists the service blueprints sorted by name.
func (c *Catalog) Services() []*Blueprint {
	out := make([]*Blueprint, 0, len(c.services))
	for _, b := range c.services {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ServiceNames lists the service names, sorted.
func (c *Catalog) ServiceNames() []string {
	var names []string
	for _, b := range c.Services() {
		names = append(names, b.Name)
	}
	return names
}

// Operation returns the operation blueprint for verb and noun (`resize`, `lvm`).
func (c *Catalog) Operation(verb, noun string) (*Blueprint, bool) {
	b, ok := c.operations[verb][noun]
	return b, ok
}

// OperationVerbs lists the verbs operations bring, sorted.
func (c *Catalog) OperationVerbs() []string {
	out := make([]string, 0, len(c.operations))
	for v := range c.operations {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// Operations lists the operations of one verb, sorted by noun.
func (c *Catalog) Operations(verb string) []*Blueprint {
	var out []*Blueprint
	for _, b := range c.operations[verb] {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
