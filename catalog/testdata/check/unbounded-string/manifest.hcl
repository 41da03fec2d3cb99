operation "clean" "cache" {
  description = "a check fixture: an argument that reaches a path unbounded"

  arg "name" {
    type        = string
    description = "cache directory under /var/cache"
  }

  salt {
    state  = "salt/clean.sls"
    pillar = { dir = "/var/cache/${arg.name}" }
  }
}
