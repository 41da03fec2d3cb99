// Package vault is Eos's secrets store: it implements executor.Secrets on HashiCorp Vault's
// KV v2 engine through github.com/hashicorp/vault/api, and reads the provider credentials
// (a Hetzner or Cloudflare token) that Terraform and Nomad receive through their process
// environment.
//
// It owns authentication (a token, or an AppRole login), keeping the token alive while Eos
// runs (Store.Run), where each secret lives (Config.PathTemplate, by default
// <mount>/eos/<env>/<service>/<name>, the value under the key "value"), and generating secret
// values. A secret is written once, with check-and-set, so two Eos instances never overwrite
// each other and an existing secret is always reused.
//
// Values never leave the package except through ProviderEnv, whose result is meant for a
// child process's environment: plans, results, errors and log lines carry paths only, and the
// token is never logged.
//
// It imports executor and nothing else of Eos.
package vault
