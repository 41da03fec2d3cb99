# Eos configuration. Every setting is optional; EOS_* environment variables override this file.

# Where the bbolt store and the Terraform working directories live.
data_dir = "/var/lib/eos"

# Replicas: share a PostgreSQL store instead of the bbolt file, and run as many `eos serve` as
# you like with this same file; one leads, the others stand by. The password comes from
# PGPASSWORD or PGPASSFILE, never from here. Terraform state then defaults to the same
# database (schema eos_terraform).
#
# store {
#   type = "postgres"
#   dsn  = "postgres://eos@db.internal:5432/eos?sslmode=verify-full"
# }
# leader {
#   retry     = "1s" # how often a standby tries to lead
#   heartbeat = "1s" # how often the leader proves it is alive
#   lease     = "5s" # how long a silent leader keeps leading
# }

# Environment of requests that do not say `in ENV`.
default_env = "staging"

# The name people mention in chat (@eos).
bot_name = "eos"

# Your own blueprint folders, added to the embedded catalog.
catalog_dirs = ["/etc/eos/blueprints"]

log_level = "info"

# Bound on one layer's apply (Salt, Terraform or Nomad) in a run.
layer_timeout = "30m"

# Messages and reactions handled at once; each thread's stay in order.
max_concurrent = 64

terraform {
  # binary  = "/usr/local/bin/terraform"
  # A filesystem mirror for providers, for machines without registry access.
  # mirror         = "/var/lib/eos/providers"
  # mirror_include = ["registry.terraform.io/eos/*"]
  rollback = "failed-layer" # or "all", "none"
  timeout  = "15m"
}

mattermost {
  url      = "https://chat.example.org"
  # token  = "..."  # better: EOS_MATTERMOST_TOKEN in the service's environment
  channels = ["ops/infra"]
}

console {
  enabled = false
}

# Secrets: each service has one KV v2 entry, secret/eos/<env>/<service>, with one key per
# secret its blueprint declares (admin_password, db_password), generated once and reused after.
# Nomad jobs read it at var.vault_secrets_path (secret/data/eos/<env>/<service>); their vault
# stanza names the policy "eos-secrets", which needs: path "secret/data/eos/*" { capabilities = ["read"] }
vault {
  address = "https://vault.example.org:8200"
  # token = "..."  # better: EOS_VAULT_TOKEN, or role_id + EOS_VAULT_SECRET_ID (AppRole)
  # mount         = "secret"
  # path_template = "eos/{env}/{service}"  # the entry; {name} is no longer accepted
}

# Eos registers each unit as the job <service>--<env>, with meta eos_service and eos_env, and
# never changes a job under that ID that lacks them.
nomad {
  address = "https://nomad.example.org:4646"
  # token = "..."  # better: EOS_NOMAD_TOKEN
}

# Policy as code: Rego rules that judge every plan across Salt, Terraform, Nomad and Vault
# (deny, require more approvers, warn), beside the policy blocks below; see README "Writing
# policies". A set that does not compile refuses start-up; SIGHUP reloads it.
# policy_dirs     = ["/etc/eos/policies"]
# policy_timeout  = "1s"             # per plan; running out of time denies the plan
# policy_timezone = "Europe/Berlin"  # input.time.local, hour and weekday (default UTC)

# Anyone may ask for plans in staging; one approval from anyone else.
policy "default" {
  approvals     = 1
  self_approval = false
  ttl           = "30m"
}

policy "production" {
  # People by handle, or everyone in a platform group (a Slack user group, a Mattermost group,
  # a Discord role).
  approvers     = ["bob", "dave", "group:sre"]
  approvals     = 1
  self_approval = false
  ttl           = "15m"

  # Removing things in production takes two people.
  verb "destroy" {
    approvals = 2
  }

  # So does any plan, whatever its verb, that destroys or replaces a resource its blueprint
  # marks as holding data (holds_data: a volume, a database).
  risk "data-loss" {
    approvals = 2
  }
}

# A drift digest every weekday at 08:00 Berlin time in ops/infra: one headline, one line per
# drifted service, each service's details as its own reply in the thread (react 🔧 on it to plan
# the reconcile). A digest missed while Eos was down runs once at start-up and says it is late.
digest "weekday-morning" {
  platform = "mattermost"
  channel  = "ops/infra"
  schedule = "0 8 * * 1-5"
  timezone = "Europe/Berlin"
  envs     = ["production", "staging"]

  # Two services checked at a time, each given at most five minutes (then reported unknown).
  parallelism   = 2
  check_timeout = "5m"
}
