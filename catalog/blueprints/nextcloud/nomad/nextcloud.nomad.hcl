# Nextcloud on Nomad: the PHP application and its PostgreSQL database, each in its own group.
# Every value Eos supplies is an HCL2 variable below; Nomad parses the job with their values.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "domain" {
  type        = string
  description = "Public DNS name Nextcloud answers on."
}

variable "sso" {
  type        = bool
  default     = false
  description = "Sign users in through authentik (OpenID Connect)."
}

variable "data_dir" {
  type        = string
  description = "Host directory on the data volume Salt mounted."
}

variable "vault_secrets_path" {
  type        = string
  default     = ""
  description = "Set by Eos: the Vault path the template reads the service's secrets at, one key each (admin_password and db_password)."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters the job may run in."
}

variable "image" {
  type        = string
  default     = "nextcloud:29-apache"
  description = "Nextcloud container image."
}

job "nextcloud" {
  datacenters = var.datacenters
  type        = "service"

  meta {
    env       = var.env
    sso       = var.sso
    eos_owned = "true"
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
      port "db" {
        to = 5432
      }
    }

    service {
      name     = "nextcloud-db-${var.env}"
      port     = "db"
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
        ports   = ["db"]
        volumes = ["${var.data_dir}/db:/var/lib/postgresql/data"]
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/db.env"
        env         = true
        data        = <<-EOT
          POSTGRES_DB=nextcloud
          POSTGRES_USER=nextcloud
          {{ with secret "${var.vault_secrets_path}" }}POSTGRES_PASSWORD={{ .Data.data.db_password }}{{ end }}
        EOT
      }

      resources {
        cpu    = 500
        memory = 512
      }
    }
  }

  group "app" {
    count = 1

    network {
      port "http" {
        to = 80
      }
    }

    service {
      name     = "nextcloud-${var.env}"
      port     = "http"
      provider = "nomad"
      tags = [
        "traefik.enable=true",
        "traefik.http.routers.nextcloud-${var.env}.rule=Host(`${var.domain}`)",
      ]

      check {
        type     = "http"
        path     = "/status.php"
        interval = "15s"
        timeout  = "5s"
      }
    }

    task "nextcloud" {
      driver = "docker"

      config {
        image   = var.image
        ports   = ["http"]
        volumes = ["${var.data_dir}/data:/var/www/html/data"]
      }

      env {
        NEXTCLOUD_TRUSTED_DOMAINS = var.domain
        OVERWRITEHOST             = var.domain
        OVERWRITEPROTOCOL         = "https"
        EOS_SSO                   = var.sso ? "authentik" : "off"
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/app.env"
        env         = true
        data        = <<-EOT
          POSTGRES_DB=nextcloud
          POSTGRES_USER=nextcloud
          {{ range nomadService "nextcloud-db-${var.env}" }}POSTGRES_HOST={{ .Address }}:{{ .Port }}{{ end }}
          {{ with secret "${var.vault_secrets_path}" }}
          POSTGRES_PASSWORD={{ .Data.data.db_password }}
          NEXTCLOUD_ADMIN_USER=admin
          NEXTCLOUD_ADMIN_PASSWORD={{ .Data.data.admin_password }}
          {{ end }}
        EOT
      }

      resources {
        cpu    = 1000
        memory = 1024
      }
    }
  }
}
