// Package vault is Eos's secrets store: it implements executor.Secrets on HashiCorp Vault's
// KV v2 engine through github.com/hashicorp/vault/api, and reads the provider credentials
// (a Hetzner or Cloudflare token) that Terraform and Nomad receive through their process
// environment.
//
// It owns authentication (a token, or an AppRole login), keeping the token alive while Eos
// runs (Store.Run), where each secret lives, and generating secret values. Each unit has one
// KV v2 entry (Config.PathTemplate, by default <mount>/eos/<env>/<service>) with one key per
// secret, named as the blueprint names it (admin_password), so a Nomad template reads them
// with one `secret` call at NomadSecretsPath. A secret is generated once and reused after;
// an entry is written with check-and-set against the version read and keeps every key it
// held, so two Eos instances (or an operator's own keys) never overwrite each other. Values
// of the layout before this one (<mount>/eos/<env>/<service>/<name>, key "value") are adopted
// into the unit's entry, never generated again, and purged with it.
//
// Values never leave the package except through ProviderEnv, whose result is meant for a
// child process's environment: plans, results, errors and log lines carry paths only, and the
// token is never logged.
//
// It imports executor and nothing else of Eos.
package vault
