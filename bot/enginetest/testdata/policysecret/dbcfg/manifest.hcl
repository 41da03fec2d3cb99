service "dbcfg" {
  description = "a configuration file holding a password from the master's own pillar (policy input tests)"

  flag "port" {
    type        = port
    default     = 5432
    description = "port the database listens on"
  }

  salt {
    state = "salt/local.sls"
    pillar = {
      port = flag.port
    }
  }
}
