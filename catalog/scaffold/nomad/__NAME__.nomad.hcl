# __NAME__ on Nomad: one group running one container, its data on the volume Salt mounted.
# Every value Eos supplies is an HCL2 variable below; Nomad parses the job with their values.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "domain" {
  type        = string
  description = "Public DNS name the service answers on."
}

variable "port" {
  type        = number
  default     = 80
  description = "Port the application listens on inside its container."
}

variable "data_dir" {
  type        = string
  description = "Host directory on the data volume Salt mounted."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters the job may run in."
}

variable "image" {
  type        = string
  default     = "nginx:1.27-alpine"
  description = "Container image; replace it with the application's."
}

job "__NAME__" {
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

  group "app" {
    count = 1

    network {
      port "http" {
        to = var.port
      }
    }

    service {
      name     = "__NAME__-${var.env}"
      port     = "http"
      provider = "nomad"
      tags = [
        "traefik.enable=true",
        "traefik.http.routers.__NAME__-${var.env}.rule=Host(`${var.domain}`)",
      ]

      check {
        type     = "http"
        path     = "/"
        interval = "15s"
        timeout  = "3s"
      }
    }

    task "app" {
      driver = "docker"

      config {
        image   = var.image
        ports   = ["http"]
        volumes = ["${var.data_dir}:/data"]
      }

      resources {
        cpu    = 200
        memory = 256
      }
    }
  }
}
