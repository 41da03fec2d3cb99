service "nextcloud" {
  description = "file sync and share"

  flag "sso" {
    type        = bool
    description = "sign in through authentik"
  }
  flag "domain" {
    type        = hostname
    pattern     = "[a-z0-9-]+(\\.[a-z0-9-]+)+"   # a fully qualified name, with a dot
    description = "public name of the service (default: cloud.ENV.test, ENV being the environment)"
  }
  flag "storage" {
    type        = size
    default     = "100G"
    min         = "10G"
    max         = "16T"
    description = "size of the data volume"
  }
  flag "distributed-storage" {
    type        = bool
    description = "keep data on a volume replicated across nodes"
  }
  flag "admin-password" {
    type        = string
    secret      = true
    description = "administrator password (generated into Vault, never typed in chat)"
  }

  requires "authentik" {
    when    = flag.sso
    flags   = { frontend-for = service.name }
    because = "--sso"
  }

  secret "admin_password" {
    description = "Nextcloud admin password"
  }
  secret "db_password" {
    description = "password of the Nextcloud database user"
  }

  salt {
    state = "salt/local.sls"
    variant "production" {
      state = "salt/nextcloud.sls"
      # Its logical volume and mount point: a state that formats, unmounts or removes them
      # loses the data, and the preview says so first (vg0 is the state's default group).
      holds_data = ["/srv/${service.name}-${env}", "/dev/vg0/data-${service.name}-${env}"]
    }
    pillar = {
      lv_name     = "data-${service.name}-${env}"
      lv_size     = flag.storage
      fs_type     = "xfs"
      mount_point = "/srv/${service.name}-${env}"
      domain      = coalesce(flag.domain, "cloud.${env}.test")
    }
  }

  terraform {
    module     = "terraform/local"
    holds_data = ["eoslab_volume.data"] # destroying or replacing it loses the data: asked first
    variant "production" {
      module     = "terraform/production"
      holds_data = ["hcloud_volume.data"]
    }
    variables = {
      name                = service.name
      env                 = env
      domain              = coalesce(flag.domain, "cloud.${env}.test")
      volume_gb           = gib(flag.storage)
      distributed_storage = flag.distributed-storage
    }
  }

  nomad {
    job        = "nomad/local.nomad.hcl"
    holds_data = [] # the local job serves a page and keeps nothing
    variant "production" {
      job        = "nomad/nextcloud.nomad.hcl"
      holds_data = ["db"] # PostgreSQL: stopping or replacing it is data loss
    }
    variables = {
      env          = env
      domain       = coalesce(flag.domain, "cloud.${env}.test")
      sso          = flag.sso
      data_dir     = "/srv/${service.name}-${env}"
    }
  }
}
