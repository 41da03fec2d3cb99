service "jenkins" {
  description = "continuous integration server"

  flag "executors" {
    type        = int
    default     = 2
    min         = 1
    max         = 32
    description = "builds the controller runs at once"
  }
  flag "domain" {
    type        = hostname
    pattern     = "[a-z0-9-]+(\\.[a-z0-9-]+)+"   # a fully qualified name, with a dot
    description = "public name of the service (default: jenkins.ENV.test, ENV being the environment)"
  }
  flag "storage" {
    type        = size
    default     = "50G"
    min         = "10G"
    max         = "2T"
    description = "size of the workspace volume"
  }

  secret "admin_password" {
    description = "Jenkins admin password"
  }

  salt {
    state = "salt/local.sls"
    variant "production" {
      state = "salt/jenkins.sls"
      # Its logical volume and mount point: a state that formats, unmounts or removes them
      # loses the data, and the preview says so first (vg0 is the state's default group).
      holds_data = ["/srv/${service.name}-${env}", "/dev/vg0/data-${service.name}-${env}"]
    }
    pillar = {
      lv_name     = "data-${service.name}-${env}"
      lv_size     = flag.storage
      fs_type     = "xfs"
      mount_point = "/srv/${service.name}-${env}"
      domain      = coalesce(flag.domain, "jenkins.${env}.test")
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
      name      = service.name
      env       = env
      domain    = coalesce(flag.domain, "jenkins.${env}.test")
      volume_gb = gib(flag.storage)
    }
  }

  nomad {
    job = "nomad/local.nomad.hcl"
    variant "production" {
      job = "nomad/jenkins.nomad.hcl"
    }
    variables = {
      env          = env
      domain       = coalesce(flag.domain, "jenkins.${env}.test")
      executors    = flag.executors
      data_dir     = "/srv/${service.name}-${env}"
    }
  }
}
