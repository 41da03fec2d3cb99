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
// attached to a server; it is imported by name.
type volumeResource struct {
	fileResource[volumeModel, volumeFile]
}

func newVolumeResource() resource.Resource {
	return &volumeResource{fileResource[volumeModel, volumeFile]{
		kind:     volumeKind,
		ref:      volumeModel.ref,
		computed: volumeComputed,
		check:    checkServer,
		toFile:   volumeToFile,
		fromFile: volumeFromFile,
	}}
}

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

func (m volumeModel) ref() Ref { return volumeRef(m.Name.ValueString()) }

func (r *volumeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A simulated block-storage volume, stored as ROOT/volume/<name>.json.",
		Attributes: map[string]schema.Attribute{
			"id":   computedID(),
			"name": nameAttribute("Volume name; changing it replaces the volume."),
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

// checkServer fails when server_id names no existing server, as attaching to
// a missing server fails in a real cloud.
func checkServer(ctx context.Context, store *Store, m volumeModel, diags *diag.Diagnostics) {
	if m.ServerID.IsNull() {
		return
	}
	id := m.ServerID.ValueString()
	keys, err := store.Keys(ctx, serverKind)
	if err != nil {
		diags.AddAttributeError(path.Root("server_id"), "eoslab: cannot list servers", err.Error())
		return
	}
	for _, key := range keys {
		var s serverFile
		found, err := store.Get(ctx, serverRef(key), &s)
		if err != nil {
			diags.AddAttributeError(path.Root("server_id"), "eoslab: cannot read server", err.Error())
			return
		}
		if found && s.ID == id {
			return
		}
	}
	diags.AddAttributeError(path.Root("server_id"), "eoslab: server not found",
		fmt.Sprintf("No eoslab_server has id %q under %s; cannot attach the volume.", id, store.Root()))
}

// volumeComputed sets what a new volume gets: its id and device path.
func volumeComputed(ref Ref, m *volumeModel) {
	m.ID = types.StringValue(fakeID(ref))
	m.Device = types.StringValue("/dev/disk/by-id/scsi-0EOS_Volume_" + m.ID.ValueString())
}

func volumeToFile(_ context.Context, m volumeModel, _ *diag.Diagnostics) volumeFile {
	return volumeFile{
		ID:       m.ID.ValueString(),
		Name:     m.Name.ValueString(),
		SizeGB:   m.SizeGB.ValueInt64(),
		ServerID: optionalString(m.ServerID),
		Format:   optionalString(m.Format),
		Device:   m.Device.ValueString(),
	}
}

func volumeFromFile(_ context.Context, f volumeFile, m *volumeModel, _ *diag.Diagnostics) {
	m.ID = types.StringValue(f.ID)
	m.SizeGB = types.Int64Value(f.SizeGB)
	m.ServerID = types.StringPointerValue(f.ServerID)
	m.Format = types.StringPointerValue(f.Format)
	m.Device = types.StringValue(f.Device)
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
