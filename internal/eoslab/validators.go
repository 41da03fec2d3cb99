package eoslab

import (
	"context"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// oneOf accepts only the listed values and names them all in its error.
type oneOf []string

var _ validator.String = oneOf(nil)

func (v oneOf) Description(context.Context) string {
	return "must be one of: " + strings.Join(v, ", ")
}

func (v oneOf) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v oneOf) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if got := req.ConfigValue.ValueString(); !slices.Contains(v, got) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value",
			fmt.Sprintf("%s is %q; it %s.", req.Path, got, v.Description(ctx)))
	}
}

// matches accepts strings matching re; what describes the accepted form.
type matches struct {
	re   *regexp.Regexp
	what string
}

var _ validator.String = matches{}

func (v matches) Description(context.Context) string { return "must be " + v.what }

func (v matches) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v matches) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if got := req.ConfigValue.ValueString(); !v.re.MatchString(got) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value",
			fmt.Sprintf("%s is %q; it %s.", req.Path, got, v.Description(ctx)))
	}
}

// resourceName is the form of server, volume and firewall names: a
// lowercase hostname of at most 63 characters.
var resourceName = matches{
	re:   regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$`),
	what: "1-63 lowercase letters, digits, '-' or '.', starting and ending with a letter or digit",
}

// int64Between accepts integers in [min, max].
type int64Between struct{ min, max int64 }

var _ validator.Int64 = int64Between{}

func (v int64Between) Description(context.Context) string {
	return fmt.Sprintf("must be between %d and %d", v.min, v.max)
}

func (v int64Between) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v int64Between) ValidateInt64(ctx context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if got := req.ConfigValue.ValueInt64(); got < v.min || got > v.max {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value",
			fmt.Sprintf("%s is %d; it %s.", req.Path, got, v.Description(ctx)))
	}
}

// addressList accepts a list whose known elements are IP addresses or CIDR
// prefixes.
type addressList struct{}

var _ validator.List = addressList{}

func (addressList) Description(context.Context) string {
	return "every element must be an IP address or CIDR prefix such as 203.0.113.0/24 or ::/0"
}

func (v addressList) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v addressList) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for i, el := range req.ConfigValue.Elements() {
		s, ok := el.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if !isAddressOrPrefix(s.ValueString()) {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Invalid address",
				fmt.Sprintf("%q is not an IP address or CIDR prefix; %s.", s.ValueString(), v.Description(ctx)))
		}
	}
}

func isAddressOrPrefix(s string) bool {
	if _, err := netip.ParsePrefix(s); err == nil {
		return true
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}
