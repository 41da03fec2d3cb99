terraform {
  required_providers {
    hcloud = {
      source  = "hetznercloud/hcloud"
      version = "~> 1.48"
    }
  }
}

resource "hcloud_server" "main" {
  name        = var.name
  server_type = "cx22"
  image       = "debian-12"
}

resource "cloudflare_record" "main" {
  zone_id = "0123"
  name    = var.name
  type    = "A"
  content = hcloud_server.main.ipv4_address
}
