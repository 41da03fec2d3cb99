package terraform

import (
	"strings"
)

const (
	cliConfigEnv  = "TF_CLI_CONFIG_FILE"
	checkpointEnv = "CHECKPOINT_DISABLE"
)

// processEnv is the environment of every terraform process: the host's environment without any
// TF_* variable or CHECKPOINT_DISABLE, then extra, then the variables the layer owns.
//
// terraform-exec adds TF_IN_AUTOMATION=1 and blanks TF_LOG* itself, and refuses to let callers
// set TF_INPUT; instead it passes -input=false to every command that can prompt (init, plan,
// apply), which is what TF_INPUT=0 would do.
func processEnv(host []string, extra map[string]string, cliConfigFile string) map[string]string {
	env := make(map[string]string, len(host)+len(extra)+2)
	for _, kv := range host {
		k, v, _ := strings.Cut(kv, "=")
		if k == "" || strings.HasPrefix(k, "TF_") || k == checkpointEnv {
			continue
		}
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	env[checkpointEnv] = "1"
	env[cliConfigEnv] = cliConfigFile
	return env
}
