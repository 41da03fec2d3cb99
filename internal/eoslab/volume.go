package eoslab

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// VolumeFormats are the filesystems a volume can be formatted with.
var VolumeFormats = oneOf{"xfs", "ext4", "btrfs"}

const (
	volumeKind = "volume"
	// minVolumeGB and maxVolumeGB bound size_gb, as a real block-storage API does.
	minVolumeGB = 10
	maxVolumeGB = 10240
)

var (
	_ resource.ResourceWithConfigure   = (*volumeResource)(nil)
	_ resource.ResourceWithImportState = (*volumeResource)(nil)
)

// volumeResource is eoslab_volume, a block-storage volume that can be
// attached to a server.
type volumeResource struct{ storeResource }

func newVolumeResource() resource.Resource { return &volumeResource{} }

type volumeModel struct {
	ID       types.String `tfsdk:"id"`
	Name     types.String `tfsdk:"name"`
	SizeGB   types.Int64  `tfsdk:"size_gb"`
	ServerID types.String `tfsdk:"server_id"`
	Format   types.String `tfsdk:"format"`
	Device   types.String `tfsdk:"device"`
}

// volumeFile is the on-disk form of a volume; null optional attributes are
// stored as JSON null.
type volumeFile struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	SizeGB   int64   `json:"size_gb"`
	ServerID *string `json:"server_id"`
	Format   *string `json:"format"`
	Device   string  `json:"device"`
}

func volumeRef(name string) Ref { return Ref{Kind: volumeKind, Key: name, Name: name} }

func (r *volumeResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_volume"
}

func (r *volumeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A simulated block-storage volume, stored as ROOT/volume/<name>.json.",
		Attributes: map[string]schema.Attribute{
			"id": computedID(),
			"name": schema.StringAttribute{
				Required:      true,
				Description:   "Volume name; changing it replaces the volume.",
				Validators:    []validator.String{resourceName},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"size_gb": schema.Int64Attribute{
				Required:      true,
				Description:   fmt.Sprintf("Size in GB, %d to %d. Grows in place; a volume cannot shrink.", minVolumeGB, maxVolumeGB),
				Validators:    []validator.Int64{int64Between{min: minVolumeGB, max: maxVolumeGB}},
				PlanModifiers: []planmodifier.Int64{noShrink{}},
			},
			"server_id": schema.StringAttribute{
				Optional:    true,
				Description: "ID of the eoslab_server the volume is attached to; changed in place (detach, attach).",
			},
			"format": schema.StringAttribute{
				Optional:      true,
				Description:   "Filesystem; " + VolumeFormats.Description(context.Background()) + ". Changing it replaces the volume.",
				Validators:    []validator.String{VolumeFormats},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"device": schema.StringAttribute{
				Computed:      true,
				Description:   "Device path on the server, /dev/disk/by-id/scsi-0EOS_Volume_<id>.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func (r *volumeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m volumeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := volumeRef(m.Name.ValueString())
	r.checkServer(ctx, m.ServerID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(fakeID(ref))
	m.Device = types.StringValue("/dev/disk/by-id/scsi-0EOS_Volume_" + m.ID.ValueString())
	if err := r.store.Create(ctx, ref, volumeToFile(m)); err != nil {
		addStoreError(&resp.Diagnostics, "create", ref, err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *volumeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m volumeModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := volumeRef(m.Name.ValueString())
	var f volumeFile
	found, err := r.store.Get(ctx, ref, &f)
	if err != nil {
		addStoreError(&resp.Diagnostics, "read", ref, err)
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	m.ID = types.StringValue(f.ID)
	m.SizeGB = types.Int64Value(f.SizeGB)
	m.ServerID = types.StringPointerValue(f.ServerID)
	m.Format = types.StringPointerValue(f.Format)
	m.Device = types.StringValue(f.Device)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *volumeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m volumeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := volumeRef(m.Name.ValueString())
	r.checkServer(ctx, m.ServerID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.store.Put(ctx, ref, volumeToFile(m)); err != nil {
		addStoreError(&resp.Diagnostics, "update", ref, err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *volumeResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := volumeRef(name.ValueString())
	if err := r.store.Delete(ctx, ref); err != nil {
		addStoreError(&resp.Diagnostics, "delete", ref, err)
	}
}

// ImportState imports a volume by name: terraform import eoslab_volume.x NAME.
func (r *volumeResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
}

// checkServer fails when server_id names no existing server, as attaching to
// a missing server fails in a real cloud.
func (r *volumeResource) checkServer(ctx context.Context, serverID types.String, diags *diag.Diagnostics) {
	if serverID.IsNull() {
		return
	}
	id := serverID.ValueString()
	keys, err := r.store.Keys(ctx, serverKind)
	if err != nil {
		diags.AddAttributeError(path.Root("server_id"), "eoslab: cannot list servers", err.Error())
		return
	}
	for _, key := range keys {
		var s serverFile
		found, err := r.store.Get(ctx, serverRef(key), &s)
		if err != nil {
			diags.AddAttributeError(path.Root("server_id"), "eoslab: cannot read server", err.Error())
			return
		}
		if found && s.ID == id {
			return
		}
	}
	diags.AddAttributeError(path.Root("server_id"), "eoslab: server not found",
		fmt.Sprintf("No eoslab_server has id %q under %s; cannot attach the volume.", id, r.store.Root()))
}

func volumeToFile(m volumeModel) volumeFile {
	return volumeFile{
		ID:       m.ID.ValueString(),
		Name:     m.Name.ValueString(),
		SizeGB:   m.SizeGB.ValueInt64(),
		ServerID: optionalString(m.ServerID),
		Format:   optionalString(m.Format),
		Device:   m.Device.ValueString(),
	}
}

// noShrink refuses, at plan time, a size_gb below the current size.
type noShrink struct{}

var _ planmodifier.Int64 = noShrink{}

func (noShrink) Description(context.Context) string {
	return "a volume can grow in place but never shrink"
}

func (m noShrink) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (noShrink) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if req.StateValue.IsNull() || req.PlanValue.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	// A new name or format replaces the volume, so any size is fine.
	for _, attr := range []string{"name", "format"} {
		var planned, current types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(attr), &planned)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(attr), &current)...)
		if !planned.Equal(current) {
			return
		}
	}
	if from, to := req.StateValue.ValueInt64(), req.PlanValue.ValueInt64(); to < from {
		resp.Diagnostics.AddAttributeError(req.Path, "Volumes cannot shrink",
			fmt.Sprintf("size_gb would go from %d to %d; a volume can only grow. Replace it under a new name to get a smaller one.", from, to))
	}
}
