service "grafana" {
  description = "dashboards"

  flag "port" {
    type        = port
    default     = 3000
    description = "port Grafana listens on inside its container"
  }
  flag "domain" {
    type        = hostname
    pattern     = "[a-z0-9-]+(\\.[a-z0-9-]+)+"   # a fully qualified name, with a dot
    description = "public name of the service (default: grafana.ENV.test, ENV being the environment)"
  }
  flag "admin-password" {
    type        = string
    secret      = true
    description = "administrator password (generated into Vault, never typed in chat)"
  }

  secret "admin_password" {
    description = "Grafana admin password"
  }

  salt {
    state = "salt/local.sls"
    variant "production" {
      state = "salt/grafana.sls"
    }
    pillar = {
      lv_name     = "data-${service.name}-${env}"
      lv_size     = "10G"
      fs_type     = "xfs"
      mount_point = "/srv/${service.name}-${env}"
      domain      = coalesce(flag.domain, "grafana.${env}.test")
    }
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = {
      name   = service.name
      env    = env
      domain = coalesce(flag.domain, "grafana.${env}.test")
    }
  }

  nomad {
    job = "nomad/local.nomad.hcl"
    variant "production" {
      job = "nomad/grafana.nomad.hcl"
    }
    variables = {
      env          = env
      domain       = coalesce(flag.domain, "grafana.${env}.test")
      port         = flag.port
      data_dir     = "/srv/${service.name}-${env}"
    }
  }
}
