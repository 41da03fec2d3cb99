service "__NAME__" {
  description = "__NAME__ (say here in a few words what it is: help shows it)"

  flag "domain" {
    type        = hostname
    default     = "__NAME__.local.test"
    description = "public name of the service"
  }
  flag "storage" {
    type        = size
    default     = "10G"
    description = "size of the data volume"
  }
  flag "port" {
    type        = port
    default     = 80
    description = "port the application listens on inside its container"
  }

  salt {
    # The local variant manages only files under the minion's data directory; production
    # creates and mounts the data volume and installs what the host needs.
    state = "salt/local.sls"
    variant "production" {
      state = "salt/__NAME__.sls"
    }
    pillar = {
      lv_name     = "data-${service.name}"
      lv_size     = flag.storage
      fs_type     = "xfs"
      mount_point = "/srv/${service.name}"
      domain      = flag.domain
    }
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = {
      name      = service.name
      env       = env
      domain    = flag.domain
      volume_gb = gib(flag.storage)
    }
  }

  nomad {
    job = "nomad/__NAME__.nomad.hcl"
    variables = {
      env      = env
      domain   = flag.domain
      port     = flag.port
      data_dir = "/srv/${service.name}"
    }
  }
}
