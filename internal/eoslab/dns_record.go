package eoslab

import (
	"context"
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// DNSRecordTypes are the record types eoslab_dns_record accepts.
var DNSRecordTypes = oneOf{"A", "AAAA", "CNAME", "TXT"}

const (
	dnsRecordKind = "dns_record"
	defaultTTL    = 300
)

var (
	zoneName = matches{
		re:   regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`),
		what: "a lowercase domain such as example.com",
	}
	recordName = matches{
		re:   regexp.MustCompile(`^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_.-]{0,61}[a-z0-9])?)$`),
		what: `"@" for the zone apex, or a lowercase relative name such as "cloud", "_acme-challenge" or "*.apps"`,
	}
	hostname = regexp.MustCompile(`^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.?$`)
)

var (
	_ resource.ResourceWithConfigure      = (*dnsRecordResource)(nil)
	_ resource.ResourceWithImportState    = (*dnsRecordResource)(nil)
	_ resource.ResourceWithValidateConfig = (*dnsRecordResource)(nil)
)

// dnsRecordResource is eoslab_dns_record, one record in a DNS zone.
type dnsRecordResource struct {
	fileResource[dnsRecordModel, dnsRecordFile]
}

func newDNSRecordResource() resource.Resource {
	return &dnsRecordResource{fileResource[dnsRecordModel, dnsRecordFile]{
		kind:     dnsRecordKind,
		ref:      dnsRecordModel.ref,
		computed: dnsRecordComputed,
		toFile:   dnsRecordToFile,
		fromFile: dnsRecordFromFile,
	}}
}

type dnsRecordModel struct {
	ID    types.String `tfsdk:"id"`
	Zone  types.String `tfsdk:"zone"`
	Name  types.String `tfsdk:"name"`
	Type  types.String `tfsdk:"type"`
	Value types.String `tfsdk:"value"`
	TTL   types.Int64  `tfsdk:"ttl"`
	FQDN  types.String `tfsdk:"fqdn"`
}

// dnsRecordFile is the on-disk form of a record.
type dnsRecordFile struct {
	ID    string `json:"id"`
	Zone  string `json:"zone"`
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
	TTL   int64  `json:"ttl"`
	FQDN  string `json:"fqdn"`
}

// fqdn joins a relative record name and its zone; "@" is the apex.
func fqdn(zone, name string) string {
	if name == "@" {
		return zone
	}
	return name + "." + zone
}

// dnsRecordRef keys a record by FQDN and type: ROOT/dns_record/cloud.example.com_A.json.
func dnsRecordRef(zone, name, typ string) Ref {
	f := fqdn(zone, name)
	return Ref{Kind: dnsRecordKind, Key: f + "_" + typ, Name: f}
}

func (m dnsRecordModel) ref() Ref {
	return dnsRecordRef(m.Zone.ValueString(), m.Name.ValueString(), m.Type.ValueString())
}

func (r *dnsRecordResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		Description: "A simulated DNS record, stored as ROOT/dns_record/<fqdn>_<type>.json.",
		Attributes: map[string]schema.Attribute{
			"id": computedID(),
			"zone": schema.StringAttribute{
				Required:      true,
				Description:   "Zone the record belongs to, such as example.com. Changing it replaces the record.",
				Validators:    []validator.String{zoneName},
				PlanModifiers: replace,
			},
			"name": schema.StringAttribute{
				Required:      true,
				Description:   `Name relative to the zone; "@" is the apex. Changing it replaces the record.`,
				Validators:    []validator.String{recordName},
				PlanModifiers: replace,
			},
			"type": schema.StringAttribute{
				Required:      true,
				Description:   "Record type; " + DNSRecordTypes.Description(context.Background()) + ". Changing it replaces the record.",
				Validators:    []validator.String{DNSRecordTypes},
				PlanModifiers: replace,
			},
			"value": schema.StringAttribute{
				Required:    true,
				Description: "Record data: an IPv4 address for A, IPv6 for AAAA, a hostname for CNAME, text for TXT.",
			},
			"ttl": schema.Int64Attribute{
				Optional:    true,
				Computed:    true,
				Default:     int64default.StaticInt64(defaultTTL),
				Description: fmt.Sprintf("Time to live in seconds, 60 to 86400; default %d.", defaultTTL),
				Validators:  []validator.Int64{int64Between{min: 60, max: 86400}},
			},
			"fqdn": schema.StringAttribute{
				Computed:      true,
				Description:   "Fully qualified name: name.zone, or the zone for \"@\".",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// ValidateConfig checks that value fits the record type.
func (r *dnsRecordResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var typ, value types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("type"), &typ)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("value"), &value)...)
	if resp.Diagnostics.HasError() || typ.IsNull() || typ.IsUnknown() || value.IsNull() || value.IsUnknown() {
		return
	}
	if problem := checkRecordValue(typ.ValueString(), value.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(path.Root("value"), "Invalid DNS record value", problem)
	}
}

// checkRecordValue says what is wrong with value for a record type, or "".
func checkRecordValue(typ, value string) string {
	switch typ {
	case "A":
		if a, err := netip.ParseAddr(value); err != nil || !a.Is4() {
			return fmt.Sprintf("an A record needs an IPv4 address such as 203.0.113.10, not %q.", value)
		}
	case "AAAA":
		if a, err := netip.ParseAddr(value); err != nil || !a.Is6() || a.Is4In6() {
			return fmt.Sprintf("an AAAA record needs an IPv6 address such as 2001:db8::10, not %q.", value)
		}
	case "CNAME":
		if !hostname.MatchString(value) {
			return fmt.Sprintf("a CNAME record needs a lowercase hostname such as proxy.example.com, not %q.", value)
		}
	case "TXT":
		if value == "" || len(value) > 2048 {
			return "a TXT record needs 1 to 2048 characters of text."
		}
	}
	return ""
}

// ImportState imports a record by "zone/name/type", for example
// terraform import eoslab_dns_record.x example.com/cloud/A. It replaces
// fileResource's import by name.
func (r *dnsRecordResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts := strings.Split(req.ID, "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		resp.Diagnostics.AddError("Invalid eoslab_dns_record import ID",
			fmt.Sprintf("Expected zone/name/type such as example.com/cloud/A, got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("zone"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), parts[1])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("type"), parts[2])...)
}

// dnsRecordComputed sets what a new record gets: its id and FQDN.
func dnsRecordComputed(ref Ref, m *dnsRecordModel) {
	m.ID = types.StringValue(fakeID(ref))
	m.FQDN = types.StringValue(ref.Name)
}

func dnsRecordToFile(_ context.Context, m dnsRecordModel, _ *diag.Diagnostics) dnsRecordFile {
	return dnsRecordFile{
		ID:    m.ID.ValueString(),
		Zone:  m.Zone.ValueString(),
		Name:  m.Name.ValueString(),
		Type:  m.Type.ValueString(),
		Value: m.Value.ValueString(),
		TTL:   m.TTL.ValueInt64(),
		FQDN:  m.FQDN.ValueString(),
	}
}

func dnsRecordFromFile(_ context.Context, f dnsRecordFile, m *dnsRecordModel, _ *diag.Diagnostics) {
	m.ID = types.StringValue(f.ID)
	m.Value = types.StringValue(f.Value)
	m.TTL = types.Int64Value(f.TTL)
	m.FQDN = types.StringValue(f.FQDN)
}
