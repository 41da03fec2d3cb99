package eoslab

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Values a firewall rule accepts.
var (
	FirewallDirections = oneOf{"in", "out"}
	FirewallProtocols  = oneOf{"tcp", "udp", "icmp"}
)

const firewallKind = "firewall"

var (
	_ resource.ResourceWithConfigure      = (*firewallResource)(nil)
	_ resource.ResourceWithImportState    = (*firewallResource)(nil)
	_ resource.ResourceWithValidateConfig = (*firewallResource)(nil)
)

// firewallResource is eoslab_firewall, a named set of rules, imported by name.
type firewallResource struct {
	fileResource[firewallModel, firewallFile]
}

func newFirewallResource() resource.Resource {
	return &firewallResource{fileResource[firewallModel, firewallFile]{
		kind:     firewallKind,
		ref:      firewallModel.ref,
		computed: func(ref Ref, m *firewallModel) { m.ID = types.StringValue(fakeID(ref)) },
		toFile:   firewallToFile,
		fromFile: firewallFromFile,
	}}
}

type firewallModel struct {
	ID    types.String        `tfsdk:"id"`
	Name  types.String        `tfsdk:"name"`
	Rules []firewallRuleModel `tfsdk:"rules"`
}

type firewallRuleModel struct {
	Direction types.String `tfsdk:"direction"`
	Protocol  types.String `tfsdk:"protocol"`
	Port      types.String `tfsdk:"port"`
	SourceIPs types.List   `tfsdk:"source_ips"`
}

// firewallFile is the on-disk form of a firewall.
type firewallFile struct {
	ID    string             `json:"id"`
	Name  string             `json:"name"`
	Rules []firewallRuleFile `json:"rules"`
}

type firewallRuleFile struct {
	Direction string   `json:"direction"`
	Protocol  string   `json:"protocol"`
	Port      *string  `json:"port"`
	SourceIPs []string `json:"source_ips"`
}

func firewallRef(name string) Ref { return Ref{Kind: firewallKind, Key: name, Name: name} }

func (m firewallModel) ref() Ref { return firewallRef(m.Name.ValueString()) }

func (r *firewallResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A simulated firewall, stored as ROOT/firewall/<name>.json.",
		Attributes: map[string]schema.Attribute{
			"id":   computedID(),
			"name": nameAttribute("Firewall name; changing it replaces the firewall."),
			"rules": schema.ListNestedAttribute{
				Required:    true,
				Description: "Rules, changed in place.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"direction": schema.StringAttribute{
							Required:    true,
							Description: "Traffic direction; " + FirewallDirections.Description(ctx) + ".",
							Validators:  []validator.String{FirewallDirections},
						},
						"protocol": schema.StringAttribute{
							Required:    true,
							Description: "Protocol; " + FirewallProtocols.Description(ctx) + ".",
							Validators:  []validator.String{FirewallProtocols},
						},
						"port": schema.StringAttribute{
							Optional:    true,
							Description: `Port "443", range "8000-8100" or "any"; required for tcp and udp, not allowed for icmp.`,
						},
						"source_ips": schema.ListAttribute{
							Optional:    true,
							ElementType: types.StringType,
							Description: "Addresses or CIDR prefixes the rule applies to.",
							Validators:  []validator.List{addressList{}},
						},
					},
				},
			},
		},
	}
}

// ValidateConfig checks each rule's port against its protocol.
func (r *firewallResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var rules types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("rules"), &rules)...)
	if resp.Diagnostics.HasError() || rules.IsNull() || rules.IsUnknown() {
		return
	}
	var models []firewallRuleModel
	resp.Diagnostics.Append(rules.ElementsAs(ctx, &models, false)...)
	for i, rule := range models {
		if rule.Protocol.IsUnknown() || rule.Port.IsUnknown() {
			continue
		}
		at := path.Root("rules").AtListIndex(i).AtName("port")
		if problem := checkPort(rule.Protocol.ValueString(), rule.Port); problem != "" {
			resp.Diagnostics.AddAttributeError(at, "Invalid firewall rule port", problem)
		}
	}
}

// checkPort says what is wrong with a rule's port for its protocol, or "".
func checkPort(protocol string, port types.String) string {
	if protocol == "icmp" {
		if !port.IsNull() {
			return "icmp rules have no port; remove it."
		}
		return ""
	}
	if port.IsNull() {
		return fmt.Sprintf("%s rules need a port: \"443\", a range \"8000-8100\" or \"any\".", protocol)
	}
	p := port.ValueString()
	if p == "any" {
		return ""
	}
	lo, hi, isRange := strings.Cut(p, "-")
	if !isRange {
		hi = lo
	}
	from, err1 := strconv.Atoi(lo)
	to, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || from < 1 || to > 65535 || from > to {
		return fmt.Sprintf("port %q must be a port 1-65535, a range such as \"8000-8100\", or \"any\".", p)
	}
	return ""
}

func firewallToFile(ctx context.Context, m firewallModel, diags *diag.Diagnostics) firewallFile {
	f := firewallFile{ID: m.ID.ValueString(), Name: m.Name.ValueString(), Rules: []firewallRuleFile{}}
	for _, rule := range m.Rules {
		f.Rules = append(f.Rules, firewallRuleFile{
			Direction: rule.Direction.ValueString(),
			Protocol:  rule.Protocol.ValueString(),
			Port:      optionalString(rule.Port),
			SourceIPs: stringList(ctx, rule.SourceIPs, diags),
		})
	}
	return f
}

func firewallFromFile(ctx context.Context, f firewallFile, m *firewallModel, diags *diag.Diagnostics) {
	m.ID = types.StringValue(f.ID)
	m.Rules = make([]firewallRuleModel, 0, len(f.Rules))
	for _, rule := range f.Rules {
		ips, d := types.ListValueFrom(ctx, types.StringType, rule.SourceIPs)
		diags.Append(d...)
		m.Rules = append(m.Rules, firewallRuleModel{
			Direction: types.StringValue(rule.Direction),
			Protocol:  types.StringValue(rule.Protocol),
			Port:      types.StringPointerValue(rule.Port),
			SourceIPs: ips,
		})
	}
}
