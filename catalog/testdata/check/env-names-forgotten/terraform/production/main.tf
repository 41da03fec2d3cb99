terraform {
  required_providers {
    hcloud = {
      source  = "hetznercloud/hcloud"
      version = "~> 1.48"
    }
  }
}

resource "hcloud_server" "main" {
  name        = "${var.name}-${var.env}"
  server_type = "cx22"
  image       = "debian-12"
}
