package eoslab

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
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

// serverResource is eoslab_server, a virtual machine.
type serverResource struct{ storeResource }

func newServerResource() resource.Resource { return &serverResource{} }

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

func (r *serverResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_server"
}

func (r *serverResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A simulated virtual machine, stored as ROOT/server/<name>.json.",
		Attributes: map[string]schema.Attribute{
			"id": computedID(),
			"name": schema.StringAttribute{
				Required:      true,
				Description:   "Server name; changing it replaces the server.",
				Validators:    []validator.String{resourceName},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
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

func (r *serverResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m serverModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := serverRef(m.Name.ValueString())
	m.ID = types.StringValue(fakeID(ref))
	m.IPv4Address = types.StringValue(fakeIPv4(ref.Name))
	m.Status = types.StringValue("running")
	f := r.toFile(ctx, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.store.Create(ctx, ref, f); err != nil {
		addStoreError(&resp.Diagnostics, "create", ref, err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *serverResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m serverModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := serverRef(m.Name.ValueString())
	var f serverFile
	found, err := r.store.Get(ctx, ref, &f)
	if err != nil {
		addStoreError(&resp.Diagnostics, "read", ref, err)
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	labels, diags := types.MapValueFrom(ctx, types.StringType, f.Labels)
	resp.Diagnostics.Append(diags...)
	m.ID = types.StringValue(f.ID)
	m.Size = types.StringValue(f.Size)
	m.Image = types.StringValue(f.Image)
	m.Labels = labels
	m.IPv4Address = types.StringValue(f.IPv4Address)
	m.Status = types.StringValue(f.Status)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *serverResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m serverModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := serverRef(m.Name.ValueString())
	f := r.toFile(ctx, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.store.Put(ctx, ref, f); err != nil {
		addStoreError(&resp.Diagnostics, "update", ref, err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *serverResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := serverRef(name.ValueString())
	if err := r.store.Delete(ctx, ref); err != nil {
		addStoreError(&resp.Diagnostics, "delete", ref, err)
	}
}

// ImportState imports a server by name: terraform import eoslab_server.x NAME.
func (r *serverResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
}

func (r *serverResource) toFile(ctx context.Context, m serverModel, diags *diag.Diagnostics) serverFile {
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
