// Package catalog owns the blueprints Eos deploys: services (create, update, destroy ... a
// long-lived thing) and operations (a one-off action with its own verb). It loads and validates
// them, and renders one for a request into typed data per layer. It must not import any other
// Eos package: the grammar (intents), the executor and the bot all read the catalog, never the
// other way round.
//
// # Blueprints are folders
//
// A blueprint is a folder holding a manifest.hcl and the files its layers need. The shipped
// ones are embedded in the binary (catalog/blueprints); operators add folders of their own with
// Dir. Adding a service is adding a folder, never Go code. A name defined twice, in one source or
// across sources, is an error naming both places: operators cannot silently replace a shipped
// blueprint.
//
//	nextcloud/
//	  manifest.hcl               what the service is, its flags, dependencies and layers
//	  salt/nextcloud.sls         Salt state (YAML + Jinja reading the pillar)
//	  terraform/local/*.tf       Terraform module on eoslab, the simulated cloud (the default)
//	  terraform/production/*.tf  the same resources on a real cloud (Hetzner Cloud, Cloudflare)
//	  nomad/local.nomad.hcl      Nomad job on raw_exec, standing for the service on a dev agent
//	  nomad/nextcloud.nomad.hcl  the production job (docker); both with an HCL2 variable block
//	                             per template variable
//
// # The manifest
//
// A manifest.hcl declares exactly one service or operation block:
//
//	service "nextcloud" {
//	  description = "file sync and share"           # required; shown by help
//
//	  flag "sso" {                                  # --sso; lowercase words and hyphens
//	    type        = bool                          # bool int port string size duration
//	    description = "sign in through authentik"   #   hostname path list enum service
//	  }                                             #   (a bare word)
//	  flag "domain" {
//	    type        = hostname
//	    default     = "cloud.local.test"            # must parse as the type and fit the
//	    pattern     = "[a-z0-9-]+(\\.[a-z0-9-]+)+"  #   constraints; pattern: string,
//	    description = "public name of the service"  #   hostname, path and list only, an
//	  }                                             #   RE2 regexp the whole value must match
//	  flag "storage" {
//	    type        = size
//	    default     = "100G"
//	    min         = "10G"                         # min, max: int, port and size only,
//	    max         = "16T"                         #   inclusive; sizes compare in bytes
//	    description = "size of the data volume"
//	  }
//	  flag "port" {
//	    type        = port                          # an int within 1–65535; min and max
//	    default     = 8080                          #   may narrow it
//	    description = "port it listens on"
//	  }
//	  flag "tier" {
//	    type        = enum
//	    values      = ["small", "large"]            # enum only, and required for enums
//	    default     = "small"
//	    description = "size class"
//	  }
//	  flag "admin-password" {
//	    type        = string
//	    secret      = true                          # never typed in chat, never in templates:
//	    description = "administrator password"      #   Eos generates it into Vault; no default
//	  }
//	  flag "owner" {
//	    type        = string
//	    required    = true                          # must be given; no default
//	    pattern     = "[a-z][a-z0-9-]*"             # `eos catalog check` wants one on every
//	    description = "team that owns it"           #   string, path and list that is typed
//	  }
//
//	  requires "authentik" {                        # another service of the catalog
//	    when    = flag.sso                          # optional condition; absent means always
//	    flags   = { frontend-for = service.name }   # flags the dependency gets
//	    because = "--sso"                           # the reason the preview shows
//	  }
//
//	  secret "admin_password" {                     # generated once, kept in Vault
//	    description = "Nextcloud admin password"
//	  }
//
//	  salt {
//	    state  = "salt/local.sls"                   # the "local" variant: files under a data dir
//	    variant "production" {                      # more variants, optional; each a state
//	      state = "salt/nextcloud.sls"              #   taking the same pillar
//	    }
//	    pillar = { lv_name = "data-${service.name}-${env}", lv_size = flag.storage }
//	  }
//	  terraform {
//	    module     = "terraform/local"              # the "local" variant: a directory of .tf files
//	    holds_data = ["eoslab_volume.data"]         # optional: its resources that hold data
//	    variant "production" {                      # more variants, optional; each a module
//	      module     = "terraform/production"       #   taking the same variables
//	      holds_data = ["hcloud_volume.data"]       #   and naming its own resources
//	    }
//	    variables = { name = service.name, env = env, volume_gb = gib(flag.storage) }
//	  }
//	  nomad {
//	    job = "nomad/local.nomad.hcl"               # the "local" variant
//	    variant "production" {                      # more variants, optional; each a job
//	      job = "nomad/nextcloud.nomad.hcl"         #   taking the same variables
//	    }
//	    variables = { domain = flag.domain, sso = flag.sso }
//	  }
//	}
//
// An operation names its verb and noun, and may take typed positional arguments (in order). It
// needs at least one layer block:
//
//	operation "resize" "lvm" {                      # `resize lvm NAME SIZE`
//	  description = "grow a logical volume"
//	  arg "name" {
//	    type        = string                        # values, min, max and pattern as for
//	    pattern     = "[A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126}" # flags: the layers build
//	    description = "logical volume"              #   /dev/vg0/NAME from it
//	  }
//	  arg "size" {
//	    type        = size
//	    description = "new size, or +N to grow by N"
//	  }
//	  salt {
//	    state  = "salt/resize.sls"
//	    pillar = { lv_name = arg.name, size = arg.size }
//	  }
//	}
//
// # Constraints
//
// min, max and pattern narrow what a flag or an operation's argument accepts; a port type is
// an int within 1–65535. Flag.Check (Arg.Check for arguments, whose messages name them NAME) is
// the one place they are checked, and it is asked everywhere a value reaches the catalog: the grammar refuses a typed value with its column and what is allowed
// ("--port 99999 is out of range: ports are 1–65535", caret under 99999), and Render refuses a
// value kept from declared state on update, declared for a deployed dependency or set by a
// requires block, naming the flag (a constraint added after a service was deployed does not
// silently change it: DeclaredFlags keeps the value and the update is refused until it gives
// the flag a value in range). Requirements does not check them, so a destroy still finds who
// needs a service. A relative size (+50G) is the amount to grow by: it is refused when it alone
// exceeds max, and otherwise passes, since the size it grows from is not known here. help
// shows each flag's range or pattern.
//
// Whatever the pattern, text values are printed text: ParseValue refuses invalid UTF-8 and
// control or invisible characters (NUL, newline, a right-to-left override) in strings, paths
// and lists, and a path that is not absolute and clean (no . or .. parts); Render parses every
// value again from its text, so a value that did not come through the grammar meets the same
// floor. Refusals quote the value with non-ASCII spelt out ("d\u0430ta" for a Cyrillic а) and
// cut a long one.
//
// # Variants
//
// One blueprint can deploy to more than one cloud. The terraform block's module is the variant
// named "local" (DefaultVariant): the shipped blueprints use eoslab there, Eos's own provider
// that simulates a cloud on the local disk, so the embedded default deploys with no account and
// no registry. Each variant block names another module, such as "production" on Hetzner Cloud
// and Cloudflare. Every variant receives the same variables and must declare each one the
// manifest sets; `eos catalog check` also wants the same outputs from every variant, since what
// reads them does not know which one ran. Request.Variant picks the module ("" is "local"; an
// environment's configuration sets it), Resolve renders dependencies with the same variant, and
// a blueprint without a terraform part ignores it. Credentials never are variables: providers
// read them from the environment (HCLOUD_TOKEN, CLOUDFLARE_API_TOKEN, EOSLAB_ROOT).
//
// holds_data marks the resources of a module that hold data (a volume, a database): a plan
// that destroys or replaces one loses data, which the preview shows in its first lines
// ("⚠ data loss: nextcloud eoslab_volume.data (100G)") and a policy can ask more approvals for
// (risk "data-loss"). Each variant names its own module's resources; `eos catalog check` wants
// every name to be a resource of that module and, once one variant marks any, every variant to
// say which of its own hold data (holds_data = [] for none).
//
// In a salt block (or its variants) holds_data lists paths on the minion instead, evaluated
// like the pillar: holds_data = ["/srv/${service.name}-${env}", "/dev/vg0/data-${service.name}-${env}"]. A
// state that formats, unmounts or removes one of them is data loss in the preview, like a
// Terraform volume destroyed; each entry must be an absolute, clean path.
//
// In a nomad block (or its variants) holds_data names task groups of the job: holds_data =
// ["db"]. Stopping the job, dropping the group or replacing its allocations (a destructive
// update) is data loss in the preview. `eos catalog check` wants each name to be a group of
// that variant's job and, once one variant marks any, every variant to say (holds_data = []).
//
// The nomad block has variants the same way: its job is "local" (the shipped blueprints run a
// small real process on the raw_exec driver there, which a Nomad dev agent has, serving a page
// that names the service), and variant blocks name other jobs ("production" runs the real
// image on docker). Every job variant must declare each variable the manifest sets, and Check
// looks for undeclared var.NAME and type mismatches in each. The same Request.Variant picks
// both parts; a part without that variant renders its default (a blueprint may have a
// production module and no production job, or the reverse), but a variant that a blueprint
// with a terraform part declares in no part is a RequestError, so a production environment
// never silently gets the simulated cloud. Blueprint.NomadVariants lists the job variants.
//
// A job reads its service's secrets from Vault, where Eos generated them: one KV v2 entry per
// service and environment with one key per secret block, named as the block. The job declares
// `variable "vault_secrets_path" { type = string, default = "" }`, which Eos sets (a manifest
// must not; it is "" when Eos has no Vault), and reads the keys in a template stanza:
//
//	{{ with secret "${var.vault_secrets_path}" }}DB_PASSWORD={{ .Data.data.db_password }}{{ end }}
//
// The task's vault stanza names a policy that may read that path (see the README).
//
// The salt block has variants too, picked by the same Request.Variant. The shipped blueprints'
// "local" state manages only files under the directory the minion's own configuration names
// (eos_data_dir: scripts/testenv/salt.sh sets it), at the paths production would use: a marker
// standing for the data volume and the service's configuration file, so it is safe on a laptop
// and a hand edit of those files is real drift. A minion without eos_data_dir gets one failing
// state instead. The "production" state does the real work (LVM, filesystems, mounts,
// packages), which only a dedicated minion should run. Blueprint.SaltVariants lists them.
//
// # Expressions
//
// when, flags, pillar and variables are HCL expressions evaluated at render time. They see:
//
//	flag.NAME     every flag: the given value, else its default, else false for bools and null
//	              for the rest (secret flags cannot be referenced)
//	arg.NAME      the positional arguments of an operation
//	env           the environment's name ("production")
//	service.name  the blueprint's name
//
// Bools are bools, ints are numbers, lists are lists of strings; every other type is its text
// ("100G", "1h30m"). Functions: gib(size) gives a size in GiB as a number, seconds(duration) a
// duration in seconds, and lower, upper, join, format, concat, contains and coalesce are the
// usual ones. Results reach layers as typed data (Salt pillar, terraform.tfvars.json, Nomad
// HCL2 variables), never pasted into HCL or a shell.
//
// # Validation
//
// Load reports every problem at once, each as file:line:col: message. It rejects unknown blocks
// and attributes, missing descriptions, unknown types, defaults that do not parse as their type
// (or are not among an enum's values, or break the flag's constraints), min or max on a flag that
// is not an int, port or size, bounds that do not parse as the type, relative size bounds,
// min above max, port bounds outside 1–65535, pattern on a flag or argument that is not a
// string, hostname, path or list, patterns that are not RE2, defaults on secret or required
// flags, duplicate flag or argument names, badly formed names, references to flags or arguments that do not exist or are
// secret, unknown functions, gib() or seconds() of a flag of another type, dependencies on
// services the catalog lacks or with flags the dependency does not declare, dependency cycles,
// layer files missing from the folder, template variables the manifest sets but the template
// (or any Terraform variant) does not declare, or declares without a default and the manifest
// leaves unset, badly named or duplicate variants, and operations without a layer.
//
// # Checking
//
// Check is `eos catalog check`: for blueprint authors and their CI, it reports everything Load
// does and what would otherwise fail only at deploy time, each as file:line:col: message. It
// renders each blueprint with example values and checks them against the types the Terraform
// and Nomad variables declare; wants the same outputs from every Terraform variant and every
// provider a resource uses in required_providers with a source and a version (read with
// terraform-config-inspect); refuses a string, path or list argument or flag that can be typed
// and has neither a pattern nor (an enum's) values, since what is typed reaches the layers,
// often in a path or a command; finds var.NAME in a Nomad job variant that no variable block declares;
// runs `terraform fmt -check` (the real binary) on every .tf file; and parses every Salt state
// as YAML once its Jinja is replaced. That last check is pure Go and approximate: comments and
// statements become blanks and each {{ expression }} a plain scalar, so it finds mistakes in
// the YAML around the Jinja but not in YAML the Jinja writes, and yaml.v3 sometimes names the
// line where the broken block starts rather than the broken line. The production variants
// cannot be initialised without a provider registry, so Check does not run terraform validate.
//
// # Names per environment
//
// A service is deployed once per environment, so every name a blueprint gives to something
// outside Eos must include the environment: cloud objects and DNS records (a Terraform
// resource's name, with its zone), paths and logical volumes on the minion (the Salt pillar and
// holds_data), Nomad service names. Otherwise the second environment's plan collides with the
// first's objects, or Salt compares against the first environment's files. The shipped
// blueprints suffix names with -${env} and default the domain to SERVICE.${env}.test
// (coalesce(flag.domain, "grafana.${env}.test"); a flag default is a constant). Eos itself names
// the Nomad job (SERVICE--ENV), the Vault entry and the Terraform working directory per
// environment. Check renders every variant of a service for two environments and refuses each
// name that stays the same, naming the blueprint, the variant and the resource; a name known
// only at apply (another resource's id, a Nomad runtime variable other than NOMAD_JOB_NAME) is
// not judged, nor are operations, which act on what their arguments name.
//
// Scaffold writes a new blueprint folder that passes Check (`eos catalog new`).
//
// # Rendering
//
// Blueprint.Render evaluates a blueprint for a Request (typed flags and arguments from the
// grammar, and the environment). Mistakes in the request come back as *RequestError, whose text
// is meant for the channel; failures of the blueprint's own expressions carry its folder and
// position. Catalog.Resolve renders the target and everything it requires, dependencies first
// and each service once: the list an executor.Spec is built from.
package catalog
