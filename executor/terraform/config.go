package terraform

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/eosbot/eos/executor"
)

// DefaultTimeout bounds each terraform command when Config.Timeout is zero.
const DefaultTimeout = 10 * time.Minute

// defaultCLIConfigName is the CLI configuration file under WorkDir when Config.CLIConfigFile is
// empty. Its name cannot clash with an environment directory because it has an extension.
const defaultCLIConfigName = "terraform.rc"

// Config configures the layer.
type Config struct {
	// Binary is the terraform executable; "" means look it up on PATH.
	Binary string
	// WorkDir is the root under which each unit gets its own working directory:
	// WorkDir/<env>/<service>. WorkDir/.eos-init keeps one init snapshot per module (see
	// initcache.go). It is created if missing.
	WorkDir string
	// CLIConfigFile is where the layer writes Terraform's CLI configuration
	// (TF_CLI_CONFIG_FILE), so the host's ~/.terraformrc never leaks into a run.
	// "" means WorkDir/terraform.rc.
	CLIConfigFile string
	// PluginCacheDir is the provider plugin cache (plugin_cache_dir); "" means no cache.
	// It is created if missing.
	PluginCacheDir string
	// Mirror, when set, is a filesystem provider mirror directory; providers matching
	// MirrorInclude (e.g. "registry.terraform.io/eos/*") are installed from it and never from
	// the network.
	Mirror string
	// MirrorInclude lists the provider address patterns served by Mirror; required when Mirror
	// is set.
	MirrorInclude []string
	// Env is extra environment for every terraform process (provider credentials later). Never
	// logged, and its values are redacted from error messages. It must not set variables the
	// layer or terraform-exec manage (TF_CLI_CONFIG_FILE, CHECKPOINT_DISABLE, TF_VAR_*,
	// TF_CLI_ARGS*, TF_LOG*, TF_INPUT, TF_IN_AUTOMATION, TF_WORKSPACE, ...).
	Env map[string]string
	// Timeout bounds each terraform command (default 10 minutes).
	Timeout time.Duration
	// Backend is where Terraform keeps state and its lock; nil means local (state in each
	// unit's working directory).
	Backend *BackendConfig
	// LockTimeout is how long plan and apply wait for a state lock another run holds
	// (-lock-timeout); 0 means fail at once, saying who holds it. The lock is never forced.
	LockTimeout time.Duration
	// MaxCommands bounds the terraform commands running at once across every unit and run
	// of the layer (default twice the cores, at least 4). Each is a terraform process and
	// its providers' processes, tens of megabytes and a core at times: a burst of previews
	// queues here instead of starting one per unit at once.
	MaxCommands int
	// Logger receives structured logs (log/slog) with unit and command attributes; nil means
	// discard.
	Logger *slog.Logger
}

// Layer drives Terraform (1.5 or later; terraform_data needs 1.4, saved-plan -json output 0.15)
// for the executor. It is safe for concurrent use; commands on one unit key are serialised.
type Layer struct {
	// renewLocks lets init renew .terraform.lock.hcl when the mirror's providers changed.
	renewLocks bool
	bin        string
	workDir    string
	cliFile    string
	cliConfig  []byte
	mirror     string
	env        map[string]string
	secrets    []string
	timeout    time.Duration
	lockWait   time.Duration
	backend    BackendConfig
	who        string
	log        *slog.Logger

	mu    sync.Mutex
	units map[string]*unitDir
	// initMu lets one terraform init run at a time: init fills the shared plugin cache, which
	// Terraform does not make safe for concurrent use ("after installing … it is still not
	// detected"), while plans of different units run side by side.
	initMu sync.Mutex
	// procs holds a place for each terraform command running (Config.MaxCommands; slot).
	procs chan struct{}
}

var _ executor.Layer = (*Layer)(nil)

// New validates cfg, finds the terraform binary and writes the CLI configuration file.
func New(cfg Config) (*Layer, error) {
	if err := cfg.normalise(); err != nil {
		return nil, fmt.Errorf("terraform layer config: %w", err)
	}
	bin := cfg.Binary
	if bin == "" {
		bin = "terraform"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("finding the terraform binary: %w", err)
	}
	for _, dir := range []string{cfg.WorkDir, cfg.PluginCacheDir, filepath.Dir(cfg.CLIConfigFile)} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("creating %s: %w", dir, err)
		}
	}
	if cfg.PluginCacheDir != "" {
		if err := trustedDir(cfg.PluginCacheDir); err != nil {
			return nil, fmt.Errorf("terraform layer config: %w", err)
		}
	}
	text, err := cliConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("rendering the terraform CLI config: %w", err)
	}
	if err := writeFileAtomic(cfg.CLIConfigFile, text, 0o600); err != nil {
		return nil, fmt.Errorf("writing the terraform CLI config: %w", err)
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	secrets := make([]string, 0, len(cfg.Env))
	for _, v := range cfg.Env {
		secrets = append(secrets, v)
	}
	secrets = append(secrets, cfg.Backend.secrets()...)
	return &Layer{
		renewLocks: cfg.Mirror != "",
		bin:        path,
		workDir:    cfg.WorkDir,
		cliFile:    cfg.CLIConfigFile,
		cliConfig:  text,
		mirror:     cfg.Mirror,
		env:        processEnv(os.Environ(), cfg.Env, cfg.CLIConfigFile),
		secrets:    secrets,
		timeout:    cfg.Timeout,
		lockWait:   cfg.LockTimeout,
		backend:    *cfg.Backend,
		who:        whoAmI(),
		log:        logger,
		units:      map[string]*unitDir{},
		procs:      make(chan struct{}, cfg.MaxCommands),
	}, nil
}

// Name is the layer's place in the run order.
func (l *Layer) Name() executor.LayerName { return executor.Terraform }

// normalise checks cfg, makes its paths absolute (terraform runs in the unit directories) and
// fills in defaults.
func (cfg *Config) normalise() error {
	if cfg.WorkDir == "" {
		return errors.New("WorkDir is required")
	}
	if cfg.Timeout < 0 {
		return fmt.Errorf("Timeout %s is negative", cfg.Timeout)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.LockTimeout < 0 {
		return fmt.Errorf("LockTimeout %s is negative", cfg.LockTimeout)
	}
	if cfg.MaxCommands < 0 {
		return fmt.Errorf("MaxCommands %d is negative", cfg.MaxCommands)
	}
	if cfg.MaxCommands == 0 {
		cfg.MaxCommands = max(4, 2*runtime.GOMAXPROCS(0))
	}
	b := BackendConfig{}
	if cfg.Backend != nil {
		b = BackendConfig{Type: cfg.Backend.Type, Config: maps.Clone(cfg.Backend.Config)}
	}
	if err := b.normalise(); err != nil {
		return fmt.Errorf("backend: %w", err)
	}
	cfg.Backend = &b
	if cfg.CLIConfigFile == "" {
		cfg.CLIConfigFile = filepath.Join(cfg.WorkDir, defaultCLIConfigName)
	}
	for _, p := range []*string{&cfg.WorkDir, &cfg.CLIConfigFile, &cfg.PluginCacheDir, &cfg.Mirror} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("making %s absolute: %w", *p, err)
		}
		*p = abs
	}
	if cfg.Mirror != "" && len(cfg.MirrorInclude) == 0 {
		return errors.New("MirrorInclude must name at least one provider pattern when Mirror is set")
	}
	if cfg.Mirror == "" && len(cfg.MirrorInclude) > 0 {
		return errors.New("MirrorInclude is set but Mirror is empty")
	}
	for _, s := range append([]string{cfg.PluginCacheDir, cfg.Mirror}, cfg.MirrorInclude...) {
		if err := checkCLIConfigString(s); err != nil {
			return err
		}
	}
	if bad := tfexec.ProhibitedEnv(cfg.Env); len(bad) > 0 {
		return fmt.Errorf("Env must not set %s: terraform-exec manages it", bad[0])
	}
	for k := range cfg.Env {
		if k == cliConfigEnv || k == checkpointEnv || k == "PG_CONN_STR" && cfg.Backend.Type == BackendPg {
			return fmt.Errorf("Env must not set %s: the layer manages it", k)
		}
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("Env has an invalid variable name %q", k)
		}
	}
	return nil
}

// checkCLIConfigString refuses strings that HCL 1 (which parses Terraform's CLI configuration)
// would not read back verbatim from hclwrite's output.
func checkCLIConfigString(s string) error {
	if strings.Contains(s, "${") || strings.Contains(s, "%{") {
		return fmt.Errorf("%q: template sequences are not allowed in CLI config values", s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%q: control characters are not allowed in CLI config values", s)
		}
	}
	return nil
}

// whoAmI is this process as Terraform names lock holders: user@host.
func whoAmI() string {
	name := "unknown"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return name + "@" + host
}
