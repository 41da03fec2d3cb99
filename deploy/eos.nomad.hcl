# Eos as replicas: the container image built from the repository's Dockerfile, two (or more)
# allocations on different nodes sharing one PostgreSQL store. One leads (it holds the store's
# advisory lock, connects to chat and runs plans); the others stand by, answer /healthz as
# "standby", and take over within seconds when the leader's allocation or node dies. Terraform
# state lives in the same database (schema eos_terraform), so no host volume is needed.
#
#   nomad var put nomad/jobs/eos mattermost_token=... nomad_token=... \
#       store_dsn='postgres://eos@db.internal:5432/eos?sslmode=verify-full' store_password=...
#   nomad job run -var 'mattermost_url=https://chat.example.org' \
#                 -var 'mattermost_channels=ops/infra' deploy/eos.nomad.hcl
#
# One instance on a bbolt file instead: eos-single.nomad.hcl. See deploy/README.md.

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

variable "replicas" {
  type        = number
  default     = 2
  description = "How many Eos run; one leads, the others stand by."
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

  # One allocation at a time, and only once the new one answers /healthz: a standby is healthy,
  # so an update replaces the standbys and the leader in turn, and leadership moves once.
  update {
    max_parallel      = 1
    health_check      = "checks"
    min_healthy_time  = "10s"
    healthy_deadline  = "2m"
    progress_deadline = "5m"
    auto_revert       = true
  }

  group "eos" {
    count = var.replicas

    # Replicas on one node die together.
    constraint {
      operator = "distinct_hosts"
      value    = "true"
    }

    # A replica that lost its leadership exits on purpose (it restarts as a standby).
    restart {
      attempts = 10
      interval = "5m"
      delay    = "2s"
      mode     = "delay"
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
      tags     = ["replica"]

      check {
        name     = "healthz"
        type     = "http"
        path     = "/healthz"
        interval = "5s"
        timeout  = "2s"
      }
    }

    task "eos" {
      driver = "docker"

      # The leader finishes the step it is in and records interrupted runs on SIGTERM; a
      # standby leaves at once.
      kill_signal  = "SIGTERM"
      kill_timeout = "45s"

      config {
        image = var.image
        args  = ["serve"]
        ports = ["ops"]
      }

      env {
        # Working directories and caches only: state is in PostgreSQL.
        EOS_DATA_DIR            = "${NOMAD_ALLOC_DIR}/data"
        EOS_DEFAULT_ENV         = var.default_env
        EOS_MATTERMOST_URL      = var.mattermost_url
        EOS_MATTERMOST_CHANNELS = var.mattermost_channels
        EOS_NOMAD_ADDR          = var.nomad_addr != "" ? var.nomad_addr : "http://${attr.unique.network.ip-address}:4646"
        EOS_LISTEN              = "0.0.0.0:9747"
      }

      # Secrets from Nomad Variables at nomad/jobs/eos (readable by this job only). The DSN
      # carries no password: PostgreSQL's PGPASSWORD does, for Eos and for Terraform's state.
      template {
        destination = "secrets/eos.env"
        env         = true
        change_mode = "restart"
        data        = <<-EOT
          {{ with nomadVar "nomad/jobs/eos" }}
          EOS_MATTERMOST_TOKEN={{ .mattermost_token }}
          EOS_NOMAD_TOKEN={{ .nomad_token }}
          EOS_STORE_DSN={{ .store_dsn }}
          PGPASSWORD={{ .store_password }}
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
