# Eos as one Nomad service job instance on its embedded bbolt store (replicas on PostgreSQL:
# eos.nomad.hcl): the container image built from the repository's Dockerfile, one instance
# (bbolt is a single-writer store), its data on a host volume, its secrets from Nomad
# Variables, and /healthz as the service check Nomad deploys against.
#
#   nomad var put nomad/jobs/eos mattermost_token=... nomad_token=...
#   nomad job run -var 'mattermost_url=https://chat.example.org' \
#                 -var 'mattermost_channels=ops/infra' deploy/eos-single.nomad.hcl
#
# See deploy/README.md for the host volume, Vault instead of Nomad Variables, and the raw_exec
# variant (eos-raw_exec.nomad.hcl) the tests run.

variable "image" {
  type        = string
  default     = "ghcr.io/eosbot/eos:latest"
  description = "Eos container image (the repository's Dockerfile); pin a version in production."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters Eos may run in."
}

variable "data_volume" {
  type        = string
  default     = "eos-data"
  description = "Host volume (client config host_volume) holding the store and Terraform state."
}

variable "mattermost_url" {
  type        = string
  description = "Mattermost server Eos connects to."
}

variable "mattermost_channels" {
  type        = string
  description = "Channels Eos serves, team/channel, comma-separated."
}

variable "nomad_addr" {
  type        = string
  default     = ""
  description = "Nomad HTTP API Eos deploys workloads through; empty means the agent on Eos's node."
}

variable "default_env" {
  type        = string
  default     = "production"
  description = "Environment of requests that name none."
}

job "eos" {
  datacenters = var.datacenters
  type        = "service"

  # A new version replaces the old instance only once the new one answers /healthz; the old
  # one is stopped first, since two instances cannot open one bbolt store.
  update {
    max_parallel      = 1
    health_check      = "checks"
    min_healthy_time  = "10s"
    healthy_deadline  = "2m"
    progress_deadline = "5m"
    auto_revert       = true
  }

  group "eos" {
    count = 1

    volume "data" {
      type      = "host"
      source    = var.data_volume
      read_only = false
    }

    network {
      port "ops" {
        to = 9747
      }
    }

    service {
      name     = "eos"
      port     = "ops"
      provider = "nomad"

      check {
        name     = "healthz"
        type     = "http"
        path     = "/healthz"
        interval = "10s"
        timeout  = "3s"
      }
    }

    task "eos" {
      driver = "docker"

      # Eos finishes the step it is in and records interrupted runs on SIGTERM.
      kill_signal  = "SIGTERM"
      kill_timeout = "45s"

      config {
        image = var.image
        args  = ["serve"]
        ports = ["ops"]
      }

      volume_mount {
        volume      = "data"
        destination = "/var/lib/eos"
      }

      env {
        EOS_DATA_DIR            = "/var/lib/eos"
        EOS_DEFAULT_ENV         = var.default_env
        EOS_MATTERMOST_URL      = var.mattermost_url
        EOS_MATTERMOST_CHANNELS = var.mattermost_channels
        EOS_NOMAD_ADDR          = var.nomad_addr != "" ? var.nomad_addr : "http://${attr.unique.network.ip-address}:4646"
        # Inside the container's own network namespace: Nomad reaches it through the "ops"
        # port mapping, nothing else on the node can unless the port is published there.
        EOS_LISTEN = "0.0.0.0:9747"
      }

      # Secrets from Nomad Variables at nomad/jobs/eos (readable by this job only); never in
      # the job file, never in Nomad's job history.
      template {
        destination = "secrets/eos.env"
        env         = true
        change_mode = "restart"
        data        = <<-EOT
          {{ with nomadVar "nomad/jobs/eos" }}
          EOS_MATTERMOST_TOKEN={{ .mattermost_token }}
          EOS_NOMAD_TOKEN={{ .nomad_token }}
          {{ end }}
        EOT
      }

      resources {
        cpu    = 500
        memory = 512
      }
    }
  }
}
