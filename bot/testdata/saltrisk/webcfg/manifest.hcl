service "webcfg" {
  description = "a web server whose configuration change restarts it (Salt risk tests)"

  flag "port" {
    type        = port
    default     = 8080
    description = "port the web server listens on"
  }

  salt {
    state = "salt/local.sls"
    pillar = {
      port = flag.port
    }
  }
}
