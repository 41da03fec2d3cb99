service "authentik" {
  description = "single sign-on for the other services"

  flag "frontend-for" {
    type        = service
    description = "service whose sign-in authentik fronts"
  }
  flag "domain" {
    type        = hostname
    pattern     = "[a-z0-9-]+(\\.[a-z0-9-]+)+"   # a fully qualified name, with a dot
    description = "public name of the service (default: auth.ENV.test, ENV being the environment)"
  }

  secret "secret_key" {
    description = "authentik's cookie and token signing key"
  }
  secret "db_password" {
    description = "password of the authentik database user"
  }

  salt {
    state = "salt/local.sls"
    variant "production" {
      state = "salt/authentik.sls"
    }
    pillar = {
      lv_name     = "data-${service.name}-${env}"
      lv_size     = "20G"
      fs_type     = "xfs"
      mount_point = "/srv/${service.name}-${env}"
      domain      = coalesce(flag.domain, "auth.${env}.test")
    }
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = {
      name         = service.name
      env          = env
      domain       = coalesce(flag.domain, "auth.${env}.test")
      frontend_for = coalesce(flag.frontend-for, "")
    }
  }

  nomad {
    job        = "nomad/local.nomad.hcl"
    holds_data = [] # the local job serves a page and keeps nothing
    variant "production" {
      job        = "nomad/authentik.nomad.hcl"
      holds_data = ["db"] # PostgreSQL: stopping or replacing it is data loss
    }
    variables = {
      env          = env
      domain       = coalesce(flag.domain, "auth.${env}.test")
      frontend_for = coalesce(flag.frontend-for, "")
      data_dir     = "/srv/${service.name}-${env}"
    }
  }
}
