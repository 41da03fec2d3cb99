# Grafana on Hetzner Cloud, with its DNS record at Cloudflare: a proxy server behind a firewall
# and an A record for the domain.
#
# Credentials come from the environment only, never from variables: HCLOUD_TOKEN for Hetzner
# Cloud and CLOUDFLARE_API_TOKEN for Cloudflare.

terraform {
  required_providers {
    hcloud = {
      source  = "hetznercloud/hcloud"
      version = "~> 1.48"
    }
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.40"
    }
  }
}

locals {
  # The record lives in var.zone, or else in the domain's parent zone
  # (cloud.example.org → example.org); a two-label domain is its own zone's apex.
  labels = split(".", var.domain)
  zone   = var.zone != "" ? var.zone : (length(local.labels) > 2 ? join(".", slice(local.labels, 1, length(local.labels))) : var.domain)
  record = var.domain == local.zone ? "@" : trimsuffix(var.domain, ".${local.zone}")

  server_types = { small = "cx22", medium = "cx32", large = "cx42", xlarge = "cx52" }
  server_labels = {
    service    = var.name
    env        = var.env
    managed-by = "eos"
  }
}

resource "hcloud_firewall" "main" {
  name   = "proxy-${var.name}-${var.env}"
  labels = local.server_labels

  rule {
    direction  = "in"
    protocol   = "tcp"
    port       = "80"
    source_ips = ["0.0.0.0/0", "::/0"]
  }

  rule {
    direction  = "in"
    protocol   = "tcp"
    port       = "443"
    source_ips = ["0.0.0.0/0", "::/0"]
  }
}

resource "hcloud_server" "main" {
  name         = "proxy-${var.name}-${var.env}"
  server_type  = local.server_types[var.server_size]
  image        = var.image
  location     = var.location
  labels       = local.server_labels
  firewall_ids = [hcloud_firewall.main.id]

  public_net {
    ipv4_enabled = true
    ipv6_enabled = true
  }
}

data "cloudflare_zone" "main" {
  name = local.zone
}

resource "cloudflare_record" "main" {
  zone_id = data.cloudflare_zone.main.id
  name    = local.record
  type    = "A"
  content = hcloud_server.main.ipv4_address
  ttl     = 300
  proxied = false
}
