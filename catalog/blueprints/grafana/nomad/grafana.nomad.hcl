# Grafana on Nomad: one group, its database on the data volume Salt mounted.
# Every value Eos supplies is an HCL2 variable below; Nomad parses the job with their values.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "domain" {
  type        = string
  description = "Public DNS name Grafana answers on."
}

variable "port" {
  type        = number
  default     = 3000
  description = "Port Grafana listens on inside its container."
}

variable "data_dir" {
  type        = string
  description = "Host directory on the data volume Salt mounted."
}

variable "vault_secrets_path" {
  type        = string
  default     = ""
  description = "Set by Eos: the Vault path the template reads the service's secrets at, one key each (admin_password)."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters the job may run in."
}

variable "image" {
  type        = string
  default     = "grafana/grafana-oss:11.1.0"
  description = "Grafana container image."
}

job "grafana" {
  datacenters = var.datacenters
  type        = "service"

  meta {
    env       = var.env
    eos_owned = "true"
  }

  update {
    max_parallel     = 1
    health_check     = "checks"
    min_healthy_time = "10s"
    healthy_deadline = "3m"
    auto_revert      = true
  }

  group "grafana" {
    count = 1

    network {
      port "http" {
        to = var.port
      }
    }

    service {
      name     = "grafana-${var.env}"
      port     = "http"
      provider = "nomad"
      tags = [
        "traefik.enable=true",
        "traefik.http.routers.grafana-${var.env}.rule=Host(`${var.domain}`)",
      ]

      check {
        type     = "http"
        path     = "/api/health"
        interval = "15s"
        timeout  = "3s"
      }
    }

    task "grafana" {
      driver = "docker"

      config {
        image   = var.image
        ports   = ["http"]
        volumes = ["${var.data_dir}:/var/lib/grafana"]
      }

      env {
        GF_SERVER_HTTP_PORT = var.port
        GF_SERVER_DOMAIN    = var.domain
        GF_SERVER_ROOT_URL  = "https://${var.domain}/"
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/admin.env"
        env         = true
        data        = <<-EOT
          {{ with secret "${var.vault_secrets_path}" }}GF_SECURITY_ADMIN_PASSWORD={{ .Data.data.admin_password }}{{ end }}
        EOT
      }

      resources {
        cpu    = 300
        memory = 256
      }
    }
  }
}
