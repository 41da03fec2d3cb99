terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

variable "name" {
  type = string
}

resource "eoslab_server" "main" {
  name  = "proxy-${var.name}"
  size  = "small"
  image = "debian-12"
}

resource "eoslab_firewall" "main" {
  name = "proxy-${var.name}"
  rules = [
    { direction = "in", protocol = "tcp", port = "443", source_ips = ["0.0.0.0/0"] },
  ]
}
