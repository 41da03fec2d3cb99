# authentik on Nomad: the server and worker, and their PostgreSQL and Redis.
# Every value Eos supplies is an HCL2 variable below; Nomad parses the job with their values.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "domain" {
  type        = string
  description = "Public DNS name authentik answers on."
}

variable "frontend_for" {
  type        = string
  default     = ""
  description = "Service whose sign-in authentik fronts; empty when it serves no one yet."
}

variable "data_dir" {
  type        = string
  description = "Host directory on the data volume Salt mounted."
}

variable "vault_secrets_path" {
  type        = string
  default     = ""
  description = "Set by Eos: the Vault path the template reads the service's secrets at, one key each (secret_key and db_password)."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters the job may run in."
}

variable "image" {
  type        = string
  default     = "ghcr.io/goauthentik/server:2024.6"
  description = "authentik container image (server and worker)."
}

job "authentik" {
  datacenters = var.datacenters
  type        = "service"

  meta {
    env          = var.env
    frontend_for = var.frontend_for
    eos_owned    = "true"
  }

  update {
    max_parallel     = 1
    health_check     = "checks"
    min_healthy_time = "10s"
    healthy_deadline = "5m"
    auto_revert      = true
  }

  group "db" {
    count = 1

    network {
      port "postgres" {
        to = 5432
      }
      port "redis" {
        to = 6379
      }
    }

    service {
      name     = "authentik-postgres-${var.env}"
      port     = "postgres"
      provider = "nomad"

      check {
        type     = "tcp"
        interval = "10s"
        timeout  = "2s"
      }
    }

    service {
      name     = "authentik-redis-${var.env}"
      port     = "redis"
      provider = "nomad"

      check {
        type     = "tcp"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "postgres" {
      driver = "docker"

      config {
        image   = "postgres:16-alpine"
        ports   = ["postgres"]
        volumes = ["${var.data_dir}/db:/var/lib/postgresql/data"]
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/db.env"
        env         = true
        data        = <<-EOT
          POSTGRES_DB=authentik
          POSTGRES_USER=authentik
          {{ with secret "${var.vault_secrets_path}" }}POSTGRES_PASSWORD={{ .Data.data.db_password }}{{ end }}
        EOT
      }

      resources {
        cpu    = 300
        memory = 384
      }
    }

    task "redis" {
      driver = "docker"

      config {
        image = "redis:7-alpine"
        ports = ["redis"]
      }

      resources {
        cpu    = 100
        memory = 128
      }
    }
  }

  group "server" {
    count = 1

    network {
      port "http" {
        to = 9000
      }
    }

    service {
      name     = "authentik-${var.env}"
      port     = "http"
      provider = "nomad"
      tags = [
        "traefik.enable=true",
        "traefik.http.routers.authentik-${var.env}.rule=Host(`${var.domain}`)",
      ]

      check {
        type     = "http"
        path     = "/-/health/live/"
        interval = "15s"
        timeout  = "3s"
      }
    }

    task "server" {
      driver = "docker"

      config {
        image = var.image
        args  = ["server"]
        ports = ["http"]
      }

      env {
        AUTHENTIK_HOST                     = "https://${var.domain}"
        EOS_FRONTEND_FOR                   = var.frontend_for
        AUTHENTIK_ERROR_REPORTING__ENABLED = "false"
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/authentik.env"
        env         = true
        data        = <<-EOT
          {{ range nomadService "authentik-postgres-${var.env}" }}AUTHENTIK_POSTGRESQL__HOST={{ .Address }}
          AUTHENTIK_POSTGRESQL__PORT={{ .Port }}{{ end }}
          {{ range nomadService "authentik-redis-${var.env}" }}AUTHENTIK_REDIS__HOST={{ .Address }}
          AUTHENTIK_REDIS__PORT={{ .Port }}{{ end }}
          AUTHENTIK_POSTGRESQL__NAME=authentik
          AUTHENTIK_POSTGRESQL__USER=authentik
          {{ with secret "${var.vault_secrets_path}" }}
          AUTHENTIK_POSTGRESQL__PASSWORD={{ .Data.data.db_password }}
          AUTHENTIK_SECRET_KEY={{ .Data.data.secret_key }}
          {{ end }}
        EOT
      }

      resources {
        cpu    = 500
        memory = 768
      }
    }

    task "worker" {
      driver = "docker"

      config {
        image = var.image
        args  = ["worker"]
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/authentik.env"
        env         = true
        data        = <<-EOT
          {{ range nomadService "authentik-postgres-${var.env}" }}AUTHENTIK_POSTGRESQL__HOST={{ .Address }}
          AUTHENTIK_POSTGRESQL__PORT={{ .Port }}{{ end }}
          {{ range nomadService "authentik-redis-${var.env}" }}AUTHENTIK_REDIS__HOST={{ .Address }}
          AUTHENTIK_REDIS__PORT={{ .Port }}{{ end }}
          AUTHENTIK_POSTGRESQL__NAME=authentik
          AUTHENTIK_POSTGRESQL__USER=authentik
          {{ with secret "${var.vault_secrets_path}" }}
          AUTHENTIK_POSTGRESQL__PASSWORD={{ .Data.data.db_password }}
          AUTHENTIK_SECRET_KEY={{ .Data.data.secret_key }}
          {{ end }}
        EOT
      }

      resources {
        cpu    = 300
        memory = 512
      }
    }
  }
}
