package eoslab

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// fileResource is the plumbing every eoslab resource shares: each object is
// one file in the Store, described in Terraform by a model M and on disk by
// a file type F. It implements Metadata, Configure, Create, Read, Update,
// Delete and ImportState; a resource type embeds it, fills in the functions
// below in its constructor and adds its Schema. A resource that is not
// imported by name declares its own ImportState, which takes precedence over
// the embedded one.
type fileResource[M, F any] struct {
	// store is set by Configure.
	store *Store
	// kind is the store directory and the type name's suffix: eoslab_<kind>.
	kind string
	// ref names the object a model describes. It must use only attributes
	// that force replacement, as Update and Delete rely on it too.
	ref func(M) Ref
	// computed fills in what Create derives from the ref, such as the id.
	computed func(Ref, *M)
	// check, if set, vets a planned model against the store before Create
	// and Update write anything.
	check func(context.Context, *Store, M, *diag.Diagnostics)
	// toFile converts a model to its on-disk form.
	toFile func(context.Context, M, *diag.Diagnostics) F
	// fromFile copies a file's contents into a model read from state; the
	// attributes that make up the ref keep their state values.
	fromFile func(context.Context, F, *M, *diag.Diagnostics)
}

// Metadata implements resource.Resource.
func (r *fileResource[M, F]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.kind
}

// Configure implements resource.ResourceWithConfigure: it receives the Store
// built by Provider.Configure.
func (r *fileResource[M, F]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return // validation before the provider is configured
	}
	store, ok := req.ProviderData.(*Store)
	if !ok {
		resp.Diagnostics.AddError("eoslab: unexpected provider data",
			fmt.Sprintf("expected *eoslab.Store, got %T; this is a bug in the provider", req.ProviderData))
		return
	}
	r.store = store
}

// Create writes a new object from the plan, after filling in the computed
// attributes; it refuses to overwrite an existing file.
func (r *fileResource[M, F]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, ref, ok := r.planned(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	r.computed(ref, &m)
	r.write(ctx, "create", r.store.Create, ref, m, &resp.State, &resp.Diagnostics)
}

// Read refreshes state from the object's file, and drops the resource from
// state when the file is gone.
func (r *fileResource[M, F]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, ref, ok := r.stated(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	var f F
	found, err := r.store.Get(ctx, ref, &f)
	if err != nil {
		addStoreError(&resp.Diagnostics, "read", ref, err)
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	r.fromFile(ctx, f, &m, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Update rewrites the object's file from the plan; computed attributes keep
// their state values.
func (r *fileResource[M, F]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m, ref, ok := r.planned(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	r.write(ctx, "update", r.store.Put, ref, m, &resp.State, &resp.Diagnostics)
}

// Delete removes the object's file; a file already gone is not an error.
func (r *fileResource[M, F]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	_, ref, ok := r.stated(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := r.store.Delete(ctx, ref); err != nil {
		addStoreError(&resp.Diagnostics, "delete", ref, err)
	}
}

// ImportState imports an object by name: terraform import eoslab_<kind>.x NAME.
// The following Read fills in the rest from the file.
func (r *fileResource[M, F]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
}

// planned reads the planned model and vets it with check; ok is false when
// the diagnostics hold an error.
func (r *fileResource[M, F]) planned(ctx context.Context, plan tfsdk.Plan, diags *diag.Diagnostics) (m M, ref Ref, ok bool) {
	diags.Append(plan.Get(ctx, &m)...)
	if diags.HasError() {
		return m, Ref{}, false
	}
	ref = r.ref(m)
	if r.check != nil {
		r.check(ctx, r.store, m, diags)
	}
	return m, ref, !diags.HasError()
}

// stated reads the model held in state.
func (r *fileResource[M, F]) stated(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) (m M, ref Ref, ok bool) {
	diags.Append(state.Get(ctx, &m)...)
	if diags.HasError() {
		return m, Ref{}, false
	}
	return m, r.ref(m), true
}

// write stores m's file with put (Store.Create or Store.Put) and, once it is
// written, records m as the new state. action names put in diagnostics.
func (r *fileResource[M, F]) write(ctx context.Context, action string, put func(context.Context, Ref, any) error, ref Ref, m M, state *tfsdk.State, diags *diag.Diagnostics) {
	f := r.toFile(ctx, m, diags)
	if diags.HasError() {
		return
	}
	if err := put(ctx, ref, f); err != nil {
		addStoreError(diags, action, ref, err)
		return
	}
	diags.Append(state.Set(ctx, m)...)
}

// addStoreError reports a failed store operation with a summary a person can
// act on.
func addStoreError(diags *diag.Diagnostics, action string, ref Ref, err error) {
	switch {
	case errors.Is(err, ErrExists):
		diags.AddError(fmt.Sprintf("eoslab %s %q already exists", ref.Kind, ref.Name),
			fmt.Sprintf("Cannot %s: %v. Remove the file or import the object.", action, err))
	case errors.Is(err, ErrSimulatedFailure):
		diags.AddError(fmt.Sprintf("eoslab simulated failure: cannot %s %s %q", action, ref.Kind, ref.Name),
			fmt.Sprintf("%q is listed in fail_on (or $%s), so eoslab refuses to %s it.", ref.Name, EnvFailOn, action))
	default:
		diags.AddError(fmt.Sprintf("eoslab: cannot %s %s %q", action, ref.Kind, ref.Name), err.Error())
	}
}
