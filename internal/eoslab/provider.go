package eoslab

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Address is the provider's registry address; modules require it as
// source = "eos/eoslab".
const Address = "registry.terraform.io/eos/eoslab"

// Environment variables read when the provider block leaves a setting out.
const (
	// EnvRoot supplies root.
	EnvRoot = "EOSLAB_ROOT"
	// EnvFailOn supplies extra fail_on entries, comma-separated.
	EnvFailOn = "EOSLAB_FAIL_ON"
	// EnvDelay supplies delay when the provider block does not set it (make run uses it so
	// progress is visible; crash tests use it to kill Eos mid-run).
	EnvDelay = "EOSLAB_DELAY"
)

var _ provider.Provider = (*Provider)(nil)

// Provider is the eoslab Terraform provider.
type Provider struct {
	version string
}

// New returns a constructor for the provider, as providerserver.Serve wants.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &Provider{version: version} }
}

type providerModel struct {
	Root   types.String `tfsdk:"root"`
	Delay  types.String `tfsdk:"delay"`
	FailOn types.List   `tfsdk:"fail_on"`
}

// Metadata implements provider.Provider.
func (p *Provider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "eoslab"
	resp.Version = p.version
}

// Schema implements provider.Provider.
func (p *Provider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Simulates a cloud on the local disk: every object is one JSON file under root.",
		Attributes: map[string]schema.Attribute{
			"root": schema.StringAttribute{
				Optional:    true,
				Description: "Directory holding the simulated cloud. Defaults to $" + EnvRoot + ".",
			},
			"delay": schema.StringAttribute{
				Optional:    true,
				Description: `Pause before every create, update and delete, as a Go duration ("2s"). Defaults to "0s".`,
			},
			"fail_on": schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				Description: "Object names whose create or update fails, for rollback tests. $" + EnvFailOn + " adds more, comma-separated.",
			},
		},
	}
}

// Configure implements provider.Provider: it builds the Store every resource uses.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Root.IsUnknown() || cfg.Delay.IsUnknown() || cfg.FailOn.IsUnknown() {
		resp.Diagnostics.AddError("eoslab provider configuration is not known yet",
			"root, delay and fail_on must be known at plan time; do not derive them from resources.")
		return
	}

	root := cfg.Root.ValueString()
	if root == "" {
		root = os.Getenv(EnvRoot)
	}
	if root == "" {
		resp.Diagnostics.AddAttributeError(path.Root("root"), "eoslab root directory is not set",
			`Set root = "/path/to/simulated-cloud" in the provider "eoslab" block or export `+EnvRoot+".")
		return
	}

	delay := time.Duration(0)
	s := cfg.Delay.ValueString()
	if s == "" {
		s = os.Getenv(EnvDelay)
	}
	if s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			resp.Diagnostics.AddAttributeError(path.Root("delay"), "invalid eoslab delay",
				fmt.Sprintf("delay %q is not a non-negative Go duration such as \"500ms\" or \"2s\".", s))
			return
		}
		delay = d
	}

	var failOn []string
	if !cfg.FailOn.IsNull() {
		resp.Diagnostics.Append(cfg.FailOn.ElementsAs(ctx, &failOn, false)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	failOn = append(failOn, splitList(os.Getenv(EnvFailOn))...)

	store, err := NewStore(StoreConfig{Root: root, Delay: delay, FailOn: failOn})
	if err != nil {
		resp.Diagnostics.AddError("eoslab cannot open its root directory", err.Error())
		return
	}
	resp.ResourceData = store
	resp.DataSourceData = store
}

// Resources implements provider.Provider.
func (p *Provider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newServerResource,
		newVolumeResource,
		newDNSRecordResource,
		newFirewallResource,
	}
}

// DataSources implements provider.Provider; eoslab has none.
func (p *Provider) DataSources(context.Context) []func() datasource.DataSource {
	return nil
}

// splitList splits a comma-separated list, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
