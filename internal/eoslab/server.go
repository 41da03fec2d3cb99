package eoslab

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Server sizes and images a simulated server accepts.
var (
	ServerSizes  = oneOf{"small", "medium", "large", "xlarge"}
	ServerImages = oneOf{"debian-11", "debian-12", "debian-13", "ubuntu-22.04", "ubuntu-24.04", "rocky-9"}
)

const serverKind = "server"

var (
	_ resource.ResourceWithConfigure   = (*serverResource)(nil)
	_ resource.ResourceWithImportState = (*serverResource)(nil)
)

// serverResource is eoslab_server, a virtual machine, imported by name.
type serverResource struct {
	fileResource[serverModel, serverFile]
}

func newServerResource() resource.Resource {
	return &serverResource{fileResource[serverModel, serverFile]{
		kind:     serverKind,
		ref:      serverModel.ref,
		computed: serverComputed,
		toFile:   serverToFile,
		fromFile: serverFromFile,
	}}
}

type serverModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Size        types.String `tfsdk:"size"`
	Image       types.String `tfsdk:"image"`
	Labels      types.Map    `tfsdk:"labels"`
	IPv4Address types.String `tfsdk:"ipv4_address"`
	Status      types.String `tfsdk:"status"`
}

// serverFile is the on-disk form of a server.
type serverFile struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Size        string            `json:"size"`
	Image       string            `json:"image"`
	Labels      map[string]string `json:"labels"`
	IPv4Address string            `json:"ipv4_address"`
	Status      string            `json:"status"`
}

func serverRef(name string) Ref { return Ref{Kind: serverKind, Key: name, Name: name} }

func (m serverModel) ref() Ref { return serverRef(m.Name.ValueString()) }

func (r *serverResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A simulated virtual machine, stored as ROOT/server/<name>.json.",
		Attributes: map[string]schema.Attribute{
			"id":   computedID(),
			"name": nameAttribute("Server name; changing it replaces the server."),
			"size": schema.StringAttribute{
				Required:    true,
				Description: "Server size; " + ServerSizes.Description(context.Background()) + ". Changed in place.",
				Validators:  []validator.String{ServerSizes},
			},
			"image": schema.StringAttribute{
				Required:      true,
				Description:   "Operating system image; " + ServerImages.Description(context.Background()) + ". Changing it rebuilds (replaces) the server.",
				Validators:    []validator.String{ServerImages},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"labels": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				Description: "Free-form labels.",
			},
			"ipv4_address": schema.StringAttribute{
				Computed:      true,
				Description:   "A stable fake address in a documentation range (RFC 5737), derived from the name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				Computed:      true,
				Description:   `Server status, "running" once created.`,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// serverComputed sets what a new server gets: its id, an address and a status.
func serverComputed(ref Ref, m *serverModel) {
	m.ID = types.StringValue(fakeID(ref))
	m.IPv4Address = types.StringValue(fakeIPv4(ref.Name))
	m.Status = types.StringValue("running")
}

func serverToFile(ctx context.Context, m serverModel, diags *diag.Diagnostics) serverFile {
	return serverFile{
		ID:          m.ID.ValueString(),
		Name:        m.Name.ValueString(),
		Size:        m.Size.ValueString(),
		Image:       m.Image.ValueString(),
		Labels:      stringMap(ctx, m.Labels, diags),
		IPv4Address: m.IPv4Address.ValueString(),
		Status:      m.Status.ValueString(),
	}
}

func serverFromFile(ctx context.Context, f serverFile, m *serverModel, diags *diag.Diagnostics) {
	labels, d := types.MapValueFrom(ctx, types.StringType, f.Labels)
	diags.Append(d...)
	m.ID = types.StringValue(f.ID)
	m.Size = types.StringValue(f.Size)
	m.Image = types.StringValue(f.Image)
	m.Labels = labels
	m.IPv4Address = types.StringValue(f.IPv4Address)
	m.Status = types.StringValue(f.Status)
}
