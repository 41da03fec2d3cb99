package terraform

import (
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// cliConfig renders Terraform's CLI configuration for cfg with hclwrite, so paths and patterns
// are escaped as HCL strings rather than pasted in:
//
//	disable_checkpoint = true
//	plugin_cache_dir   = "/var/lib/eos/plugins"
//	plugin_cache_may_break_dependency_lock_file = true
//
//	provider_installation {
//	  filesystem_mirror {
//	    path    = "/var/lib/eos/mirror"
//	    include = ["registry.terraform.io/eos/*"]
//	  }
//	  direct {
//	    exclude = ["registry.terraform.io/eos/*"]
//	  }
//	}
func cliConfig(cfg Config) ([]byte, error) {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.SetAttributeValue("disable_checkpoint", cty.True)
	if cfg.PluginCacheDir != "" {
		body.SetAttributeValue("plugin_cache_dir", cty.StringVal(cfg.PluginCacheDir))
		// Without it, Terraform ≥ 1.4 installs a provider again into the cache on every new
		// unit's first init (no lock entry to check the cached copy against), replacing the
		// files other units' plans and applies are executing through their links: they fail
		// with "fork/exec …terraform-provider-…: no such file or directory". The cache is
		// Eos's own directory, filled from the operator's mirror, so its copy is trusted.
		body.SetAttributeValue("plugin_cache_may_break_dependency_lock_file", cty.True)
	}
	if cfg.Mirror != "" {
		include := make([]cty.Value, 0, len(cfg.MirrorInclude))
		for _, p := range cfg.MirrorInclude {
			include = append(include, cty.StringVal(p))
		}
		body.AppendNewline()
		install := body.AppendNewBlock("provider_installation", nil).Body()
		mirror := install.AppendNewBlock("filesystem_mirror", nil).Body()
		mirror.SetAttributeValue("path", cty.StringVal(cfg.Mirror))
		mirror.SetAttributeValue("include", cty.ListVal(include))
		direct := install.AppendNewBlock("direct", nil).Body()
		direct.SetAttributeValue("exclude", cty.ListVal(include))
	}
	return hclwrite.Format(f.Bytes()), nil
}
