service "nostate" {
  description = "a salt part whose state file is missing"

  salt {
    state  = "salt/missing.sls"
    pillar = { name = service.name }
  }
}
