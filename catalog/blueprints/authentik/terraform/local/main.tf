# authentik on eoslab, Eos's simulated cloud: a proxy server, a DNS record for the domain and a
# firewall.
# The provider needs no configuration here: the Terraform layer sets EOSLAB_ROOT, the directory
# holding the simulated cloud.

terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

locals {
  # The record lives in var.zone, or else in the domain's parent zone
  # (cloud.example.org → example.org); a two-label domain is its own zone's apex.
  labels = split(".", var.domain)
  zone   = var.zone != "" ? var.zone : (length(local.labels) > 2 ? join(".", slice(local.labels, 1, length(local.labels))) : var.domain)
  record = var.domain == local.zone ? "@" : trimsuffix(var.domain, ".${local.zone}")

  server_labels = merge({
    service    = var.name
    env        = var.env
    managed-by = "eos"
  }, var.frontend_for == "" ? {} : { sso-for = var.frontend_for })
}

resource "eoslab_server" "main" {
  name   = "proxy-${var.name}-${var.env}"
  size   = var.server_size
  image  = var.image
  labels = local.server_labels
}

resource "eoslab_dns_record" "main" {
  zone  = local.zone
  name  = local.record
  type  = "A"
  value = eoslab_server.main.ipv4_address
  ttl   = 300
}

resource "eoslab_firewall" "main" {
  name = "proxy-${var.name}-${var.env}"
  rules = [
    { direction = "in", protocol = "tcp", port = "80", source_ips = ["0.0.0.0/0", "::/0"] },
    { direction = "in", protocol = "tcp", port = "443", source_ips = ["0.0.0.0/0", "::/0"] },
  ]
}
