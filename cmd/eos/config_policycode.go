package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/render"
)

// policyCode loads the policy as code the configuration names (policy_dirs): every .rego file
// under those folders, compiled once into one set. A set that does not compile is an error
// naming the file and line, so `eos serve` refuses to start and a reload keeps the set in
// force. Folders that hold no .rego file are refused too: a rule that silently judges nothing
// is what fail closed forbids. No policy_dirs is no policy as code (a nil set). zone is the
// time zone the input document gives the time in besides UTC (policy_timezone, default UTC).
func (c *Config) policyCode(ctx context.Context) (set *rego.Set, zone *time.Location, err error) {
	var timeout time.Duration
	if c.PolicyTimeout != "" {
		if timeout, err = time.ParseDuration(c.PolicyTimeout); err != nil || timeout <= 0 {
			return nil, nil, fmt.Errorf("policy_timeout %q is not a positive duration like \"1s\"", c.PolicyTimeout)
		}
	}
	zone = time.UTC
	if c.PolicyTimezone != "" {
		if zone, err = time.LoadLocation(c.PolicyTimezone); err != nil {
			return nil, nil, fmt.Errorf("policy_timezone %q: %w", c.PolicyTimezone, err)
		}
	}
	if len(c.PolicyDirs) == 0 {
		return nil, zone, nil
	}
	set, err = rego.Load(ctx, c.PolicyDirs, timeout)
	if err != nil {
		return nil, nil, fmt.Errorf("policy_dirs: %w", err)
	}
	if set == nil {
		return nil, nil, fmt.Errorf("policy_dirs (%s) hold no .rego file: no rule would judge any plan; point policy_dirs at the folders of your rules, or remove it",
			strings.Join(c.PolicyDirs, ", "))
	}
	return set, zone, nil
}

// writePolicyCode prints, for `eos config check`, the policy set policy_dirs gives (v, as
// validate compiled it): what will judge every plan beside the policy blocks. Nothing without
// policy_dirs.
func writePolicyCode(w io.Writer, c *Config, v validated) {
	if v.code == nil {
		return
	}
	fmt.Fprintf(w, "\nPolicy as code (%s): set sha256:%s, each plan judged within %s, times in %s. Its deciding rules:\n",
		strings.Join(c.PolicyDirs, ", "), render.ShortSHA(v.code.SHA256()), v.code.Timeout(), v.zone)
	for _, r := range v.code.Rules() {
		fmt.Fprintln(w, "  "+r)
	}
}
