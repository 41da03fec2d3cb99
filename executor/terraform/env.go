package terraform

import (
	"strings"
)

const (
	cliConfigEnv  = "TF_CLI_CONFIG_FILE"
	checkpointEnv = "CHECKPOINT_DISABLE"
)

// processEnv is the environment of every terraform process: the host's environment without any
// TF_* variable, CHECKPOINT_DISABLE or EOS_* variable, then extra, then the variables the layer
// owns.
//
// EOS_* variables are Eos's own configuration, and the way its credentials are best given
// (EOS_VAULT_TOKEN, EOS_MATTERMOST_TOKEN, EOS_SLACK_BOT_TOKEN, EOS_NOMAD_TOKEN, a DSN with a
// password): Terraform and its providers never read them, and every provider plugin and every
// local-exec of a blueprint's module would otherwise see them. What a module needs comes in
// extra (the backend's secrets, provider credentials from Vault).
//
// terraform-exec adds TF_IN_AUTOMATION=1 and blanks TF_LOG* itself, and refuses to let callers
// set TF_INPUT; instead it passes -input=false to every command that can prompt (init, plan,
// apply), which is what TF_INPUT=0 would do.
func processEnv(host []string, extra map[string]string, cliConfigFile string) map[string]string {
	env := make(map[string]string, len(host)+len(extra)+2)
	for _, kv := range host {
		k, v, _ := strings.Cut(kv, "=")
		if k == "" || strings.HasPrefix(k, "TF_") || strings.HasPrefix(k, "EOS_") || k == checkpointEnv {
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
