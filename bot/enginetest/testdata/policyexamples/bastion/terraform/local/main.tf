# A bastion on eoslab: a server and the firewall in front of it, with SSH open to var.ssh_from.

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

variable "env" {
  type = string
}

variable "ssh_from" {
  type = string
}

resource "eoslab_server" "main" {
  name  = "bastion-${var.name}-${var.env}"
  size  = "small"
  image = "debian-12"
}

resource "eoslab_firewall" "main" {
  name = "bastion-${var.name}-${var.env}"
  rules = [
    { direction = "in", protocol = "tcp", port = "22", source_ips = [var.ssh_from] },
    { direction = "in", protocol = "tcp", port = "443", source_ips = ["0.0.0.0/0", "::/0"] },
  ]
}
