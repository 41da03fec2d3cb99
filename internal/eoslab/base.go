package eoslab

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"net/netip"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// fakeID derives a stable numeric cloud ID from an object's reference, so
// plans and golden files are reproducible.
func fakeID(ref Ref) string {
	sum := sha256.Sum256([]byte(ref.String()))
	return strconv.FormatUint(uint64(binary.BigEndian.Uint32(sum[:4])%900_000_000+100_000_000), 10)
}

// documentationNets are the IPv4 ranges reserved for documentation
// (RFC 5737): addresses in them never route anywhere.
var documentationNets = [...][3]byte{{192, 0, 2}, {198, 51, 100}, {203, 0, 113}}

// fakeIPv4 derives a stable address in a documentation range from a name.
// It is only data: nothing listens there.
func fakeIPv4(name string) string {
	sum := sha256.Sum256([]byte(name))
	n := binary.BigEndian.Uint32(sum[:4]) % (uint32(len(documentationNets)) * 254)
	net := documentationNets[n/254]
	return netip.AddrFrom4([4]byte{net[0], net[1], net[2], byte(n%254 + 1)}).String()
}

// stringMap converts an optional map attribute to a Go map; null stays nil
// so the JSON file keeps the difference between "unset" and "empty".
func stringMap(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	if m.IsNull() || m.IsUnknown() {
		return nil
	}
	out := map[string]string{}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

// stringList converts an optional list attribute to a Go slice; null stays nil.
func stringList(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	out := []string{}
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// optionalString returns nil for a null or unknown value.
func optionalString(s types.String) *string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	v := s.ValueString()
	return &v
}

// computedID is the schema of every resource's id attribute.
func computedID() schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		Description:   "Stable numeric cloud ID, derived from the object's type and key.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// nameAttribute is the schema of a resource's required name: validated by
// resourceName, and replacing the resource when it changes.
func nameAttribute(description string) schema.StringAttribute {
	return schema.StringAttribute{
		Required:      true,
		Description:   description,
		Validators:    []validator.String{resourceName},
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}
