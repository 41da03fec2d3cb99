variable "env" {
  type = string
}

job "nomadundeclared" {
  datacenters = ["dc1"]

  meta {
    env    = var.env
    domain = var.domain
  }
}
