terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

variable "name" {
  type        = string
  description = "Name of the service."
}

variable "format" {
  type        = string
  description = "Filesystem of the volume."
}

resource "eoslab_volume" "data" {
  name    = "data-${var.name}"
  size_gb = 200
  format  = var.format
}
