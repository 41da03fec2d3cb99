service "__NAME__" {
  description = "__NAME__ (say here in a few words what it is: help shows it)"

  flag "domain" {
    type        = hostname
    description = "public name of the service (default: __NAME__.ENV.test, ENV being the environment)"
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
      lv_name     = "data-${service.name}-${env}"
      lv_size     = flag.storage
      fs_type     = "xfs"
      mount_point = "/srv/${service.name}-${env}"
      domain      = coalesce(flag.domain, "__NAME__.${env}.test")
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
      domain    = coalesce(flag.domain, "__NAME__.${env}.test")
      volume_gb = gib(flag.storage)
    }
  }

  nomad {
    job = "nomad/__NAME__.nomad.hcl"
    variables = {
      env      = env
      domain   = coalesce(flag.domain, "__NAME__.${env}.test")
      port     = flag.port
      data_dir = "/srv/${service.name}-${env}"
    }
  }
}
