terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

resource "eoslab_server" "main" {
  name  = "${var.name}-${var.env}"
  size  = "small"
  image = "debian-12"
}

resource "eoslab_firewall" "main" {
  name  = "proxy-${var.name}"
  rules = []
}
