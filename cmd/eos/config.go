package main

import "github.com/hashicorp/hcl/v2"

// Config is the configuration file (HCL, see examples/eos.hcl). Every setting has a default,
// so Eos runs with no file at all; EOS_* environment variables override the file.
type Config struct {
	// DataDir holds the bbolt store and Terraform working directories (EOS_DATA_DIR).
	DataDir string `hcl:"data_dir,optional"`
	// DefaultEnv is the environment of requests that name none (EOS_DEFAULT_ENV).
	DefaultEnv string `hcl:"default_env,optional"`
	// BotName is the name people mention (EOS_BOT_NAME).
	BotName string `hcl:"bot_name,optional"`
	// CatalogDirs are operators' blueprint directories, added to the embedded ones
	// (EOS_CATALOG_DIRS, separated by ':').
	CatalogDirs []string `hcl:"catalog_dirs,optional"`
	// Listen is the address of /healthz and /metrics in `eos serve` (EOS_LISTEN; default
	// 127.0.0.1:9747; "off" disables them).
	Listen string `hcl:"listen,optional"`
	// Environments are the environments requests may name, besides DefaultEnv. Policy blocks,
	// variants and digests declare theirs too; a request for another is refused, unless it
	// still holds services (then only destroy and the read-only verbs). Empty everywhere: the
	// default environment alone.
	Environments []string `hcl:"environments,optional"`
	// EnvironmentsAt is where the list is written, for the configuration's refusals.
	EnvironmentsAt hcl.Range `hcl:"environments,attr_range"`
	// OpsChannels see and act on the plans of every channel, as "platform:channel-id"
	// ("console:local", "mattermost:<channel id>"); other channels see only their own plans.
	OpsChannels []string `hcl:"ops_channels,optional"`
	// PolicyDirs are folders of Rego rules (policy as code, see README "Writing policies")
	// that judge every plan beside the policy blocks (EOS_POLICY_DIRS, separated by ':'). A
	// set that does not compile refuses start-up; SIGHUP reloads it with the policy blocks.
	PolicyDirs []string `hcl:"policy_dirs,optional"`
	// PolicyTimeout bounds one evaluation of the rules over a plan, like "1s" (default); an
	// evaluation that runs out of time denies the plan.
	PolicyTimeout string `hcl:"policy_timeout,optional"`
	// PolicyTimezone is the IANA zone the rules' input document gives the time in besides
	// UTC (default UTC), for rules about change windows.
	PolicyTimezone string `hcl:"policy_timezone,optional"`
	// LogLevel is debug, info, warn or error (EOS_LOG_LEVEL).
	LogLevel string `hcl:"log_level,optional"`
	// LogFile, when set, is where eos serve appends its log instead of standard error
	// (EOS_LOG_FILE): make run keeps the log out of the console's chat this way.
	LogFile string `hcl:"log_file,optional"`
	// LayerTimeout bounds one layer's apply in a run (Salt, Terraform or Nomad), like "30m"
	// (default); a layer that runs out of time fails, and is rolled back by policy.
	LayerTimeout string `hcl:"layer_timeout,optional"`
	// MaxConcurrent is how many messages and reactions are handled at once (default 64);
	// one conversation's are always handled in order.
	MaxConcurrent int `hcl:"max_concurrent,optional"`

	Store      *StoreConfig      `hcl:"store,block"`
	Leader     *LeaderConfig     `hcl:"leader,block"`
	Terraform  *TerraformConfig  `hcl:"terraform,block"`
	Console    *ConsoleConfig    `hcl:"console,block"`
	Mattermost *MattermostConfig `hcl:"mattermost,block"`
	Slack      *SlackConfig      `hcl:"slack,block"`
	Discord    *DiscordConfig    `hcl:"discord,block"`
	Vault      *VaultConfig      `hcl:"vault,block"`
	Salt       *SaltConfig       `hcl:"salt,block"`
	Nomad      *NomadConfig      `hcl:"nomad,block"`
	Policies   []PolicyConfig    `hcl:"policy,block"`
	Digests    []DigestConfig    `hcl:"digest,block"`
	// Web is the status page on the listen address (config_web.go).
	Web *WebBlock `hcl:"web,block"`

	// servedAt is the address `eos serve` listens on (the page's), set before build; empty
	// for the other commands and with listen "off".
	servedAt string
}

// StoreConfig selects where Eos keeps its state:
//
//	store {
//	  type = "postgres"
//	  dsn  = "postgres://eos@db.internal:5432/eos?sslmode=verify-full"
//	}
//
// bbolt (the default) is one file in DATA_DIR for one process; postgres is shared by any
// number of replicas, one of which leads (see LeaderConfig).
type StoreConfig struct {
	// Type is bbolt or postgres (EOS_STORE_TYPE; default postgres when a DSN is set).
	Type string `hcl:"type,optional"`
	// DSN is the PostgreSQL connection string (EOS_STORE_DSN). Keep the password out of it and
	// out of this file: PostgreSQL's own PGPASSWORD or PGPASSFILE supply it.
	DSN string `hcl:"dsn,optional"`
}

// LeaderConfig tunes the election among replicas on a PostgreSQL store; the defaults give a
// takeover within about 2 s of a leader's crash and 7 s of a leader frozen or cut off.
type LeaderConfig struct {
	// Retry is how often a standby tries to become leader, like "1s".
	Retry string `hcl:"retry,optional"`
	// Heartbeat is how often the leader proves it is alive, like "1s".
	Heartbeat string `hcl:"heartbeat,optional"`
	// Lease is how long a silent leader keeps leading, like "5s": PostgreSQL ends its session
	// then, and it stops acting on its own a heartbeat earlier.
	Lease string `hcl:"lease,optional"`
}

// DigestConfig schedules a drift digest.
type DigestConfig struct {
	Name string `hcl:"name,label"`
	// Platform is the adapter that posts it: mattermost or console.
	Platform string `hcl:"platform"`
	// Channel is "team/channel" (Mattermost) or "local" (console).
	Channel string `hcl:"channel"`
	// Schedule is a cron line, like "0 8 * * 1-5".
	Schedule string `hcl:"schedule"`
	// Timezone is an IANA zone name for the schedule (default UTC).
	Timezone string `hcl:"timezone,optional"`
	// Envs and Services limit what it covers; empty means everything.
	Envs     []string `hcl:"envs,optional"`
	Services []string `hcl:"services,optional"`
	// EnvsAt is where envs is written, for the configuration's refusals.
	EnvsAt hcl.Range `hcl:"envs,attr_range"`
	// Parallelism is how many services are checked at once (default: the number of cores).
	Parallelism int `hcl:"parallelism,optional"`
	// CheckTimeout bounds one service's check, like "5m" (default); a check that runs out of
	// time is reported unknown, never clean.
	CheckTimeout string `hcl:"check_timeout,optional"`
}

// TerraformConfig configures the Terraform layer.
type TerraformConfig struct {
	// Binary is the terraform executable; empty means PATH (EOS_TERRAFORM_BINARY).
	Binary string `hcl:"binary,optional"`
	// Mirror is a filesystem provider mirror (EOS_TERRAFORM_MIRROR).
	Mirror string `hcl:"mirror,optional"`
	// MirrorInclude lists the providers served by Mirror (default registry.terraform.io/eos/*).
	MirrorInclude []string `hcl:"mirror_include,optional"`
	// Variants maps environments to the blueprints' variant they use, for the Salt, Terraform
	// and Nomad parts alike (e.g. { production = "production" }: LVM and packages, Hetzner,
	// Cloudflare and docker jobs); others use "local": files under the minion's eos_data_dir,
	// the simulated cloud and raw_exec jobs.
	Variants map[string]string `hcl:"variants,optional"`
	// VariantsAt is where variants is written, for the configuration's refusals.
	VariantsAt hcl.Range `hcl:"variants,attr_range"`
	// CloudDir is where the local variant's simulated cloud (eoslab) keeps its objects
	// (default DATA_DIR/cloud).
	CloudDir string `hcl:"cloud_dir,optional"`
	// Rollback is failed-layer (default), all or none.
	Rollback string `hcl:"rollback,optional"`
	// Timeout bounds one terraform command, like "10m".
	Timeout string `hcl:"timeout,optional"`
	// LockTimeout is how long plan and apply wait for a state lock another run holds, like
	// "30s"; default 0: refuse at once, naming the holder.
	LockTimeout string `hcl:"lock_timeout,optional"`
	// MaxCommands bounds the terraform commands running at once (default twice the cores,
	// at least 4).
	MaxCommands int `hcl:"max_commands,optional"`
	// Backend is where Terraform keeps state and its lock (default local, in DATA_DIR).
	Backend *BackendBlock `hcl:"backend,block"`
}

// BackendBlock selects Terraform's state backend:
//
//	backend {
//	  type   = "pg"
//	  config = { conn_str = "postgres://eos@db/eos_state" }
//	}
type BackendBlock struct {
	// Type is local, pg, consul or s3.
	Type string `hcl:"type"`
	// Config holds the backend's arguments (conn_str, schema_name, ...); secret ones reach
	// Terraform through its environment only.
	Config map[string]string `hcl:"config,optional"`
}

// ConsoleConfig configures the terminal chat of `eos serve`.
type ConsoleConfig struct {
	// Enabled runs the console in `eos serve`; by default it runs when no other adapter is
	// configured.
	Enabled *bool `hcl:"enabled,optional"`
	// User is the name the console user approves as (default $USER).
	User string `hcl:"user,optional"`
	// Groups are the console's user groups, for "group:NAME" in the policy
	// (groups = { sre = ["bob", "dave"] }).
	Groups map[string][]string `hcl:"groups,optional"`
}

// MattermostConfig connects to a Mattermost server.
type MattermostConfig struct {
	// URL of the server (EOS_MATTERMOST_URL).
	URL string `hcl:"url,optional"`
	// Token is the bot account's token; prefer EOS_MATTERMOST_TOKEN to writing it here.
	Token string `hcl:"token,optional"`
	// Channels the bot serves, as "team/channel" (EOS_MATTERMOST_CHANNELS, comma-separated).
	Channels []string `hcl:"channels,optional"`
}

// VaultConfig connects the secrets store (KV v2).
type VaultConfig struct {
	// Address of Vault (EOS_VAULT_ADDR).
	Address string `hcl:"address,optional"`
	// Token; prefer EOS_VAULT_TOKEN. Or AppRole: role_id and secret_id (EOS_VAULT_SECRET_ID).
	Token    string `hcl:"token,optional"`
	RoleID   string `hcl:"role_id,optional"`
	SecretID string `hcl:"secret_id,optional"`
	// Mount is the KV v2 mount (default "secret"); PathTemplate places each unit's entry
	// under it, one key per secret (default "eos/{env}/{service}"; {name} is refused).
	Mount        string `hcl:"mount,optional"`
	PathTemplate string `hcl:"path_template,optional"`
	// ProviderPath holds provider credentials (HCLOUD_TOKEN, CLOUDFLARE_API_TOKEN) handed to
	// Terraform through its environment (default "eos/providers").
	ProviderPath string `hcl:"provider_path,optional"`
	// CACert is a PEM file of CAs to trust for https.
	CACert string `hcl:"ca_cert,optional"`
}

// SaltConfig connects the Salt layer to salt-api (rest_cherrypy).
type SaltConfig struct {
	// URL of salt-api (EOS_SALT_URL).
	URL string `hcl:"url,optional"`
	// Username (EOS_SALT_USERNAME) and Password for eauth; prefer EOS_SALT_PASSWORD for the
	// password.
	Username string `hcl:"username,optional"`
	Password string `hcl:"password,optional"`
	// EAuth is the external auth backend (EOS_SALT_EAUTH; default pam).
	EAuth string `hcl:"eauth,optional"`
	// Targets are the default minions (a glob like "*" or a list; EOS_SALT_TARGETS, comma
	// separated).
	Targets []string `hcl:"targets,optional"`
	// DisableEvents stops following salt-api's /events stream during an apply (progress then
	// comes per minion, from polling /jobs).
	DisableEvents bool `hcl:"disable_events,optional"`
	// DryRunsFromJobs (default true) makes dry runs take minions' returns from /jobs (a runner
	// each, about a second); false takes them from their return events, which any minion
	// could forge: only where every minion is trusted as much as the master.
	DryRunsFromJobs *bool `hcl:"dry_runs_from_jobs,optional"`
}

// NomadConfig connects the Nomad layer.
type NomadConfig struct {
	// Address of the Nomad HTTP API (EOS_NOMAD_ADDR).
	Address string `hcl:"address,optional"`
	Region  string `hcl:"region,optional"`
	// Namespace overrides the jobs' namespace.
	Namespace string `hcl:"namespace,optional"`
	// Token is an ACL token; prefer EOS_NOMAD_TOKEN.
	Token string `hcl:"token,optional"`
	// CACert is a PEM file of CAs to trust for https.
	CACert string `hcl:"ca_cert,optional"`
	// DeployTimeout bounds waiting for a deployment to become healthy (default 5m).
	DeployTimeout string `hcl:"deploy_timeout,optional"`
}

// SlackConfig connects to Slack in Socket Mode (no public endpoint needed).
type SlackConfig struct {
	// AppToken (xapp-…, EOS_SLACK_APP_TOKEN) opens the socket; BotToken (xoxb-…,
	// EOS_SLACK_BOT_TOKEN) calls the Web API. Prefer the variables to writing them here.
	AppToken string `hcl:"app_token,optional"`
	BotToken string `hcl:"bot_token,optional"`
	// AdminUserToken (xoxp-…, EOS_SLACK_ADMIN_USER_TOKEN), optional, is a workspace admin's
	// user token, used only to delete a message in which someone typed a secret: a bot token
	// may delete only the bot's own messages.
	AdminUserToken string `hcl:"admin_user_token,optional"`
	// Channels the bot serves (ids or names); empty means every channel it is in, plus DMs.
	Channels []string `hcl:"channels,optional"`
}

// DiscordConfig connects to Discord's gateway.
type DiscordConfig struct {
	// Token is the bot token (EOS_DISCORD_TOKEN).
	Token string `hcl:"token,optional"`
	// Channels the bot serves (ids); empty means every channel it sees, plus DMs.
	Channels []string `hcl:"channels,optional"`
	// Guild is the server (guild id) whose roles stand for "group:NAME" in the policy; empty
	// means the bot's only guild.
	Guild string `hcl:"guild,optional"`
}

// PolicyConfig is the approval policy of one environment; the label "default" applies to
// environments without their own block.
type PolicyConfig struct {
	Env          string   `hcl:"env,label"`
	Requesters   []string `hcl:"requesters,optional"`
	Approvers    []string `hcl:"approvers,optional"`
	Approvals    int      `hcl:"approvals,optional"`
	SelfApproval bool     `hcl:"self_approval,optional"`
	TTL          string   `hcl:"ttl,optional"`
	// Verbs make single verbs stricter: verb "destroy" { approvals = 2 }.
	Verbs []VerbPolicyConfig `hcl:"verb,block"`
	// Risks make plans that carry a risk stricter, whatever their verb:
	// risk "data-loss" { approvals = 2 }.
	Risks []RiskPolicyConfig `hcl:"risk,block"`
	// At is where the block is written, and the others where its settings are, for the
	// configuration's refusals (config_check.go).
	At           hcl.Range `hcl:",def_range"`
	RequestersAt hcl.Range `hcl:"requesters,attr_range"`
	ApproversAt  hcl.Range `hcl:"approvers,attr_range"`
	ApprovalsAt  hcl.Range `hcl:"approvals,attr_range"`
}

// RiskPolicyConfig asks more of plans that carry one risk ("data-loss": a plan destroying or
// replacing a resource its blueprint marks as holding data).
type RiskPolicyConfig struct {
	Risk         string   `hcl:"risk,label"`
	Approvers    []string `hcl:"approvers,optional"`
	Approvals    int      `hcl:"approvals,optional"`
	SelfApproval bool     `hcl:"self_approval,optional"`

	At          hcl.Range `hcl:",def_range"`
	ApproversAt hcl.Range `hcl:"approvers,attr_range"`
	ApprovalsAt hcl.Range `hcl:"approvals,attr_range"`
}

// VerbPolicyConfig overrides an environment's policy for one verb.
type VerbPolicyConfig struct {
	Verb         string   `hcl:"verb,label"`
	Requesters   []string `hcl:"requesters,optional"`
	Approvers    []string `hcl:"approvers,optional"`
	Approvals    int      `hcl:"approvals,optional"`
	SelfApproval bool     `hcl:"self_approval,optional"`

	At           hcl.Range `hcl:",def_range"`
	RequestersAt hcl.Range `hcl:"requesters,attr_range"`
	ApproversAt  hcl.Range `hcl:"approvers,attr_range"`
	ApprovalsAt  hcl.Range `hcl:"approvals,attr_range"`
}
