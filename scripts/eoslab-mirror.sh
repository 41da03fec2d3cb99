#!/usr/bin/env bash
# eoslab-mirror.sh OUT_DIR
#
# Builds terraform-provider-eoslab (internal/eoslab) and lays it out as a
# Terraform filesystem mirror, so modules that require source = "eos/eoslab"
# can `terraform init` with no registry:
#
#   OUT_DIR/registry.terraform.io/eos/eoslab/VERSION/GOOS_GOARCH/terraform-provider-eoslab_vVERSION
#   OUT_DIR/terraformrc.example   (CLI config: point TF_CLI_CONFIG_FILE at it)
#
# Prints VERSION on stdout (and nothing else there); progress goes to stderr.
#
# Version scheme: 0.1.N, N = the first 8 hex digits (as a decimal number) of
# a sha256 over the provider's sources (non-test .go files of internal/eoslab
# and cmd/terraform-provider-eoslab, go.mod, go.sum, this script) and
# `go version`. Why:
#   - Terraform pins a provider's checksum in .terraform.lock.hcl; a binary
#     rebuilt under the same version no longer matches it and `terraform init`
#     fails, even with -upgrade. So the version must change whenever the
#     binary does, and stay the same when it does not (the build is skipped
#     when that version is already in OUT_DIR).
#   - It must be a plain MAJOR.MINOR.PATCH: Terraform never selects a
#     prerelease such as 0.1.0-abc123 for a constraint like ">= 0.1.0".
#   - N is not ordered by time, so the mirror keeps exactly one eoslab
#     version: older ones are removed, and `terraform init -upgrade` always
#     picks the current build. A plain `terraform init` in a module whose lock
#     file names a removed version fails; run `terraform init -upgrade`.
#
# EOSLAB_VERSION=X.Y.Z overrides the computed version.
set -euo pipefail

if [[ $# -ne 1 || -z $1 ]]; then
	echo "usage: $0 OUT_DIR" >&2
	exit 2
fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$repo"
export GOTOOLCHAIN=local

sources() {
	local f
	for f in internal/eoslab/*.go cmd/terraform-provider-eoslab/*.go; do
		[[ $f == *_test.go ]] || printf '%s\n' "$f"
	done | LC_ALL=C sort
	printf '%s\n' go.mod go.sum scripts/eoslab-mirror.sh
}

version=${EOSLAB_VERSION:-}
if [[ -z $version ]]; then
	hash=$(
		while read -r f; do
			printf '%s\n' "$f"
			cat "$f"
		done < <(sources)
		go version
	)
	hash=$(printf '%s' "$hash" | sha256sum | cut -c1-8)
	version="0.1.$((16#$hash))"
fi
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
	echo "eoslab-mirror: version \"$version\" must be MAJOR.MINOR.PATCH; Terraform never selects prereleases for >= constraints" >&2
	exit 2
fi

platform="$(go env GOOS)_$(go env GOARCH)"
provider_dir="$out/registry.terraform.io/eos/eoslab"
bin="$provider_dir/$version/$platform/terraform-provider-eoslab_v$version"

if [[ -x $bin ]]; then
	echo "eoslab-mirror: $version already in $out, not rebuilding" >&2
else
	echo "eoslab-mirror: building terraform-provider-eoslab $version for $platform" >&2
	mkdir -p "$provider_dir"
	tmp=$(mktemp -d "$provider_dir/.build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	go build -trimpath -ldflags "-X main.version=$version" \
		-o "$tmp/terraform-provider-eoslab_v$version" ./cmd/terraform-provider-eoslab
	mkdir -p "$(dirname "$bin")"
	mv "$tmp/terraform-provider-eoslab_v$version" "$bin"
fi

for dir in "$provider_dir"/*/; do
	old=$(basename "$dir")
	if [[ $old != "$version" ]]; then
		echo "eoslab-mirror: removing stale version $old" >&2
		rm -rf "$dir"
	fi
done

cat >"$out/terraformrc.example.tmp" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$out"
    include = ["registry.terraform.io/eos/*"]
  }
  direct {
    exclude = ["registry.terraform.io/eos/*"]
  }
}
RC
mv "$out/terraformrc.example.tmp" "$out/terraformrc.example"
echo "eoslab-mirror: CLI config written to $out/terraformrc.example (export TF_CLI_CONFIG_FILE=$out/terraformrc.example)" >&2

printf '%s\n' "$version"
